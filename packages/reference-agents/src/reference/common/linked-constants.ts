import { posix } from 'node:path';
import { localImports, topLevelConstants } from '../mcp-servers/module-constants.js';
import { parseJs, scopeOf, type JsNode } from '../skills/js-source.js';
import { PythonSource, type SyntaxNode } from '../skills/python-source.js';
import type { ScriptLanguage } from '../skills/script-fact.js';
import { readArtifactText, type ArtifactFile } from './artifact-files.js';
import { clearLinks, setLinks } from './linked-constants-store.js';

// Links an artifact's modules: what each file imports from the others (linked-constants-store.ts keeps them).
const MAX_CODE_FILES = 400;
const MAX_CODE_BYTES = 512 * 1024;

const CODE = /\.(?:[cm]?[jt]s|py)$/;
const RELATIVE = /\bfrom\s*['"]\.|\brequire\(\s*['"]\.|^\s*from\s+[\w.]+\s+import\b|^\s*import\s+\w+\.\w/m;
const JS_EXTENSIONS = ['', '.js', '.mjs', '.cjs', '.ts', '.mts', '.cts', '/index.js', '/index.ts'];

/** A JavaScript function's single call, when it passes the parameters through unchanged: its callee's name. */
function jsPassThrough(fn: JsNode, qualify: (n: JsNode) => string | null): string | null {
  const params = fn.params as JsNode[];
  let body = fn.body as JsNode;
  if (body.type === 'BlockStatement') {
    const stmts = body.body as JsNode[];
    if (stmts.length !== 1) return null;
    const s = stmts[0]!;
    const value = s.type === 'ReturnStatement' ? (s.argument as JsNode | null) : s.type === 'ExpressionStatement' ? (s.expression as JsNode) : null;
    if (value === null) return null;
    body = value;
  }
  if (body.type === 'AwaitExpression') body = body.argument as JsNode;
  if (body.type !== 'CallExpression') return null;
  const args = body.arguments as JsNode[];
  if (args.length !== params.length) return null;
  for (let i = 0; i < args.length; i++) {
    const p = params[i]!;
    const a = args[i]!;
    const same = (p.type === 'Identifier' && a.type === 'Identifier' && a.name === p.name) || (p.type === 'RestElement' && a.type === 'SpreadElement' && (a.argument as JsNode).type === 'Identifier' && (a.argument as JsNode).name === (p.argument as JsNode).name);
    if (!same) return null;
  }
  const target = qualify(body.callee as JsNode);
  return target === null || target.startsWith('.') || target === 'require' ? null : target;
}

function jsWrappers(text: string, typescript: boolean): Map<string, string> {
  const out = new Map<string, string>();
  const root = parseJs(text, typescript);
  const scope = scopeOf(root);
  const q = (n: JsNode): string | null => scope.qualify(n);
  for (const statement of (root.body as JsNode[] | undefined) ?? []) {
    const decl = statement.type === 'ExportNamedDeclaration' || statement.type === 'ExportDefaultDeclaration' ? (statement.declaration as JsNode | null) : statement;
    if (decl === null) continue;
    if (decl.type === 'FunctionDeclaration' && (decl.id as JsNode | null) !== null) {
      const t = jsPassThrough(decl, q);
      if (t !== null) out.set((decl.id as JsNode).name as string, t);
    }
    const pairs: [JsNode, JsNode | null][] = decl.type === 'VariableDeclaration' ? (decl.declarations as JsNode[]).map((d) => [d.id as JsNode, d.init as JsNode | null]) : decl.type === 'ExpressionStatement' && (decl.expression as JsNode).type === 'AssignmentExpression' ? [[(decl.expression as JsNode).left as JsNode, (decl.expression as JsNode).right as JsNode]] : [];
    for (const [id, init] of pairs) {
      if (init === null || !/Function/.test(init.type)) continue;
      const name = id.type === 'Identifier' ? (id.name as string) : id.type === 'MemberExpression' ? /^(?:module\.)?exports\.(\w+)$/.exec(q(id) ?? '')?.[1] : undefined;
      const t = name === undefined ? null : jsPassThrough(init, q);
      if (t !== null) out.set(name!, t);
    }
  }
  return out;
}

function pyWrappers(text: string): Map<string, string> {
  const out = new Map<string, string>();
  const src = new PythonSource(text);
  const kids = (n: SyntaxNode): SyntaxNode[] => {
    const list: SyntaxNode[] = [];
    for (let c = n.firstChild; c; c = c.nextSibling) list.push(c);
    return list;
  };
  for (let s = src.tree.topNode.firstChild; s; s = s.nextSibling) {
    if (s.name !== 'FunctionDefinition') continue;
    const name = s.getChild('VariableName');
    const params = s.getChild('ParamList');
    const body = s.getChild('Body');
    if (name === null || params === null || body === null) continue;
    const stmts = kids(body).filter((c) => /Statement$/.test(c.name));
    if (stmts.length !== 1) continue;
    const call = stmts[0]!.name === 'ReturnStatement' || stmts[0]!.name === 'ExpressionStatement' ? stmts[0]!.getChild('CallExpression') : null;
    const args = call?.getChild('ArgList');
    if (call === null || call === undefined || args === null || args === undefined) continue;
    // Parameters and arguments as written, punctuation and defaults aside: `a0, *, shell` against `a0, shell=shell`.
    const p = kids(params).filter((c) => c.name !== '(' && c.name !== ')' && c.name !== ',').map((c) => src.slice(c)).join(' ');
    const a = kids(args).filter((c) => c.name !== '(' && c.name !== ')' && c.name !== ',').map((c) => src.slice(c)).join(' ');
    const positional = p.split(' * ')[0]!.split(' ').filter((x) => x !== '' && x !== '*');
    const keywords = p.includes(' * ') ? p.split(' * ')[1]!.split(' ') : p.startsWith('* ') ? p.slice(2).split(' ') : [];
    const expected = [...positional.filter((x) => !keywords.includes(x)), ...keywords.flatMap((k) => [k, '=', k])].join(' ');
    if (a !== expected || /=/.test(positional.join(''))) continue;
    const target = src.qualify(call.firstChild);
    if (target !== null && !target.startsWith('.')) out.set(src.slice(name), target);
  }
  return out;
}

function languageOf(path: string): ScriptLanguage {
  return path.endsWith('.py') ? 'python' : /\.[cm]?ts$/.test(path) ? 'typescript' : 'javascript';
}

/** Links the constants of an artifact's code files (bounded: a few hundred files, none over 512 KiB), replacing the last artifact's. */
export async function linkArtifactConstants(files: readonly ArtifactFile[]): Promise<void> {
  clearLinks();
  const code = files.filter((f) => CODE.test(f.path) && f.size <= MAX_CODE_BYTES && !f.path.includes('node_modules/')).slice(0, MAX_CODE_FILES);
  if (code.length < 2) return;
  const texts = new Map<string, string>();
  for (const f of code) {
    const text = await readArtifactText(f);
    if (text !== null) texts.set(f.path, text);
  }
  const exists = (p: string): boolean => texts.has(p);
  const wrappersCache = new Map<string, Map<string, string>>();
  const wrappersOf = (path: string): Map<string, string> => {
    let w = wrappersCache.get(path);
    if (w === undefined) {
      const text = texts.get(path)!;
      w = path.endsWith('.py') ? pyWrappers(text) : jsWrappers(text, /\.[cm]?ts$/.test(path));
      wrappersCache.set(path, w);
    }
    return w;
  };
  const constantsCache = new Map<string, Map<string, string>>();
  const constantsOf = (path: string): Map<string, string> => {
    let c = constantsCache.get(path);
    if (c === undefined) {
      c = topLevelConstants(texts.get(path)!, languageOf(path));
      constantsCache.set(path, c);
    }
    return c;
  };
  for (const [path, text] of texts) {
    if (!RELATIVE.test(text)) continue;
    const language = languageOf(path);
    const out = new Map<string, string>();
    const calls = new Map<string, string>();
    for (const [local, [module, name]] of localImports(path, text, language, exists)) {
      const v = constantsOf(module).get(name);
      if (v !== undefined) out.set(local, v);
    }
    const dir = posix.dirname(path);
    if (language === 'python') {
      for (const m of text.matchAll(/^\s*from\s+(\.*)([\w.]*)\s+import\s+\(?([\w\s,]+?)\)?\s*$/gm)) {
        const dots = (m[1] ?? '').length;
        const base = dots > 0 ? [posix.join(dir, ...Array<string>(dots - 1).fill('..'))] : ['', dir, 'src'];
        const written = `${m[1] ?? ''}${m[2] ?? ''}`;
        const dotted = (m[2] ?? '').replace(/\./g, '/');
        for (const spec of (m[3] ?? '').split(',')) {
          const name = /^\s*(\w+)/.exec(spec)?.[1];
          if (name === undefined) continue;
          // `from . import consts` / `from pkg import consts`: a submodule whose constants are read as `consts.X`.
          const sub = base.map((b) => posix.normalize(posix.join(b, dotted, `${name}.py`))).find(exists);
          if (sub !== undefined) for (const [k, v] of constantsOf(sub)) out.set(`${written}.${name}.${k}`, v);
          const mod = base.map((b) => posix.normalize(posix.join(b, `${dotted}.py`))).find(exists) ?? base.map((b) => posix.normalize(posix.join(b, dotted, '__init__.py'))).find(exists);
          const v = mod === undefined ? undefined : constantsOf(mod).get(name);
          if (v !== undefined) out.set(`${written}.${name}`, v);
          const w = mod === undefined ? undefined : wrappersOf(mod).get(name);
          if (w !== undefined) calls.set(`${written}.${name}`, w);
          if (sub !== undefined) for (const [k, t] of wrappersOf(sub)) calls.set(`${written}.${name}.${k}`, t);
        }
      }
      for (const m of text.matchAll(/^\s*import\s+([\w.]+)(?:\s+as\s+\w+)?\s*$/gm)) {
        const dotted = m[1]!.replace(/\./g, '/');
        const mod = ['', dir, 'src'].map((b) => posix.normalize(posix.join(b, `${dotted}.py`))).find(exists);
        if (mod !== undefined) for (const [k, v] of constantsOf(mod)) out.set(`${m[1]!}.${k}`, v);
        if (mod !== undefined) for (const [k, t] of wrappersOf(mod)) calls.set(`${m[1]!}.${k}`, t);
      }
    } else {
      for (const m of text.matchAll(/(?:\bfrom\s*|\brequire\(\s*)['"](\.[^'"]+)['"]/g)) {
        const spec = m[1]!;
        const target = posix.normalize(posix.join(dir, spec));
        const mod = [...JS_EXTENSIONS.map((e) => `${target}${e}`), target.replace(/\.[cm]?js$/, '.ts'), target.replace(/\.mjs$/, '.mts')].find(exists);
        if (mod === undefined) continue;
        const qualified = spec.replace(/^node:/, '');
        for (const [k, v] of constantsOf(mod)) out.set(`${qualified}.${k}`, v);
        for (const [k, t] of wrappersOf(mod)) calls.set(`${qualified}.${k}`, t);
      }
    }
    setLinks(text, out, calls);
  }
}
