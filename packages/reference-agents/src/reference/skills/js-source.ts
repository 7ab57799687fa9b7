import { parse, type Options } from 'acorn';
import { parse as parseLoose } from 'acorn-loose';
import type { N } from '../code/javascript/estree.js';
import { foldArray, foldExpression } from '../code/javascript/fold.js';
import type { Resolve } from '../code/javascript/resolve.js';
import { stripTypeScript } from '../code/strip-typescript.js';
import { importedConstantsOf, importedWrappersOf, linksGeneration } from '../common/linked-constants-store.js';
import { FOLD_MAX_CHARS, FOLD_STEPS } from './fold-bounds.js';

/** An ESTree node as acorn makes it, read loosely: the walk only needs a few fields. */
export interface JsNode {
  type: string;
  start: number;
  end: number;
  [key: string]: unknown;
}

const BASE: Options = { ecmaVersion: 'latest', allowHashBang: true, allowReturnOutsideFunction: true, allowAwaitOutsideFunction: true, allowImportExportEverywhere: true, allowReserved: true };

/**
 * The syntax tree of a script: as a module, else as a classic script, else with acorn-loose (which
 * also reads TypeScript well enough for calls, strings and object literals: type annotations become
 * harmless junk nodes).
 */
export function parseJs(text: string, typescript = false): JsNode {
  // The facts, the tools and the strings of one file each need its tree: parse it once.
  if (lastParse !== null && lastParse.typescript === typescript && lastParse.text === text) return lastParse.root;
  const generation = linksGeneration();
  const kept = takeRecent(text, typescript, generation);
  const root = kept?.root ?? parseUncached(text, typescript);
  if (kept === null) texts.set(root, text);
  if (lastParse !== null) keepRecent(lastParse);
  lastParse = kept ?? { text, typescript, root, generation };
  return root;
}

interface Parsed {
  text: string;
  typescript: boolean;
  root: JsNode;
  /** linksGeneration() when the text was parsed. */
  generation: number;
}

let lastParse: Parsed | null = null;

// The trees of a few texts parsed before the last one (round s30): an MCP server's file is read by
// a dozen readers, and the modules it imports are parsed between two of them; each file was parsed
// several times. A tree is handed out again only as a new parse would be: the links unchanged since
// it was parsed (so its scope, once built, has the same imported names), its scope not given more
// names since (hiddenRecipientFacts adds some), the tree itself never written to by a reader.
const recent: Parsed[] = [];
const RECENT_TREES = 8;
const RECENT_CHARS = 1_500_000;
const RECENT_TEXT_CHARS = 512 * 1024;

function takeRecent(text: string, typescript: boolean, generation: number): Parsed | null {
  const i = recent.findIndex((r) => r.typescript === typescript && r.text === text);
  if (i === -1) return null;
  const [r] = recent.splice(i, 1) as [Parsed];
  const scope = scopes.get(r.root);
  return r.generation === generation && (scope === undefined || scope.importedSets <= 1) ? r : null;
}

function keepRecent(parsed: Parsed): void {
  if (parsed.text.length > RECENT_TEXT_CHARS) return;
  recent.unshift(parsed);
  let chars = 0;
  for (let i = 0; i < recent.length; i++) {
    chars += recent[i]!.text.length;
    if (i >= RECENT_TREES || chars > RECENT_CHARS) {
      recent.length = i;
      break;
    }
  }
}

const scopes = new WeakMap<JsNode, JsScope>();
// The text of each tree, for the constants other modules give it (common/linked-constants.ts).
const texts = new WeakMap<JsNode, string>();

/** The JsScope of a tree, built once per tree. */
export function scopeOf(root: JsNode): JsScope {
  let scope = scopes.get(root);
  if (!scope) {
    scope = new JsScope(root);
    const text = texts.get(root);
    if (text !== undefined) {
      scope.setImported(importedConstantsOf(text));
      scope.setWrappers(importedWrappersOf(text));
    }
    scopes.set(root, scope);
  }
  return scope;
}

function parseUncached(text: string, typescript: boolean): JsNode {
  // TypeScript with its types blanked (same offsets) is JavaScript; when the TypeScript parse
  // fails too, the few type-only forms that confuse acorn-loose most are blanked by pattern.
  const stripped = typescript ? (stripTypeScript(text) ?? stripTypeScript(text, true)) : text;
  if (stripped !== null) {
    for (const sourceType of ['module', 'script'] as const) {
      try {
        return parse(stripped, { ...BASE, sourceType }) as unknown as JsNode;
      } catch {
        // fall through to the next, more tolerant attempt
      }
    }
  }
  return parseLoose(stripped ?? stripTypeOnlySyntax(text), { ...BASE, sourceType: 'module' }) as unknown as JsNode;
}

// `import type`, `export type`, `interface` blocks and `as Type` casts confuse the loose parser the
// most; blanking them (same length, newlines kept) keeps every offset and line.
function stripTypeOnlySyntax(text: string): string {
  const blank = (m: string) => m.replace(/[^\n]/g, ' ');
  return text
    .replace(/^\s*(?:import|export)\s+type\s[^;]*;?/gm, blank)
    .replace(/^\s*(?:export\s+)?interface\s+\w+[^{]*\{[^}]*\}/gm, blank)
    .replace(/\bas\s+(?:const|[A-Z]\w*(?:<[^>]*>)?(?:\[\])?)/g, blank)
    .replace(/(\w|\))!(?=[.[(])/g, '$1 ');
}

export function isNode(value: unknown): value is JsNode {
  return typeof value === 'object' && value !== null && typeof (value as { type?: unknown }).type === 'string';
}

/** Visits every node depth-first with its parent. */
export function walkJs(root: JsNode, visit: (node: JsNode, parent: JsNode | null) => void): void {
  const stack: Array<[JsNode, JsNode | null]> = [[root, null]];
  while (stack.length > 0) {
    const [node, parent] = stack.pop() as [JsNode, JsNode | null];
    visit(node, parent);
    const mark = stack.length;
    for (const key in node) {
      const value = node[key];
      if (typeof value !== 'object' || value === null || key === 'loc' || key === 'range') continue;
      if (Array.isArray(value)) {
        for (const item of value) if (isNode(item)) stack.push([item, node]);
      } else if (isNode(value)) stack.push([value, node]);
    }
    // Children were pushed in source order; reverse them so they pop in source order.
    for (let i = mark, j = stack.length - 1; i < j; i++, j--) {
      const t = stack[i] as [JsNode, JsNode | null];
      stack[i] = stack[j] as [JsNode, JsNode | null];
      stack[j] = t;
    }
  }
}


/**
 * Constant strings and module aliases of one script, so `'sp' + 'awn'`, `const cp = require('child_process')`,
 * `const { exec: run } = cp` and `process['env']` resolve to the names they hide.
 */
export class JsScope {
  private readonly constants = new Map<string, JsNode>();
  // Names bound to a call that may fold (`[a, '@', b].join('')`, `String.fromCharCode(64)`).
  private readonly callInits = new Map<string, JsNode>();
  // Constants imported from the artifact's other modules (set by the caller that resolved them).
  private readonly imported = new Map<string, string>();
  private readonly aliases = new Map<string, string>();
  // The nodes being folded now, outermost first (its size is the fold's depth): a node met again depends on itself.
  private readonly folding = new Set<JsNode>();

  constructor(root: JsNode) {
    walkJs(root, (node) => {
      if (node.type === 'VariableDeclarator') this.declare(node.id as JsNode, node.init as JsNode | null);
      else if (node.type === 'AssignmentExpression' && node.operator === '=' && (node.left as JsNode).type === 'Identifier') this.declare(node.left as JsNode, node.right as JsNode);
      else if (node.type === 'ImportDeclaration') {
        const source = moduleName(String((node.source as JsNode).value));
        for (const spec of node.specifiers as JsNode[]) {
          const local = (spec.local as JsNode).name as string;
          if (spec.type === 'ImportSpecifier') {
            const imported = spec.imported as JsNode;
            this.aliases.set(local, `${source}.${String(imported.name ?? imported.value)}`);
          } else this.aliases.set(local, source);
        }
      }
    });
  }

  private declare(id: JsNode | null, init: JsNode | null): void {
    if (!id || !init) return;
    if (id.type === 'Identifier') {
      const name = id.name as string;
      const target = this.qualify(init);
      if (target !== null && (init.type === 'CallExpression' || init.type === 'MemberExpression' || init.type === 'AwaitExpression' || init.type === 'Identifier')) {
        this.aliases.set(name, target);
      }
      // An identifier is both: `const run = eval` is an alias, `const b = a` (a a string) a constant.
      if (init.type !== 'CallExpression' && init.type !== 'MemberExpression' && !this.constants.has(name)) this.constants.set(name, init);
      if (init.type === 'CallExpression' && !this.callInits.has(name)) this.callInits.set(name, init);
    } else if (id.type === 'ObjectPattern') {
      const base = this.qualify(init);
      if (base === null) return;
      for (const prop of id.properties as JsNode[]) {
        if (prop.type !== 'Property') continue;
        const key = this.propertyName(prop.key as JsNode, Boolean(prop.computed));
        const value = prop.value as JsNode;
        const local = value.type === 'AssignmentPattern' ? (value.left as JsNode) : value;
        if (key !== null && local.type === 'Identifier') this.aliases.set(local.name as string, `${base}.${key}`);
      }
    }
  }

  private wrappers: ReadonlyMap<string, string> = new Map();

  /** Thin wrappers of the artifact's other modules, by qualified name: the call each one makes. */
  setWrappers(values: ReadonlyMap<string, string>): void {
    this.wrappers = values;
  }

  /** How many times names were given to the scope by setImported (scopeOf gives them once). */
  importedSets = 0;

  /** Values of names this module imports from the artifact's other modules, folded there. */
  setImported(values: ReadonlyMap<string, string>): void {
    this.importedSets++;
    for (const [k, v] of values) if (!this.constants.has(k) && !this.callInits.has(k)) this.imported.set(k, v);
  }

  /** The expression a name was declared with when it is not a call or member (a literal, a template, a `+` chain). */
  constantInit(name: string): JsNode | undefined {
    return this.constants.get(name);
  }

  /** The property name of a member expression or object property (`a.b`, `a['b']`, `{ ['b']: 1 }`), or null. */
  propertyName(key: JsNode, computed: boolean): string | null {
    if (!computed && key.type === 'Identifier') return key.name as string;
    return this.fold(key);
  }

  /**
   * The constant string a node evaluates to, or null when it depends on anything not constant.
   * Bounded three ways. In depth: arrays built from themselves (`a = [a.join(',')]`) would
   * otherwise recurse without end (yargs-parser 20.2.9 overflowed the stack). A node met again
   * while it is being folded is a value that depends on itself, so it folds to nothing at once:
   * arrays joined into each other (`a = [b.join('')]; b = [a.join(''), a[0]]`) otherwise branched
   * at every level until the depth bound, seconds for three lines. In work and size: names shared
   * by many parts (`a2 = [a1.join(), a1.join()]`, and so on) fold once per use, so one top-level
   * fold visits at most FOLD_STEPS nodes and no value longer than FOLD_MAX_CHARS is kept.
   */
  fold(node: JsNode | null | undefined): string | null {
    if (!node || this.folding.size > 48 || this.folding.has(node)) return null;
    if (this.folding.size === 0) this.foldSteps = 0;
    if (++this.foldSteps > FOLD_STEPS) return null;
    this.folding.add(node);
    try {
      const value = this.foldNode(node);
      return value !== null && value.length > FOLD_MAX_CHARS ? null : value;
    } finally {
      this.folding.delete(node);
    }
  }

  private foldSteps = 0;

  /** This scope as the code facts' `Resolve` (names, constants and arrays looked up here). */
  private readonly resolveView: Resolve = {
    fold: (e) => this.fold(e as unknown as JsNode) ?? undefined,
    foldArray: (e, st, d) => foldArray(this.resolveView, e, st, d),
    qualify: (e) => this.qualify(e as unknown as JsNode) ?? undefined,
    propertyName: (m) => this.propertyName(m.property as JsNode, Boolean(m.computed)) ?? undefined,
    keySearch: () => undefined,
    arrayOf: (name, st) => {
      const init = this.constants.get(name) ?? this.callInits.get(name);
      return init === undefined ? undefined : foldArray(this.resolveView, init as unknown as N, st, 1);
    },
    constantOf: (name) => this.fold({ type: 'Identifier', name, start: 0, end: 0 }) ?? undefined,
    aliasOf: (name) => this.aliases.get(name),
    moduleAliasOf: (name) => this.aliases.get(name),
    importedConstant: (qualified) => this.imported.get(qualified),
    // Helpers of the file are read by the script facts' own walk (js-facts.ts), not folded here.
    helperCall: () => undefined,
    helperResult: () => undefined,
  };

  private foldNode(node: JsNode): string | null {
    switch (node.type) {
      case 'Literal':
        return typeof node.value === 'string' || typeof node.value === 'number' ? String(node.value) : null;
      case 'TemplateLiteral': {
        const quasis = node.quasis as JsNode[];
        const exprs = node.expressions as JsNode[];
        let out = '';
        for (let i = 0; i < quasis.length; i++) {
          out += String(((quasis[i] as JsNode).value as { cooked?: string; raw: string }).cooked ?? '');
          if (i < exprs.length) {
            const part = this.fold(exprs[i]);
            if (part === null) return null;
            out += part;
          }
        }
        return out;
      }
      case 'MemberExpression': {
        // `parts[0]`: an item of a constant array (an address assembled from a list of its pieces).
        const index = node.computed && (node.property as JsNode).type === 'Literal' ? (node.property as JsNode).value : undefined;
        if (typeof index !== 'number' || !Number.isInteger(index)) {
          // `require('./consts').S0`, `consts.S0`: a constant of another module of the artifact.
          const q = this.qualify(node);
          return q === null ? null : (this.imported.get(q) ?? null);
        }
        const list = this.arrayOf(node.object as JsNode);
        const item = list === null ? undefined : list[index];
        return item === undefined ? null : this.fold(item);
      }
      case 'BinaryExpression': {
        if (node.operator !== '+') return null;
        const left = this.fold(node.left as JsNode);
        const right = left === null ? null : this.fold(node.right as JsNode);
        return left === null || right === null ? null : left + right;
      }
      case 'Identifier': {
        const name = node.name as string;
        const init = this.constants.get(name) ?? this.callInits.get(name);
        if (!init) return this.imported.get(name) ?? null;
        // A name declared with itself in it (`a = a + 'x'`) meets its own init node again: fold cuts it.
        return this.fold(init);
      }
      case 'CallExpression': {
        // ['ex', 'ec'].join('') and 'cexe'.split('').reverse().join('') are common ways to hide a name.
        const callee = node.callee as JsNode;
        const list = callee.type === 'MemberExpression' && (callee.property as JsNode).name === 'join' ? this.arrayOf(callee.object as JsNode) : null;
        if (list !== null) {
          const parts = list.map((e) => this.fold(e));
          const sep = (node.arguments as JsNode[]).length > 0 ? this.fold((node.arguments as JsNode[])[0]) : ',';
          return parts.every((p) => p !== null) && sep !== null ? parts.join(sep) : null;
        }
        // String.fromCharCode(64) and 'a'.concat(b): the '@' or dot an address is hidden behind.
        const args = node.arguments as JsNode[];
        if (callee.type === 'MemberExpression' && (callee.property as JsNode).name === 'fromCharCode' && args.length > 0 && args.length <= 64 && this.qualify(callee) === 'String.fromCharCode') {
          const codes = args.map((a) => (a.type === 'Literal' && typeof a.value === 'number' ? a.value : null));
          return codes.every((c): c is number => c !== null && c >= 0 && c < 0x110000) ? String.fromCodePoint(...codes) : null;
        }
        if (callee.type === 'MemberExpression' && (callee.property as JsNode).name === 'concat' && args.length <= 16) {
          const base = this.fold(callee.object as JsNode);
          const parts = args.map((a) => this.fold(a));
          return base !== null && parts.every((p) => p !== null) ? base + parts.join('') : null;
        }
        // Decoders and string methods (`atob`, `Buffer.from(s, 'base64').toString()`,
        // `s.split('').reverse().join('')`, ...): the code facts' fold, read through this scope's
        // names, so the tools and texts read here decode what the facts decode.
        return foldExpression(this.resolveView, node as unknown as N, { decoded: false }, 0) ?? null;
      }
      default:
        return null;
    }
  }

  /**
   * The elements of a constant array: a literal, a name bound to one (`const parts = […]; parts.join('@')`),
   * or a `.slice(n, m)` of either.
   */
  private arrayOf(node: JsNode, depth = 0): JsNode[] | null {
    if (depth > 4) return null;
    if (node.type === 'ArrayExpression') return (node.elements as Array<JsNode | null>).every((e) => e !== null && e.type !== 'SpreadElement') ? (node.elements as JsNode[]) : null;
    if (node.type === 'Identifier') {
      const init = this.constants.get(node.name as string) ?? this.callInits.get(node.name as string);
      return init ? this.arrayOf(init, depth + 1) : null;
    }
    if (node.type === 'CallExpression' && (node.callee as JsNode).type === 'MemberExpression' && ((node.callee as JsNode).property as JsNode).name === 'slice') {
      const base = this.arrayOf((node.callee as JsNode).object as JsNode, depth + 1);
      const bounds = (node.arguments as JsNode[]).map((a) => (a.type === 'Literal' && typeof a.value === 'number' ? a.value : a.type === 'UnaryExpression' && a.operator === '-' && (a.argument as JsNode).type === 'Literal' ? -Number((a.argument as JsNode).value) : NaN));
      return base === null || bounds.some((b) => Number.isNaN(b)) ? null : base.slice(...(bounds as [number?, number?]));
    }
    return null;
  }

  /**
   * Like fold, but a part that is not constant becomes `*`: a path built from `homedir()` and '/.ssh/id_rsa' reads
   * `*` followed by '/.ssh/id_rsa', enough to see which file a path names.
   */
  foldLoose(node: JsNode | null | undefined): string {
    if (!node) return '*';
    const exact = this.fold(node);
    if (exact !== null) return exact;
    if (node.type === 'BinaryExpression' && node.operator === '+') return this.foldLoose(node.left as JsNode) + this.foldLoose(node.right as JsNode);
    if (node.type === 'TemplateLiteral') {
      const quasis = node.quasis as JsNode[];
      const exprs = node.expressions as JsNode[];
      let out = '';
      for (let i = 0; i < quasis.length; i++) {
        out += String(((quasis[i] as JsNode).value as { cooked?: string }).cooked ?? '');
        if (i < exprs.length) out += this.foldLoose(exprs[i]);
      }
      return out;
    }
    return '*';
  }

  /** The dotted name a callee or object stands for (`child_process.exec`, `fs.readFileSync`, `process.env`), or null. */
  qualify(node: JsNode | null | undefined): string | null {
    const q = this.qualifyName(node);
    return q === null || this.wrappers.size === 0 ? q : (this.wrappers.get(q) ?? q);
  }

  private qualifyName(node: JsNode | null | undefined): string | null {
    if (!node) return null;
    switch (node.type) {
      case 'Identifier': {
        const name = node.name as string;
        return this.aliases.get(name) ?? name;
      }
      case 'MemberExpression': {
        const object = this.qualify(node.object as JsNode);
        const prop = this.propertyName(node.property as JsNode, Boolean(node.computed));
        // `(function () {}).constructor`, `(() => {})[k]` with k folding to 'constructor', `Function.prototype.constructor`:
        // the Function constructor, which compiles its last argument (as the code facts' qualify reads it).
        if (prop === 'constructor' && (isFunctionValue(node.object as JsNode, (n) => this.qualify(n)) || object === 'Function.prototype')) return 'Function';
        if (object === null || prop === null) return null;
        const full = `${object}.${prop}`;
        return full.replace(/^(?:globalThis|window|global|self)\./, '');
      }
      case 'CallExpression': {
        const callee = node.callee as JsNode;
        const args = node.arguments as JsNode[];
        if (callee.type === 'Identifier' && callee.name === 'require' && args.length > 0) {
          const name = this.fold(args[0]);
          return name === null ? null : moduleName(name);
        }
        // `util.promisify(cp.exec)` runs what it wraps: the promise form is the same sink.
        if (args.length === 1 && this.qualify(callee) === 'util.promisify') return this.qualify(args[0]);
        // `await import('child_process')` is handled as ImportExpression; `cp.promises` chains stay names.
        return null;
      }
      case 'ImportExpression': {
        const name = this.fold(node.source as JsNode);
        return name === null ? null : moduleName(name);
      }
      case 'AwaitExpression':
        return this.qualify(node.argument as JsNode);
      case 'ChainExpression':
        return this.qualify(node.expression as JsNode);
      default:
        return null;
    }
  }
}

/** A function written in place (`() => {}`, `function () {}`, a class) or its prototype (`Object.getPrototypeOf(async () => {})`). */
function isFunctionValue(node: JsNode, qualify: (n: JsNode) => string | null): boolean {
  if (/^(?:Arrow)?FunctionExpression$|^ClassExpression$/.test(node.type)) return true;
  const arg = node.type === 'CallExpression' ? (node.arguments as JsNode[])[0] : undefined;
  return arg !== undefined && /^(?:Object|Reflect)\.getPrototypeOf$/.test(qualify(node.callee as JsNode) ?? '') && /^(?:Arrow)?FunctionExpression$/.test(arg.type);
}

function moduleName(name: string): string {
  return name.replace(/^node:/, '').replace(/\/promises$/, '.promises');
}
