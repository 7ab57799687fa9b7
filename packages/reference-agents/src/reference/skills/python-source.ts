import { parser } from '@lezer/python';
import type { SyntaxNode, Tree } from '@lezer/common';
import { importedConstantsOf, importedWrappersOf } from '../common/linked-constants-store.js';
import { decodePythonConstant, PYTHON_DECODERS, utf8OfLatin1 } from '../code/python-decoders.js';
import { FOLD_MAX_CHARS, FOLD_STEPS } from './fold-bounds.js';
import { pythonInlineBody, staticMethodClass } from '../code/python-inline.js';

export type { SyntaxNode };

// PythonSource.fold's depth bound: it still folds a long `'a' + 'b' + …` chain (lezer nests it to
// the left, one level a part). Its steps and size are JsScope.fold's (fold-bounds.ts).
const FOLD_DEPTH = 500;

/** A Python file's syntax tree with the names and constants needed to resolve calls through aliases. */
export class PythonSource {
  readonly tree: Tree;
  private readonly aliases = new Map<string, string>();
  private readonly constants = new Map<string, SyntaxNode>();
  // The nodes being folded now (by span and type): a node met again depends on itself.
  private readonly folding = new Set<string>();
  private readonly assignments = new Map<string, SyntaxNode>();
  // Constants imported from the artifact's other modules (set by the caller that resolved them).
  private readonly imported = new Map<string, string>();

  /** Values of names this module imports from the artifact's other modules, folded there. */
  setImported(values: ReadonlyMap<string, string>): void {
    for (const [k, v] of values) if (!this.assignments.has(k)) this.imported.set(k, v);
  }

  constructor(readonly text: string) {
    this.tree = parser.parse(text);
    const cursor = this.tree.cursor();
    do {
      const node = cursor.node;
      if (node.name === 'ImportStatement') this.readImport(node);
      else if (node.name === 'FunctionDefinition') {
        const name = node.getChild('VariableName');
        if (name !== null) this.noteFunction(this.slice(name), node);
      } else if (node.name === 'AssignStatement') {
        const target = node.firstChild;
        const value = node.lastChild;
        if (target?.name === 'VariableName' && value && target !== value && node.getChildren('AssignOp').length === 1) {
          const name = this.slice(target);
          if (!this.assignments.has(name)) this.assignments.set(name, value);
          if (value.name === 'LambdaExpression') this.noteFunction(name, value);
          // `run = os.system`, `e = eval`, `sp = __import__('subprocess')` name what they alias;
          // `cmd = 'ls'` and `a = b` (b a string) are constants. A bare name is both.
          if (value.name === 'VariableName' || value.name === 'MemberExpression' || value.name === 'CallExpression') {
            const qualified = this.qualify(value);
            if (qualified !== null) this.aliases.set(name, qualified);
          }
          if (value.name !== 'MemberExpression' && value.name !== 'CallExpression' && !this.constants.has(name)) this.constants.set(name, value);
        }
      }
    } while (cursor.next());
    this.setImported(importedConstantsOf(text));
    this.wrappers = importedWrappersOf(text);
  }

  // Functions and lambdas of the file by name; a name defined twice is not read (which one runs is not known).
  private readonly functions = new Map<string, SyntaxNode | null>();
  // Helpers being read in place (`inline`): their bound names, innermost last.
  private readonly frames: Map<string, string>[] = [];

  private noteFunction(name: string, node: SyntaxNode): void {
    this.functions.set(name, this.functions.has(name) ? null : node);
  }

  /** The `def` or lambda a callee names (`_d`, `(_d)`), when the file defines that name once. */
  localFunction(callee: SyntaxNode | null | undefined): SyntaxNode | undefined {
    let c = callee ?? null;
    while (c?.name === 'ParenthesizedExpression') c = c.firstChild?.nextSibling ?? null;
    if (c?.name === 'LambdaExpression') return c;
    // (round s31) `K.d(P)`: a `@staticmethod` of a class of the file, called through the class.
    const member = c?.name === 'MemberExpression' ? /^([A-Za-z_]\w*)\.([A-Za-z_]\w*)$/.exec(this.slice(c)) : null;
    if (member !== null) {
      const def = this.functions.get(member[2]!) ?? undefined;
      return def !== undefined && staticMethodClass(def, (n) => this.slice(n)) === member[1] ? def : undefined;
    }
    return c?.name === 'VariableName' ? (this.functions.get(this.slice(c)) ?? undefined) : undefined;
  }

  /**
   * (round s31) What a call of a small helper of the file gives for constant arguments
   * (`pythonInlineBody`): `_d(P)` with `def _d(x): return base64.b64decode(x)` folds as
   * `base64.b64decode(P)` does. Recursion, keyword or starred arguments leave it unfolded.
   */
  private inline(fn: SyntaxNode, items: SyntaxNode[]): string | null {
    if (this.frames.length >= 4) return null;
    const body = pythonInlineBody(fn, (n) => this.slice(n));
    if (body === undefined || body.params.length !== items.length || items.some((a) => a.name === 'AssignOp' || a.name === '*' || a.name === '**')) return null;
    const frame = new Map<string, string>();
    for (let i = 0; i < items.length; i++) {
      const v = this.fold(items[i]);
      if (v === null) return null;
      frame.set(body.params[i]!, v);
    }
    this.frames.push(frame);
    try {
      for (const step of body.steps) {
        const v = this.fold(step.value);
        if (v === null) return null;
        frame.set(step.name, v);
      }
      return this.fold(body.result);
    } finally {
      this.frames.pop();
    }
  }

  /** The value first assigned to a module- or function-level name (`x = …`), whatever it is. */
  assignment(name: string): SyntaxNode | undefined {
    return this.assignments.get(name);
  }

  slice(node: SyntaxNode): string {
    return this.text.slice(node.from, node.to);
  }

  private readImport(node: SyntaxNode): void {
    const src = this.slice(node);
    const from = /^from\s+([\w.]+)\s+import\b/.exec(src);
    if (from) {
      const module = from[1] as string;
      for (const m of src.slice(from[0].length).replace(/[()\\\n]/g, ' ').split(',')) {
        const spec = /^\s*([\w]+)(?:\s+as\s+(\w+))?\s*$/.exec(m);
        if (spec) this.aliases.set(spec[2] ?? (spec[1] as string), `${module}.${spec[1] as string}`);
      }
      return;
    }
    for (const m of src.replace(/^import\s+/, '').split(',')) {
      const spec = /^\s*([\w.]+)(?:\s+as\s+(\w+))?\s*$/.exec(m);
      if (!spec) continue;
      const module = spec[1] as string;
      if (spec[2]) this.aliases.set(spec[2], module);
      else this.aliases.set(module.split('.')[0] as string, module.split('.')[0] as string);
    }
  }

  // Thin wrappers of the artifact's other modules, by qualified name: the call each one makes.
  private wrappers: ReadonlyMap<string, string> = new Map();

  /** The dotted name a callee stands for (`subprocess.run`, `os.system`), or null. */
  qualify(node: SyntaxNode | null): string | null {
    const q = this.qualifyName(node);
    return q === null || this.wrappers.size === 0 ? q : (this.wrappers.get(q) ?? q);
  }

  private qualifyName(node: SyntaxNode | null): string | null {
    if (!node) return null;
    if (node.name === 'VariableName') {
      const name = this.slice(node);
      return this.aliases.get(name) ?? name;
    }
    if (node.name === 'MemberExpression') {
      const object = this.qualify(node.firstChild);
      const prop = node.lastChild;
      if (object === null || !prop) return null;
      if (prop.name === 'PropertyName') return `${object}.${this.slice(prop)}`;
      if (prop.name === ']') {
        const key = node.getChild('String');
        const folded = key ? this.fold(key) : null;
        if (folded === null) return null;
        // (round s31) A name of the module's namespace (`globals()['__builtins__']`), or a module by name (`sys.modules['builtins']`).
        return object === '' || object === 'sys.modules' ? folded : `${object}.${folded}`;
      }
      return null;
    }
    if (node.name === 'CallExpression') {
      // __import__('os').system and importlib.import_module('subprocess').run
      const callee = this.qualify(node.firstChild);
      if (callee === '__import__' || callee === 'importlib.import_module') {
        const arg = this.args(node)[0];
        return arg ? this.fold(arg.value) : null;
      }
      if (callee === 'getattr') {
        const [obj, attr] = this.args(node);
        const base = obj ? this.qualify(obj.value) : null;
        const key = attr ? this.fold(attr.value) : null;
        return base !== null && key !== null ? `${base}.${key}` : null;
      }
      // (round s31) `globals()`, `locals()`, `vars()`: the module's namespace, whose `['__builtins__']` is `__builtins__`.
      if ((callee === 'globals' || callee === 'locals' || callee === 'vars') && this.args(node).length === 0) return '';
    }
    return null;
  }

  /**
   * The constant string a node stands for, or null. Bounded as JsScope.fold is: a node met again
   * while it is being folded (lists indexed into each other, `A = [B[0]]; B = [A[0], …]`, which
   * overflowed the stack) folds to nothing, and one top-level fold visits at most FOLD_STEPS nodes
   * and keeps no value longer than FOLD_MAX_CHARS. Nodes are keyed by their span and type: lezer
   * makes a new object each time a child is read.
   */
  fold(node: SyntaxNode | null | undefined): string | null {
    if (!node) return null;
    const key = `${node.from}:${node.to}:${node.type.id}`;
    if (this.folding.has(key) || this.folding.size > FOLD_DEPTH) return null;
    if (this.folding.size === 0) this.foldSteps = 0;
    if (++this.foldSteps > FOLD_STEPS) return null;
    this.folding.add(key);
    try {
      const value = this.foldNode(node);
      return value !== null && value.length > FOLD_MAX_CHARS ? null : value;
    } finally {
      this.folding.delete(key);
    }
  }

  private foldSteps = 0;

  private foldNode(node: SyntaxNode): string | null {
    if (node.name === 'String') return stringValue(this.slice(node));
    if (node.name === 'ContinuedString') {
      let out = '';
      for (let c = node.firstChild; c; c = c.nextSibling) {
        const v = this.fold(c);
        if (v === null) return null;
        out += v;
      }
      return out;
    }
    if (node.name === 'Number') return this.slice(node);
    if (node.name === 'ParenthesizedExpression') return this.fold(node.firstChild?.nextSibling);
    if (node.name === 'BinaryExpression') {
      const op = node.getChild('ArithOp');
      if (!op || this.slice(op) !== '+') return null;
      const left = this.fold(node.firstChild);
      const right = left === null ? null : this.fold(node.lastChild);
      return left === null || right === null ? null : left + right;
    }
    if (node.name === 'CallExpression') {
      // "".join([...]) and chr(64): how an address or a host is assembled from pieces.
      const callee = node.firstChild;
      const argList = node.getChild('ArgList');
      const items: SyntaxNode[] = [];
      for (let c = argList?.firstChild ?? null; c; c = c.nextSibling) if (!['(', ')', ','].includes(c.name)) items.push(c);
      if (callee?.name === 'VariableName' && this.slice(callee) === 'chr' && items.length === 1 && items[0]!.name === 'Number') {
        const code = Number(this.slice(items[0]!));
        return Number.isInteger(code) && code >= 0 && code < 0x110000 ? String.fromCodePoint(code) : null;
      }
      if (callee?.name === 'MemberExpression' && callee.lastChild && this.slice(callee.lastChild) === 'join' && items.length === 1) {
        const sep = this.fold(callee.firstChild);
        const list = items[0]!;
        // "".join(map(chr, [101, 120, 101, 99])): characters from their codes.
        if (sep !== null && list.name === 'CallExpression' && this.slice(list.firstChild ?? list) === 'map') {
          const mapArgs: SyntaxNode[] = [];
          for (let c = list.getChild('ArgList')?.firstChild ?? null; c; c = c.nextSibling) if (!['(', ')', ','].includes(c.name)) mapArgs.push(c);
          const codes = mapArgs[1]?.name === 'ArrayExpression' || mapArgs[1]?.name === 'TupleExpression' ? this.numbers(mapArgs[1]) : null;
          if (mapArgs[0] && this.slice(mapArgs[0]) === 'chr' && codes !== null) return codes.map((c) => String.fromCodePoint(c)).join(sep);
          return null;
        }
        const elements = sep === null ? null : this.listItems(list);
        if (elements === null) return null;
        const parts: string[] = [];
        for (const c of elements) {
          const v = this.fold(c);
          if (v === null) return null;
          parts.push(v);
        }
        return parts.join(sep as string);
      }
      // (round s31) A helper of the file called on constants is read in place.
      const helper = this.localFunction(callee);
      if (helper !== undefined) return this.inline(helper, items);
      // `base64.b64decode('…').decode()`, `bytes.fromhex('…').decode()`: the shared decoders, so a
      // value these readers see is the one the code facts see.
      const q = callee === null ? null : this.qualify(callee);
      if (q !== null && PYTHON_DECODERS.test(q) && items[0] !== undefined) {
        const v = this.fold(items[0]);
        const decoded = v === null ? undefined : decodePythonConstant(q, v, items[1] === undefined ? undefined : (this.fold(items[1]) ?? undefined));
        return decoded ?? null;
      }
      if (callee?.name === 'MemberExpression' && callee.lastChild !== null && /^(decode|strip|lower)$/.test(this.slice(callee.lastChild)) && items.length <= 1) {
        const v = this.fold(callee.firstChild);
        return v === null ? null : this.slice(callee.lastChild) === 'decode' ? utf8OfLatin1(v) : this.slice(callee.lastChild) === 'strip' ? v.trim() : v.toLowerCase();
      }
      return null;
    }
    // `consts.S0`, `pkg.consts.S0`: a constant of another module of the artifact.
    if (node.name === 'MemberExpression' && node.lastChild?.name === 'PropertyName') {
      const q = this.qualify(node);
      return q === null ? null : (this.imported.get(q) ?? null);
    }
    // `'metsys'[::-1]`: a reversed constant.
    if (node.name === 'MemberExpression' && /\[\s*:\s*:\s*-\s*1\s*\]$/.test(this.slice(node))) {
      const v = this.fold(node.firstChild);
      return v === null ? null : [...v].reverse().join('');
    }
    // `parts[0]`: an item of a constant list (an address assembled from a list of its pieces).
    if (node.name === 'MemberExpression' && node.getChild('[') && !node.getChild(':')) {
      const index = node.getChild('[')?.nextSibling ?? null;
      const i = index && index.name !== ']' ? Number(this.slice(index).replace(/\s+/g, '')) : NaN;
      const items = Number.isInteger(i) ? this.listItems(node.firstChild!) : null;
      const item = items && Number.isInteger(i) ? items.at(i) : undefined;
      return item ? this.fold(item) : null;
    }
    if (node.name === 'VariableName') {
      const name = this.slice(node);
      const frame = this.frames.at(-1);
      if (frame?.has(name) === true) return frame.get(name)!;
      const value = this.constants.get(name) ?? this.assignments.get(name);
      if (!value) return this.imported.get(name) ?? null;
      // A name assigned with itself in it (`a = a + 'x'`) meets its own value node again: fold cuts it.
      return this.fold(value);
    }
    return null;
  }

  /**
   * The items of a constant list: a list or tuple literal, a name bound to one, or a slice of either
   * with constant bounds (`parts[1:]`, `parts[:-1]`), or null.
   */
  private listItems(node: SyntaxNode, depth = 0): SyntaxNode[] | null {
    if (depth > 4) return null;
    if (node.name === 'ArrayExpression' || node.name === 'TupleExpression') {
      const out: SyntaxNode[] = [];
      for (let c = node.firstChild; c; c = c.nextSibling) {
        if (['[', ']', '(', ')', ','].includes(c.name)) continue;
        if (c.name === 'ArrayComprehensionExpression' || c.name === '*') return null;
        out.push(c);
      }
      return out;
    }
    if (node.name === 'VariableName') {
      const name = this.slice(node);
      const value = this.constants.get(name) ?? this.assignments.get(name);
      return value ? this.listItems(value, depth + 1) : null;
    }
    if (node.name === 'MemberExpression' && node.getChild(':') && node.firstChild) {
      const base = this.listItems(node.firstChild, depth + 1);
      if (base === null) return null;
      // The bounds around the colon: `[a:b]`, `[a:]`, `[:b]` (a negative bound is a UnaryExpression).
      const bound = (c: SyntaxNode | null): number | null | undefined => {
        if (!c || c.name === ':' || c.name === ']') return undefined;
        const n = Number(this.slice(c).replace(/\s+/g, ''));
        return Number.isInteger(n) ? n : null;
      };
      const colon = node.getChild(':')!;
      const lo = bound(colon.prevSibling?.name === '[' ? null : colon.prevSibling);
      const hi = bound(colon.nextSibling);
      if (lo === null || hi === null || colon.nextSibling?.nextSibling?.name === ':') return null;
      return base.slice(lo, hi);
    }
    return null;
  }

  /** The integers of a list or tuple literal of character codes, or null. */
  private numbers(list: SyntaxNode): number[] | null {
    const out: number[] = [];
    for (let c = list.firstChild; c; c = c.nextSibling) {
      if (['[', ']', '(', ')', ','].includes(c.name)) continue;
      const n = c.name === 'Number' ? Number(this.slice(c)) : NaN;
      if (!Number.isInteger(n) || n < 0 || n >= 0x110000 || out.length >= 256) return null;
      out.push(n);
    }
    return out;
  }

  /** Positional and keyword arguments of a call. */
  args(call: SyntaxNode): Array<{ keyword: string | null; value: SyntaxNode }> {
    const list = call.getChild('ArgList');
    const out: Array<{ keyword: string | null; value: SyntaxNode }> = [];
    if (!list) return out;
    let keyword: string | null = null;
    let pending: SyntaxNode | null = null;
    for (let c = list.firstChild; c; c = c.nextSibling) {
      if (c.name === '(' || c.name === ')') continue;
      if (c.name === ',') {
        if (pending) out.push({ keyword, value: pending });
        keyword = null;
        pending = null;
      } else if (c.name === 'AssignOp' && pending?.name === 'VariableName') {
        keyword = this.slice(pending);
        pending = null;
      } else if (c.name !== '*' && c.name !== '**') pending = c;
    }
    if (pending) out.push({ keyword, value: pending });
    return out;
  }
}

/** The value of a Python string literal (prefixes and quotes removed; escapes kept as written). */
export function stringValue(literal: string): string | null {
  const m = /^([rRbBuU]{0,2})('''|"""|'|")([\s\S]*)\2$/.exec(literal);
  return m ? (m[3] as string) : null;
}
