import { posix } from 'node:path';
import { localImports, topLevelConstants } from '../mcp-servers/module-constants.js';
import type { ScriptLanguage } from '../skills/script-fact.js';
import { readArtifactText, type ArtifactFile } from './artifact-files.js';

/**
 * String constants a code file imports from the artifact's other modules, keyed by the file's text
 * (every reader sees a file as its text): the names the file binds (`S0` of `import { S0 } from
 * './consts.js'`, `from .consts import S0`) and the qualified names the readers resolve
 * (`./consts.S0` of `require('./consts').S0`, `.consts.S0`, `..consts.S0` of `from . import consts`).
 * A value moved to a constants module reads as if it were written in place, in every reader.
 */
const linked = new Map<string, ReadonlyMap<string, string>>();
const MAX_LINKED_TEXTS = 4000;
const MAX_CODE_FILES = 400;
const MAX_CODE_BYTES = 512 * 1024;

const CODE = /\.(?:[cm]?[jt]s|py)$/;
const RELATIVE = /\bfrom\s*['"]\.|\brequire\(\s*['"]\.|^\s*from\s+[\w.]+\s+import\b|^\s*import\s+\w+\.\w/m;
const JS_EXTENSIONS = ['', '.js', '.mjs', '.cjs', '.ts', '.mts', '.cts', '/index.js', '/index.ts'];

/** The constants a file's text imports (empty when none were linked). */
export function importedConstantsOf(text: string): ReadonlyMap<string, string> {
  return linked.get(text) ?? EMPTY;
}

const EMPTY: ReadonlyMap<string, string> = new Map();

function languageOf(path: string): ScriptLanguage {
  return path.endsWith('.py') ? 'python' : /\.[cm]?ts$/.test(path) ? 'typescript' : 'javascript';
}

/** Links the constants of an artifact's code files (bounded: a few hundred files, none over 512 KiB). */
export async function linkArtifactConstants(files: readonly ArtifactFile[]): Promise<void> {
  const code = files.filter((f) => CODE.test(f.path) && f.size <= MAX_CODE_BYTES && !f.path.includes('node_modules/')).slice(0, MAX_CODE_FILES);
  if (code.length < 2) return;
  const texts = new Map<string, string>();
  for (const f of code) {
    const text = await readArtifactText(f);
    if (text !== null) texts.set(f.path, text);
  }
  const exists = (p: string): boolean => texts.has(p);
  const constantsCache = new Map<string, Map<string, string>>();
  const constantsOf = (path: string): Map<string, string> => {
    let c = constantsCache.get(path);
    if (c === undefined) {
      c = topLevelConstants(texts.get(path)!, languageOf(path));
      constantsCache.set(path, c);
    }
    return c;
  };
  if (linked.size > MAX_LINKED_TEXTS) linked.clear();
  for (const [path, text] of texts) {
    if (!RELATIVE.test(text)) continue;
    const language = languageOf(path);
    const out = new Map<string, string>();
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
        }
      }
      for (const m of text.matchAll(/^\s*import\s+([\w.]+)(?:\s+as\s+\w+)?\s*$/gm)) {
        const dotted = m[1]!.replace(/\./g, '/');
        const mod = ['', dir, 'src'].map((b) => posix.normalize(posix.join(b, `${dotted}.py`))).find(exists);
        if (mod !== undefined) for (const [k, v] of constantsOf(mod)) out.set(`${m[1]!}.${k}`, v);
      }
    } else {
      for (const m of text.matchAll(/(?:\bfrom\s*|\brequire\(\s*)['"](\.[^'"]+)['"]/g)) {
        const spec = m[1]!;
        const target = posix.normalize(posix.join(dir, spec));
        const mod = [...JS_EXTENSIONS.map((e) => `${target}${e}`), target.replace(/\.[cm]?js$/, '.ts'), target.replace(/\.mjs$/, '.mts')].find(exists);
        if (mod === undefined) continue;
        const qualified = spec.replace(/^node:/, '');
        for (const [k, v] of constantsOf(mod)) out.set(`${qualified}.${k}`, v);
      }
    }
    if (out.size > 0) linked.set(text, out);
  }
}
