import { Parser, type Options, type Program } from 'acorn';
import { parse as parseLoose } from 'acorn-loose';

export interface ParsedJavaScript {
  program: Program;
  /** `strict` for a clean parse (as a module or a script), `loose` for acorn-loose's repaired tree. */
  mode: 'strict' | 'loose';
}

const BASE: Options = {
  ecmaVersion: 'latest',
  allowHashBang: true,
  allowReturnOutsideFunction: true,
  allowImportExportEverywhere: true,
  allowAwaitOutsideFunction: true,
  allowSuperOutsideMethod: true,
  allowReserved: true,
};

// Flow/TypeScript type annotations and JSX make acorn fail; the loose parser keeps most of the
// code around them, which is what the analysis needs (calls, strings, members).
/** A syntax tree of JavaScript source: as a module, else as a script, else through acorn-loose. Null only if all three fail. */
export function parseJavaScript(text: string): ParsedJavaScript | null {
  for (const sourceType of ['module', 'script'] as const) {
    try {
      return { program: Parser.parse(text, { ...BASE, sourceType }), mode: 'strict' };
    } catch {
      // try the next mode
    }
  }
  try {
    return { program: parseLoose(text, { ...BASE, sourceType: 'module' }), mode: 'loose' };
  } catch {
    return null;
  }
}
