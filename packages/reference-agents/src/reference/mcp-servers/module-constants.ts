import { posix } from 'node:path';
import { parseJs, scopeOf, type JsNode } from '../skills/js-source.js';
import { SECRET_PATH_PATTERN, type ScriptLanguage } from '../skills/script-fact.js';
import { pythonSourceOf } from './python-source-cache.js';
import { pythonShellRunningFunctions } from './python-shell-runners.js';
import { DOWNLOAD_WRITE, FETCH_CALL, FILE_READ, FIXED_URL_LITERAL } from './description-sources.js';

/** Reads a file of the artifact by its `/`-separated path (null when absent or not text). */
export type ReadModule = (path: string) => Promise<string | null>;

const JS_EXTENSIONS = ['.js', '.mjs', '.cjs', '.ts', '.mts', '/index.js', '/index.ts'];
const MAX_IMPORTED_MODULES = 8;

/**
 * `process.env.X ?? 'default'` (or `||`): the value the code ships, which is what runs when the user
 * configures nothing (round s29: a Bcc address kept as an environment default one module away).
 */
function shippedDefault(text: string, init: JsNode): JsNode {
  if (init.type !== 'LogicalExpression' || !/^(?:\?\?|\|\|)$/.test(init.operator as string)) return init;
  const left = init.left as JsNode;
  return /^process\.env\b/.test(text.slice(left.start, left.end)) ? (init.right as JsNode) : init;
}

/** The string constants a module binds at its top level (`const A = …`, `export const A = …`, `A = …`), folded there. */
export function topLevelConstants(text: string, language: ScriptLanguage): Map<string, string> {
  const out = new Map<string, string>();
  if (language === 'python') {
    const src = pythonSourceOf(text);
    for (let c = src.tree.topNode.firstChild; c; c = c.nextSibling) {
      if (c.name !== 'AssignStatement') continue;
      const target = c.firstChild;
      if (target?.name !== 'VariableName') continue;
      const value = src.fold(c.lastChild);
      if (value !== null) out.set(src.slice(target), value);
    }
    return out;
  }
  const root = parseJs(text, language === 'typescript');
  const scope = scopeOf(root);
  // Values inside objects and arrays are kept under their path (`settings.retention.copies`, an
  // array's elements joined by commas), and what a function returns under `name()`, so a value
  // built one module away reads the same whether it is a constant, a field or a getter.
  const nested = (prefix: string, given: JsNode | null | undefined, depth: number): void => {
    if (!given || depth > 4) return;
    const node = shippedDefault(text, given);
    if (node.type === 'ObjectExpression') {
      for (const p of node.properties as JsNode[]) {
        if (p.type !== 'Property') continue;
        const key = scope.propertyName(p.key as JsNode, Boolean(p.computed));
        if (key !== null) nested(`${prefix}.${key}`, p.value as JsNode, depth + 1);
      }
      return;
    }
    if (node.type === 'ArrayExpression') {
      const items = (node.elements as Array<JsNode | null>).map((e) => (e ? scope.fold(e) : null));
      if (items.length > 0 && items.every((v) => v !== null)) out.set(prefix, items.join(', '));
      return;
    }
    if (/Function/.test(node.type)) {
      const body = node.body as JsNode;
      const returned = body.type !== 'BlockStatement' ? body : ((body.body as JsNode[]).length === 1 && (body.body as JsNode[])[0]!.type === 'ReturnStatement' ? ((body.body as JsNode[])[0]!.argument as JsNode | null) : null);
      const value = returned ? scope.fold(returned) : null;
      if (value !== null) out.set(`${prefix}()`, value);
      return;
    }
    const value = scope.fold(node);
    if (value !== null) out.set(prefix, value);
  };
  for (const statement of (root.body as JsNode[] | undefined) ?? []) {
    // CommonJS exports: `exports.A = …`, `module.exports.A = …`, `module.exports = { A: … }`.
    const assigned = statement.type === 'ExpressionStatement' && (statement.expression as JsNode).type === 'AssignmentExpression' ? (statement.expression as JsNode) : null;
    if (assigned !== null) {
      const target = scope.qualify(assigned.left as JsNode);
      const cjs = target === null ? null : /^(?:module\.)?exports(?:\.(\w+))?$/.exec(target);
      if (cjs?.[1] !== undefined) nested(cjs[1], assigned.right as JsNode, 0);
      else if (cjs !== null && target === 'module.exports' && (assigned.right as JsNode).type === 'ObjectExpression')
        for (const p of (assigned.right as JsNode).properties as JsNode[]) {
          const key = p.type === 'Property' ? scope.propertyName(p.key as JsNode, Boolean(p.computed)) : null;
          if (key !== null) nested(key, p.value as JsNode, 0);
        }
      continue;
    }
    const decl = statement.type === 'ExportNamedDeclaration' ? (statement.declaration as JsNode | null) : statement;
    if (decl?.type === 'FunctionDeclaration' && (decl.id as JsNode | null)?.name) nested((decl.id as JsNode).name as string, decl, 0);
    if (decl?.type !== 'VariableDeclaration') continue;
    for (const d of decl.declarations as JsNode[]) {
      const id = d.id as JsNode;
      if (id.type !== 'Identifier' || !d.init) continue;
      const value = scope.fold(d.init as JsNode);
      if (value !== null) out.set(id.name as string, value);
      else nested(id.name as string, d.init as JsNode, 0);
    }
  }
  return out;
}

/** `import { A, B as C } from './x.js'`, `const { A } = require('./x')`, `from .x import A as C`: local name → [module, exported name]. */
export function localImports(file: string, text: string, language: ScriptLanguage, exists: (path: string) => boolean): Map<string, [string, string]> {
  const out = new Map<string, [string, string]>();
  const dir = posix.dirname(file);
  if (language === 'python') {
    for (const m of text.matchAll(/^from\s+(\.*)([\w.]*)\s+import\s+\(?([\w\s,]+?)\)?\s*$/gm)) {
      const dots = (m[1] ?? '').length;
      const dotted = (m[2] ?? '').replace(/\./g, '/');
      const bases = dots > 0 ? [posix.join(dir, ...Array<string>(dots - 1).fill('..'))] : ['', dir, posix.dirname(dir)];
      const module = bases.map((b) => posix.normalize(posix.join(b, `${dotted}.py`))).find(exists) ?? bases.map((b) => posix.normalize(posix.join(b, dotted, '__init__.py'))).find(exists);
      if (module === undefined) continue;
      for (const spec of (m[3] ?? '').split(',')) {
        const s = /^\s*(\w+)(?:\s+as\s+(\w+))?\s*$/.exec(spec);
        if (s) out.set(s[2] ?? s[1]!, [module, s[1]!]);
      }
    }
    return out;
  }
  const resolve = (spec: string) => {
    if (!spec.startsWith('.')) return undefined;
    const base = posix.normalize(posix.join(dir, spec));
    const candidates = [base, ...JS_EXTENSIONS.map((e) => `${base}${e}`), base.replace(/\.js$/, '.ts'), base.replace(/\.mjs$/, '.mts')];
    return candidates.find(exists);
  };
  for (const m of text.matchAll(/\bimport\s*\{([^}]*)\}\s*from\s*['"]([^'"]+)['"]|\b(?:const|let|var)\s*\{([^}]*)\}\s*=\s*require\(\s*['"]([^'"]+)['"]\s*\)/g)) {
    const names = m[1] ?? m[3] ?? '';
    const module = resolve(m[2] ?? m[4] ?? '');
    if (module === undefined) continue;
    for (const spec of names.split(',')) {
      const s = /^\s*(\w+)(?:\s*(?:as|:)\s*(\w+))?\s*$/.exec(spec);
      if (s) out.set(s[2] ?? s[1]!, [module, s[1]!]);
    }
  }
  return out;
}

/**
 * The string constants a file imports from the artifact's other modules, each folded in the module
 * that builds it (`export const ARCHIVE = [user, String.fromCharCode(64), host].join('')`), so a
 * recipient, endpoint or instruction assembled one module away reads as the constant it is.
 * One level deep; at most a few modules per file.
 */
// A relative import at all (`from './x'`, `require('../x')`, `from .x import`): the cheap test first.
const RELATIVE_IMPORT = /\bfrom\s*['"]\.|\brequire\(\s*['"]\.|^\s*from\s+\.|^\s*from\s+\w+(?:\.\w+)+\s+import\b/m;

export async function importedConstants(file: string, text: string, language: ScriptLanguage, read: ReadModule, exists: (path: string) => boolean, cache: Map<string, Map<string, string>>): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  if ((language !== 'javascript' && language !== 'typescript' && language !== 'python') || !RELATIVE_IMPORT.test(text)) return out;
  const imports = localImports(file, text, language, exists);
  const modules = [...new Set([...imports.values()].map(([m]) => m))].slice(0, MAX_IMPORTED_MODULES);
  for (const module of modules) {
    if (!cache.has(module)) {
      const source = await read(module);
      const lang: ScriptLanguage = module.endsWith('.py') ? 'python' : /\.[cm]?ts$/.test(module) ? 'typescript' : 'javascript';
      cache.set(module, source === null ? new Map() : topLevelConstants(source, lang));
    }
  }
  for (const [local, [module, name]] of imports) {
    for (const [key, value] of cache.get(module) ?? []) {
      if (key === name) out.set(local, value);
      else if (key.startsWith(`${name}.`) || key === `${name}()`) out.set(`${local}${key.slice(name.length)}`, value);
    }
  }
  return out;
}

// A request in a function body: what the function is given may leave the machine.
const SENDS = /\bfetch\s*\(|\b(?:https?|http2)\.(?:request|get)\s*\(|\baxios(?:\.\w+)?\s*\(|\bgot(?:\.\w+)?\s*\(|\bundici\b|\bXMLHttpRequest\b|\bnew\s+WebSocket\b|\.send\s*\(/;

// Reading files or the environment in a function body.
const READS = /\b(?:readFile\w*|readdir\w*|createReadStream|process\.env)\b/;

/** Exported functions of a JavaScript module whose body makes a request (`export function ship(p) { fetch(…) }`). */
function sendingFunctions(text: string, typescript: boolean): Set<string> {
  return exportedFunctionsWhere(text, typescript, (body) => SENDS.test(body));
}

/**
 * Exported functions of a JavaScript module that read a credential store: the body reads files and
 * names one, or the module names one in a constant the body uses (`const FILES = ['.aws/credentials']`).
 */
function credentialReadingFunctions(text: string, typescript: boolean): Set<string> {
  const stores = [...text.matchAll(/(['"`])([^'"`\n]{2,200})\1/g)].filter((m) => SECRET_PATH_PATTERN.test(m[2]!));
  if (stores.length === 0) return new Set();
  const constants = new Set([...text.matchAll(/\b(?:const|let|var)\s+(\w+)\s*(?::[^=]+)?=\s*([^;]*)/g)].filter((m) => stores.some((st) => m[2]!.includes(st[0]))).map((m) => m[1]!));
  return exportedFunctionsWhere(text, typescript, (body) => READS.test(body) && (SECRET_PATH_PATTERN.test(body) || [...constants].some((c) => new RegExp(`\\b${c}\\b`).test(body))));
}

function exportedFunctionsWhere(text: string, typescript: boolean, test: (body: string) => boolean): Set<string> {
  const out = new Set<string>();
  const root = parseJs(text, typescript);
  for (const statement of (root.body as JsNode[] | undefined) ?? []) {
    const decl = statement.type === 'ExportNamedDeclaration' ? (statement.declaration as JsNode | null) : statement;
    if (!decl) continue;
    const candidates: Array<[string, JsNode]> = [];
    if (decl.type === 'FunctionDeclaration' && (decl.id as JsNode | null)?.name) candidates.push([(decl.id as JsNode).name as string, decl]);
    if (decl.type === 'VariableDeclaration') for (const d of decl.declarations as JsNode[]) if ((d.id as JsNode).type === 'Identifier' && d.init && /Function/.test((d.init as JsNode).type)) candidates.push([(d.id as JsNode).name as string, d.init as JsNode]);
    for (const [name, fn] of candidates) if (test(text.slice(fn.start, fn.end))) out.add(name);
  }
  for (const m of text.matchAll(/\bexports\.(\w+)\s*=\s*(?:async\s+)?function\b[^{]*\{/g)) {
    const body = text.slice(m.index, m.index + 2000);
    if (test(body)) out.add(m[1]!);
  }
  return out;
}

/**
 * Exported functions of a JavaScript module that run their first parameter as a shell line
 * (`exec(cmd, …)`, `execSync(\`… ${cmd}\`)`, `spawn(cmd, { shell: true })`, `spawn('sh', ['-c', cmd])`), also from a callback
 * inside them (`new Promise((resolve) => exec(cmd, …))`).
 */
function shellRunningFunctions(text: string, typescript: boolean): Set<string> {
  if (!/child_process|\bexeca\b|\bshelljs\b/.test(text) || !/\bexec(?:Sync)?\s*\(|shell\s*:\s*true|['"](?:\/bin\/)?(?:ba|z)?sh['"]\s*,\s*\[\s*['"]-l?c['"]|['"]cmd(?:\.exe)?['"]\s*,\s*\[\s*['"]\/c['"]/i.test(text)) return new Set();
  return exportedFunctionsWhere(text, typescript, (body) => {
    const param = /^(?:export\s+)?(?:async\s+)?(?:function\s*\*?\s*[\w$]*\s*)?\(\s*([A-Za-z_$][\w$]*)/.exec(body)?.[1];
    if (param === undefined) return false;
    const p = param.replace(/\$/g, '\\$');
    // The parameter, or a local built from it (`const line = isWindows ? \`cmd /c ${command}\` : command`).
    const names = [p, ...[...body.matchAll(new RegExp(`\\b(?:const|let|var)\\s+([\\w$]+)\\s*=[^;\\n]*(?<![\\w$])${p}(?![\\w$])`, 'g'))].map((m) => m[1]!.replace(/\$/g, '\\$'))].join('|');
    return new RegExp(`(?<![\\w$])(?:exec|execSync)\\s*\\(\\s*(?:${names})\\b|(?<![\\w$])(?:exec|execSync)\\s*\\(\\s*\`[^\`]*\\$\\{\\s*(?:${names})\\s*\\}|\\b(?:spawn|spawnSync|execa)\\s*\\(\\s*(?:${names})\\b[^)]*shell\\s*:\\s*true|\\b(?:spawn|spawnSync|execFile|execFileSync|execa)\\s*\\(\\s*['"](?:/bin/)?(?:ba|z)?sh['"]\\s*,\\s*\\[\\s*['"]-l?c['"]\\s*,\\s*(?:${names})\\b|\\b(?:spawn|spawnSync|execFile|execFileSync|execa)\\s*\\(\\s*['"]cmd(?:\\.exe)?['"]\\s*,\\s*\\[\\s*['"]/c['"]\\s*,\\s*(?:${names})\\b`, 'i').test(body);
  });
}

/**
 * Local names of functions a JavaScript file imports from the artifact's other modules that run
 * what they are given in a shell: a tool handler calling one with its input builds a shell line.
 */
export async function importedShellRunners(file: string, text: string, language: ScriptLanguage, read: ReadModule, exists: (path: string) => boolean, cache: Map<string, Set<string>>): Promise<Set<string>> {
  const out = await importedFunctionsWhere(file, text, language, read, exists, cache, shellRunningFunctions, pythonShellRunningFunctions);
  // Python modules imported whole (`from . import util`, `import util`): their runners are called as `util.run(…)`.
  if (language === 'python') {
    const dir = posix.dirname(file);
    for (const m of text.matchAll(/^(?:from[ \t]+\.+[ \t]+import[ \t]+(\w+)(?:[ \t]+as[ \t]+(\w+))?|import[ \t]+(\w+)(?:[ \t]+as[ \t]+(\w+))?)[ \t]*$/gm)) {
      const name = m[1] ?? m[3]!;
      const local = m[2] ?? m[4] ?? name;
      const module = posix.normalize(posix.join(dir, `${name}.py`));
      if (!exists(module)) continue;
      if (!cache.has(module)) {
        if (cache.size >= 64) break;
        const source = await read(module);
        cache.set(module, source === null ? new Set() : pythonShellRunningFunctions(source));
      }
      for (const fn of cache.get(module) ?? []) out.add(`${local}.${fn}`);
    }
  }
  return out;
}

/**
 * Local names of functions a JavaScript file imports from the artifact's other modules that make a
 * request with what they are given: a tool handler calling one sends data, though its own module
 * has no network call.
 */
export async function importedSenders(file: string, text: string, language: ScriptLanguage, read: ReadModule, exists: (path: string) => boolean, cache: Map<string, Set<string>>): Promise<Set<string>> {
  return importedFunctionsWhere(file, text, language, read, exists, cache, sendingFunctions);
}

/**
 * Local names of functions a JavaScript file imports from the artifact's other modules that read a
 * credential store and return it: a tool handler calling one holds credentials, though its own module
 * names none (credentials read in one module, sent from another).
 */
export async function importedReaders(file: string, text: string, language: ScriptLanguage, read: ReadModule, exists: (path: string) => boolean, cache: Map<string, Set<string>>): Promise<Set<string>> {
  return importedFunctionsWhere(file, text, language, read, exists, cache, credentialReadingFunctions);
}

async function importedFunctionsWhere(file: string, text: string, language: ScriptLanguage, read: ReadModule, exists: (path: string) => boolean, cache: Map<string, Set<string>>, select: (text: string, typescript: boolean) => Set<string>, selectPython?: (text: string) => Set<string>): Promise<Set<string>> {
  const out = new Set<string>();
  if (language === 'python' ? selectPython === undefined : language !== 'javascript' && language !== 'typescript') return out;
  if (!RELATIVE_IMPORT.test(text)) return out;
  const imports = localImports(file, text, language, exists);
  for (const [local, [module, name]] of imports) {
    if (!cache.has(module)) {
      if (cache.size >= 64) break;
      const source = await read(module);
      cache.set(module, source === null ? new Set() : module.endsWith('.py') ? (selectPython?.(source) ?? new Set()) : select(source, /\.[cm]?ts$/.test(module)));
    }
    if (cache.get(module)?.has(name) === true) out.add(local);
  }
  return out;
}

/**
 * What a module exports that fetches from a fixed host of its own: functions whose body makes a
 * request (JavaScript `export function`, Python top-level `def`) and top-level names bound to an
 * answer (`TEXTS = requests.get(URL).json()`); in a module that also writes what it downloads to a file,
 * functions that read files count as well (the download read back). A module whose addresses all come
 * from configuration exports none.
 */
function fetchingExports(text: string, language: 'javascript' | 'typescript' | 'python'): Set<string> {
  if (!FIXED_URL_LITERAL.test(text) || !FETCH_CALL.test(text)) return new Set();
  // A module that downloads to a file: what its functions read back from files is the download too.
  const fetches = DOWNLOAD_WRITE.test(text) ? (body: string) => FETCH_CALL.test(body) || FILE_READ.test(body) : (body: string) => FETCH_CALL.test(body);
  if (language !== 'python') {
    const out = exportedFunctionsWhere(text, language === 'typescript', fetches);
    for (const m of text.matchAll(/^export\s+(?:const|let|var)\s+(\w+)\s*(?::[^=\n]+)?=\s*([^\n]*)/gm)) if (FETCH_CALL.test(m[2]!)) out.add(m[1]!);
    return out;
  }
  const out = new Set<string>();
  const defs = [...text.matchAll(/^(?:async[ \t]+)?def[ \t]+(\w+)/gm)];
  defs.forEach((m, i) => {
    if (fetches(text.slice(m.index, defs[i + 1]?.index ?? text.length))) out.add(m[1]!);
  });
  for (const m of text.matchAll(/^([A-Za-z_]\w*)[ \t]*(?::[^=\n]+)?=(?!=)([^\n]*)$/gm)) if (FETCH_CALL.test(m[2]!) || [...out].some((f) => new RegExp(`\\b${f}\\s*\\(`).test(m[2]!))) out.add(m[1]!);
  return out;
}

/** Local names of what a file imports from the server's other modules that fetches from a fixed host (see fetchingExports). */
export async function importedFetchers(file: string, text: string, language: ScriptLanguage, read: ReadModule, exists: (path: string) => boolean, cache: Map<string, Set<string>>): Promise<Set<string>> {
  return importedFunctionsWhere(file, text, language, read, exists, cache, (t, ts) => fetchingExports(t, ts ? 'typescript' : 'javascript'), (t) => fetchingExports(t, 'python'));
}

const CLOCK = /\bDate\b|\bnow\s*\(|\bgetTime\b|\bget(?:UTC)?(?:FullYear|Month|Date|Day|Hours)\b|\bdatetime\b|\btoday\s*\(|\btime\.time\s*\(|\btimestamp\b/;
const WORDY = /(['"`])(?:(?!\1).){0,20}[A-Za-z]{3,}(?:\s+\S+){3,}/;

/**
 * What a module exports that returns text chosen by the clock or by a count of calls: a function whose
 * body tests `Date`/`now()`/`datetime`/`time.time()` or a name the module counts up (`calls++`,
 * `uses += 1`) and holds a sentence (four or more words). A tool description taken from one changes
 * after approval (a rug pull one module away).
 */
function timedTextExports(text: string, language: 'javascript' | 'typescript' | 'python'): Set<string> {
  if (!WORDY.test(text)) return new Set();
  const counters = new Set([...text.matchAll(/\b([A-Za-z_$][\w$]*)\s*(?:\+\+|\+=\s*1\b)|\+\+\s*([A-Za-z_$][\w$]*)/g)].map((m) => m[1] ?? m[2]!).filter((n) => n.length >= 2 && !/^[ijk]$/.test(n)));
  const timedTest = (test: string) => CLOCK.test(test) || [...counters].some((c) => new RegExp(`(?<![\\w$.])${c.replace(/\$/g, '\\$')}(?![\\w$])`).test(test));
  const tests = (body: string) => language === 'python'
    ? [...body.matchAll(/\bif\s+([^:\n]+):|\bif\s+([^\n]+?)\s+else\b/g)].map((m) => m[1] ?? m[2]!)
    : [...body.matchAll(/\bif\s*\(([^)\n]*(?:\([^)\n]*\)[^)\n]*)*)\)|([^;?\n=]+)\?[^:\n]+:/g)].map((m) => m[1] ?? m[2]!);
  const selects = (body: string) => WORDY.test(body) && tests(body).some(timedTest);
  if (language !== 'python') return exportedFunctionsWhere(text, language === 'typescript', selects);
  const out = new Set<string>();
  const defs = [...text.matchAll(/^(?:async[ \t]+)?def[ \t]+(\w+)/gm)];
  defs.forEach((m, i) => {
    if (selects(text.slice(m.index, defs[i + 1]?.index ?? text.length))) out.add(m[1]!);
  });
  return out;
}

/** Local names of functions a file imports from the server's other modules that return text chosen by the clock or a call count. */
export async function importedTimedTexts(file: string, text: string, language: ScriptLanguage, read: ReadModule, exists: (path: string) => boolean, cache: Map<string, Set<string>>): Promise<Set<string>> {
  return importedFunctionsWhere(file, text, language, read, exists, cache, (t, ts) => timedTextExports(t, ts ? 'typescript' : 'javascript'), (t) => timedTextExports(t, 'python'));
}
