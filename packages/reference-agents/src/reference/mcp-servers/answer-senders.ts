import { posix } from 'node:path';
import type { ScriptLanguage } from '../skills/script-fact.js';
import { SENDS_ANSWER, argumentsAt } from './answer-flows.js';
import type { ReadModule } from './module-constants.js';

/**
 * (round s31b) Functions that send what they are given to the network, as a file of an MCP server calls
 * them: a sampling answer handed to `qa.submit(block, meta)` or `upload(text)` leaves the machine as surely
 * as one handed to `httpx.post` (held-out set 32: a summariser's "quality-assurance" block posted by a helper
 * of another module). A function counts when its body makes a network call (`SENDS_ANSWER`) whose arguments
 * use one of its parameters, or a name assigned from one in the body (`payload = {"qa": qa}`). Only the names
 * called in the 4,000 characters after a sampling request are looked up (24 at most): a function of the file
 * itself (a top-level `def`, a `function` declaration or an arrow function bound to the name), or one of a module
 * of the server it imports (`from . import qa` → `qa.submit`, `from .qa import submit`, `from pkg import qa`,
 * `import { submit } from './qa.js'`, `import * as qa from './qa.js'`, `const qa = require('./qa')`); one level,
 * eight modules at most.
 */

const MAX_MODULES = 8;
const MAX_BODY = 6000;
const NAME = /^[A-Za-z_$][\w$]*$/;

interface FunctionText {
  name: string;
  params: string[];
  body: string;
}

function paramNames(list: string): string[] {
  return list
    .split(',')
    .map((p) => p.trim().replace(/^\*+|^\.\.\./, '').split(/[:=\s?]/)[0] ?? '')
    .filter((p) => NAME.test(p) && p !== 'self' && p !== 'cls');
}

/** The top-level `def` of a Python module named `name`: the lines after the header down to the next line at column 0. */
function pythonFunction(text: string, name: string): FunctionText | null {
  const h = new RegExp(String.raw`^(?:async[ \t]+)?def[ \t]+${name}[ \t]*\(([^)]*)\)[^\n]*:`, 'm').exec(text);
  if (h === null) return null;
  const start = h.index + h[0].length;
  const next = /\n(?=[^\s#])/.exec(text.slice(start, start + MAX_BODY));
  return { name, params: paramNames(h[1]!), body: text.slice(start, next === null ? start + MAX_BODY : start + next.index) };
}

/** The text from the `{` at `open` to the brace that closes it (strings and comments not parsed: a rough bound). */
function braced(text: string, open: number): string {
  let depth = 0;
  const end = Math.min(text.length, open + MAX_BODY);
  for (let i = open; i < end; i++) {
    const c = text[i];
    if (c === '{') depth++;
    else if (c === '}' && --depth === 0) return text.slice(open, i + 1);
  }
  return text.slice(open, end);
}

/** The function declaration or the arrow function bound to `name` in a JavaScript or TypeScript module. */
function jsFunction(text: string, name: string): FunctionText | null {
  const n = name.replace(/\$/g, '\\$');
  const m = new RegExp(String.raw`(?:^|[\s;])(?:export\s+)?(?:default\s+)?(?:async\s+)?function\s*\*?\s*${n}\s*(?:<[^>(]*>)?\s*\(([^)]*)\)[^{;]*\{|(?:^|[\s;])(?:export\s+)?(?:const|let|var)\s+${n}\s*(?::[^=\n]+)?=\s*(?:async\s+)?(?:\(([^)]*)\)|([\w$]+))\s*(?::[^=\n]+)?=>\s*\{`).exec(text);
  if (m === null) return null;
  return { name, params: paramNames(m[1] ?? m[2] ?? m[3] ?? ''), body: braced(text, m.index + m[0].length - 1) };
}

/** Whether a function's body hands one of its parameters (or a name built from one) to a network call. */
function sendsParameter(fn: FunctionText): boolean {
  if (fn.params.length === 0 || !SENDS_ANSWER.test(fn.body)) return false;
  const names = new Set(fn.params);
  for (let round = 0; round < 2; round++) {
    const alt = [...names].map((n) => n.replace(/\$/g, '\\$')).join('|');
    for (const a of fn.body.matchAll(new RegExp(String.raw`(?:^|[\s;{(])(?:(?:const|let|var)\s+)?([A-Za-z_$][\w$]*)\s*(?::\s*[\w$.<>\[\]| ]+)?\s*=(?!=)[^;\n]*?(?<![\w$.'"])(?:${alt})(?![\w$'"])`, 'g'))) names.add(a[1]!);
  }
  const uses = new RegExp(String.raw`(?<![\w$.'"])(?:${[...names].map((n) => n.replace(/\$/g, '\\$')).join('|')})(?![\w$'"])`);
  for (const s of fn.body.matchAll(new RegExp(SENDS_ANSWER.source, 'g'))) {
    const open = s.index + s[0].length - 1;
    if (fn.body[open] === '(' && uses.test(argumentsAt(fn.body, open))) return true;
  }
  return false;
}

/** Whether the module defines `name` as a function that sends one of its parameters to the network. */
function sendingFunction(text: string, name: string, python: boolean): boolean {
  if (!/^[A-Za-z_$][\w$]*$/.test(name) || !SENDS_ANSWER.test(text)) return false;
  const fn = python ? pythonFunction(text, name) : jsFunction(text, name);
  return fn !== null && sendsParameter(fn);
}

// A server-initiated sampling request (as model-channel-findings.ts reads one).
const SAMPLING_CALL = /\b(?:createMessage|create_message)\s*\(|['"`]sampling\/createMessage['"`]|\bctx\.sample\s*\(/g;
const MAX_CANDIDATES = 24;

/** Names called (`f(`, `mod.f(`) in the 4,000 characters after each sampling request: where its answer may be handed. */
function calledAfterSampling(text: string): Set<string> {
  const out = new Set<string>();
  for (const m of text.matchAll(SAMPLING_CALL)) {
    for (const c of text.slice(m.index, m.index + 4000).matchAll(/(?<![\w$.])([A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)?)\s*\(/g)) {
      if (out.size >= MAX_CANDIDATES) return out;
      out.add(c[1]!);
    }
  }
  return out;
}

const JS_EXTENSIONS = ['.js', '.mjs', '.cjs', '.ts', '.mts', '.cts', '/index.js', '/index.ts'];

/**
 * Local bindings of a file's imports of the artifact's own modules: a module bound whole (`qa` → qa.py) or one
 * name of it (`submit` → [qa.py, submit]). Python: `from . import qa`, `from .qa import submit`, and a dotted
 * import that names a module of the artifact (`from notes_mcp import schema`, looked for from the artifact's
 * root, `src/`, the file's folder and the folder above).
 */
export function relativeImportBindings(file: string, text: string, python: boolean, exists: (path: string) => boolean): { modules: Map<string, string>; names: Map<string, [string, string]> } {
  const dir = posix.dirname(file);
  const modules = new Map<string, string>();
  const names = new Map<string, [string, string]>();
  if (python) {
    for (const m of text.matchAll(/^[ \t]*from[ \t]+(\.*)([\w.]*)[ \t]+import[ \t]+\(?([\w \t,\n]+?)\)?[ \t]*$/gm)) {
      const dots = m[1]!.length;
      const dotted = m[2] ? m[2].split('.') : [];
      if (dots === 0 && dotted.length === 0) continue;
      const bases = (dots > 0 ? [posix.join(dir, ...Array<string>(dots - 1).fill('..'))] : ['', 'src', dir, posix.dirname(dir)]).map((b) => posix.normalize(posix.join(b, ...dotted)));
      for (const spec of m[3]!.split(',')) {
        const s = /^\s*(\w+)(?:\s+as\s+(\w+))?\s*$/.exec(spec);
        if (s === null) continue;
        const local = s[2] ?? s[1]!;
        const submodule = bases.flatMap((base) => [posix.join(base, `${s[1]}.py`), posix.join(base, s[1]!, '__init__.py')]).find(exists);
        if (submodule !== undefined) modules.set(local, submodule);
        else {
          const module = bases.flatMap((base) => [`${base}.py`, posix.join(base, '__init__.py')]).find(exists);
          if (module !== undefined) names.set(local, [module, s[1]!]);
        }
      }
    }
    return { modules, names };
  }
  const resolve = (spec: string) => {
    if (!spec.startsWith('.')) return undefined;
    const base = posix.normalize(posix.join(dir, spec));
    return [base, ...JS_EXTENSIONS.map((e) => `${base}${e}`), base.replace(/\.js$/, '.ts'), base.replace(/\.mjs$/, '.mts')].find(exists);
  };
  for (const m of text.matchAll(/\bimport\s*\*\s*as\s+([\w$]+)\s+from\s*['"]([^'"]+)['"]|\b(?:const|let|var)\s+([\w$]+)\s*=\s*require\(\s*['"]([^'"]+)['"]\s*\)/g)) {
    const module = resolve(m[2] ?? m[4]!);
    if (module !== undefined) modules.set((m[1] ?? m[3])!, module);
  }
  for (const m of text.matchAll(/\bimport\s*\{([^}]*)\}\s*from\s*['"]([^'"]+)['"]|\b(?:const|let|var)\s*\{([^}]*)\}\s*=\s*require\(\s*['"]([^'"]+)['"]\s*\)/g)) {
    const module = resolve(m[2] ?? m[4]!);
    if (module === undefined) continue;
    for (const spec of (m[1] ?? m[3]!).split(',')) {
      const s = /^\s*([\w$]+)(?:\s*(?:as|:)\s*([\w$]+))?\s*$/.exec(spec);
      if (s) names.set(s[2] ?? s[1]!, [module, s[1]!]);
    }
  }
  return { modules, names };
}

/** Names (`upload`, `qa.submit`) under which this file calls, after a sampling request, a function that sends its argument to the network. */
export async function answerSenders(file: string, text: string, language: ScriptLanguage, read: ReadModule, exists: (path: string) => boolean): Promise<Set<string>> {
  if (language !== 'python' && language !== 'javascript' && language !== 'typescript') return new Set();
  const python = language === 'python';
  const out = new Set<string>();
  const candidates = calledAfterSampling(text);
  if (candidates.size === 0) return out;
  const { modules, names } = relativeImportBindings(file, text, python, exists);
  const sources = new Map<string, string | null>();
  const source = async (module: string): Promise<string | null> => {
    if (!sources.has(module)) sources.set(module, sources.size < MAX_MODULES ? await read(module) : null);
    return sources.get(module) ?? null;
  };
  for (const c of candidates) {
    const [head, tail] = c.split('.') as [string, string | undefined];
    if (tail === undefined) {
      const imported = names.get(head);
      if (imported !== undefined) {
        const body = await source(imported[0]);
        if (body !== null && sendingFunction(body, imported[1], imported[0].endsWith('.py'))) out.add(c);
      } else if (sendingFunction(text, head, python)) out.add(c);
    } else {
      const module = modules.get(head);
      if (module === undefined) continue;
      const body = await source(module);
      if (body !== null && sendingFunction(body, tail, module.endsWith('.py'))) out.add(c);
    }
  }
  return out;
}
