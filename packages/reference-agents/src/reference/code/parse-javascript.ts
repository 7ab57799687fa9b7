import { Parser, type Options, type Program } from 'acorn';
import { parse as parseLoose } from 'acorn-loose';
import { stripTypeScript } from './strip-typescript.js';

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

// Flow type annotations and JSX make acorn fail; the loose parser keeps most of the code around
// them, which is what the analysis needs (calls, strings, members). TypeScript is first stripped
// of its types (stripTypeScript): acorn-loose alone drops the calls that follow an annotation.
/**
 * A syntax tree of JavaScript (or, with `typescript`, TypeScript) source: as a module, else as a
 * script, else through acorn-loose. Null only if all three fail. Offsets and lines are those of
 * the source either way.
 */
export function parseJavaScript(text: string, typescript = false): ParsedJavaScript | null {
  const kept = handedOn;
  if (kept !== null) {
    handedOn = null;
    if (kept.text === text && kept.typescript === typescript) return kept.parsed;
  }
  parses++;
  const source = typescript ? (stripTypeScript(text) ?? stripTypeScript(text, true) ?? text) : text;
  for (const sourceType of ['module', 'script'] as const) {
    try {
      return { program: Parser.parse(source, { ...BASE, sourceType }), mode: 'strict' };
    } catch {
      // try the next mode
    }
  }
  try {
    return { program: parseLoose(source, { ...BASE, sourceType: 'module' }), mode: 'loose' };
  } catch {
    return null;
  }
}

// One tree parsed by a reader that only looked at it, for the next parse of the same text: handed
// out once, then dropped, so no tree is shared between two readers that might annotate it, and at
// most one is kept alive.
let handedOn: { text: string; typescript: boolean; parsed: ParsedJavaScript } | null = null;

/** Hands `parsed` (a tree of `text` that was only read) to the next `parseJavaScript` call, if it asks for the same text. */
export function keepForNextParse(text: string, typescript: boolean, parsed: ParsedJavaScript): void {
  handedOn = { text, typescript, parsed };
}

let parses = 0;

/** How many texts `parseJavaScript` has parsed in this process (a tree handed on is not a parse): what a test reads to see a parse saved. */
export function javaScriptParses(): number {
  return parses;
}
