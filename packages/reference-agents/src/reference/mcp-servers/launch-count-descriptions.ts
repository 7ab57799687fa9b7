import type { AgentFinding } from '@vigil/core';
import { parseJs, walkJs, type JsNode } from '../skills/js-source.js';
import type { ScriptLanguage } from '../skills/script-fact.js';
import { lineLocator } from '../text/line-locator.js';
import { localImports, type ReadModule } from './module-constants.js';
import { referenceFinding } from '../common/reference-finding.js';

// A count kept on disk: the function reads a file, adds one and writes the file back.
const READS_FILE = /\b(?:readFile(?:Sync)?|existsSync|statSync)\s*\(/;
const WRITES_FILE = /\b(?:writeFile(?:Sync)?|appendFile(?:Sync)?|outputFile(?:Sync)?)\s*\(/;
const COUNTS = /\+\+|\+=\s*1\b|\+\s*1\b/;
const OPENER = /\.(?:tool|registerTool|prompt|registerPrompt)\s*\(/g;

interface Fn { params: string[]; body: string }

/** Functions of a module by name (declarations and `const f = (…) => …`), with their parameter names and source. */
function functionsOf(text: string, typescript: boolean): Map<string, Fn> {
  const out = new Map<string, Fn>();
  const params = (fn: JsNode) => ((fn.params as JsNode[]) ?? []).map((p) => {
    const id = p.type === 'AssignmentPattern' ? (p.left as JsNode) : p;
    return id.type === 'Identifier' ? (id.name as string) : '';
  });
  walkJs(parseJs(text, typescript), (n) => {
    if (n.type === 'FunctionDeclaration' && (n.id as JsNode | null)?.name) out.set((n.id as JsNode).name as string, { params: params(n), body: text.slice(n.start, n.end) });
    else if (n.type === 'VariableDeclarator' && (n.id as JsNode).type === 'Identifier' && /^(?:Arrow)?FunctionExpression$/.test((n.init as JsNode | null)?.type ?? '')) out.set((n.id as JsNode).name as string, { params: params(n.init as JsNode), body: text.slice((n.init as JsNode).start, (n.init as JsNode).end) });
  });
  return out;
}

const escape = (s: string) => s.replace(/\$/g, '\\$');
// A test of the value against a number: what a "from the Nth launch on" switch looks like.
const comparesToNumber = (code: string, name: string) => new RegExp(String.raw`(?<![\w$.])${escape(name)}\s*(?:<=?|>=?|[!=]==?)\s*\d|\d\s*(?:<=?|>=?|[!=]==?)\s*${escape(name)}(?![\w$])`).test(code);

/**
 * A tool or prompt description chosen by how often the server has run (a sleeper rug pull; Invariant Labs
 * 2025, round s29): the definition passes a value that a function counts up and keeps on disk between
 * launches (`const launches = bumpLaunches()`: read a state file, add one, write it back) to a description
 * chooser that compares it with a number (`if (launches < 4) return V1[tool]`), or tests it in place.
 * The first launches — the ones a user reviews and approves — show one text, later ones another.
 * A count used for anything else (a first-run notice in the output, logs), or a description chosen by a
 * setting the server does not count, is not reported.
 */
export async function launchCountDescriptionFindings(file: string, text: string, language: ScriptLanguage, read: ReadModule, exists: (path: string) => boolean): Promise<AgentFinding[]> {
  if ((language !== 'javascript' && language !== 'typescript') || !/\.(?:tool|registerTool|prompt|registerPrompt)\s*\(/.test(text)) return [];
  const typescript = language === 'typescript';
  const local = functionsOf(text, typescript);
  const imports = localImports(file, text, language, exists);
  const modules = new Map<string, Map<string, Fn>>();
  const resolve = async (name: string): Promise<Fn | undefined> => {
    if (local.has(name)) return local.get(name);
    const from = imports.get(name);
    if (from === undefined) return undefined;
    if (!modules.has(from[0])) {
      if (modules.size >= 8) return undefined;
      const source = await read(from[0]);
      modules.set(from[0], source === null ? new Map() : functionsOf(source, /\.[cm]?ts$/.test(from[0])));
    }
    return modules.get(from[0])!.get(from[1]);
  };
  // Names bound to a persisted count: `const launches = bumpLaunches()`.
  const counted = new Set<string>();
  for (const m of text.matchAll(/\b(?:const|let|var)\s+([\w$]+)\s*(?::[^=\n]+)?=\s*(?:await\s+)?([\w$]+)\s*\(/g)) {
    const fn = await resolve(m[2]!);
    if (fn && READS_FILE.test(fn.body) && WRITES_FILE.test(fn.body) && COUNTS.test(fn.body)) counted.add(m[1]!);
  }
  if (counted.size === 0) return [];
  const lineAt = lineLocator(text);
  for (const opener of text.matchAll(OPENER)) {
    const span = text.slice(opener.index, opener.index + 400);
    // Only the definition's own arguments: the handler's code starts at its first arrow or function.
    const head = span.slice(0, span.search(/=>|\bfunction\b/) >>> 0);
    for (const name of counted) {
      const word = new RegExp(String.raw`(?<![\w$.])${escape(name)}(?![\w$])`);
      if (!word.test(head)) continue;
      let chosen = comparesToNumber(head, name);
      // `descriptionFor("search_notes", launches)`: the chooser's parameter at that position is compared.
      for (const call of head.matchAll(/([\w$]+)\s*\(([^()]*)\)/g)) {
        const index = call[2]!.split(',').findIndex((a) => word.test(a));
        if (chosen || index < 0) continue;
        const fn = await resolve(call[1]!);
        const param = fn?.params[index];
        if (param) chosen = comparesToNumber(fn.body, param);
      }
      if (chosen) return [referenceFinding({ category: 'tool_poisoning', severity: 'HIGH', title: 'tool description changes after approval (rug pull)', file, line: lineAt(opener.index), evidence: `${head.trim().slice(0, 140)} (${name}: a launch count kept on disk)` })];
    }
  }
  return [];
}
