import { childNodes, node, nodes, type N } from './estree.js';
import type { FoldState, Resolve } from './resolve.js';
import { decompress } from '../decode-bytes.js';

/** The longest string a concatenation folds to: past it the constant is not worth the memory. */
const MAX_FOLD = 64 * 1024;

/** See `Resolve.fold`. */
export function foldExpression(r: Resolve, expr: N | undefined, state: FoldState, depth: number): string | undefined {
  if (expr === undefined || depth > 24) return undefined;
  switch (expr.type) {
    case 'Literal':
      return typeof expr.value === 'string' || typeof expr.value === 'number' ? String(expr.value) : undefined;
    case 'TemplateLiteral': {
      const quasis = nodes(expr.quasis);
      const exprs = nodes(expr.expressions);
      let out = '';
      for (let i = 0; i < quasis.length; i++) {
        const cooked = (quasis[i]!.value as { cooked?: string | null }).cooked;
        if (typeof cooked !== 'string') return undefined;
        out += cooked;
        if (i < exprs.length) {
          const part = foldExpression(r, exprs[i], state, depth + 1);
          if (part === undefined) return undefined;
          out += part;
        }
      }
      return out;
    }
    case 'BinaryExpression': {
      if (expr.operator !== '+') return undefined;
      const l = foldExpression(r, node(expr.left), state, depth + 1);
      if (l === undefined) return undefined;
      const r2 = foldExpression(r, node(expr.right), state, depth + 1);
      return r2 === undefined || l.length + r2.length > MAX_FOLD ? undefined : l + r2;
    }
    case 'Identifier':
      return r.constantOf(expr.name as string, state);
    case 'ParenthesizedExpression':
      return foldExpression(r, node(expr.expression), state, depth + 1);
    case 'MemberExpression': {
      // `require('./consts').S0`, `consts.S0`: a constant of another module of the artifact.
      const q = r.qualify(expr);
      return q === undefined ? undefined : r.importedConstant(q);
    }
    case 'CallExpression':
      return foldCall(r, expr, state, depth);
    default:
      return undefined;
  }
}

/**
 * A name or member that stands for a constant of another module of the artifact (`S0` imported,
 * `require('./consts').S0`): a value written elsewhere, not one built here (the hidden-name facts
 * are about building).
 */
export function isImportedConstant(r: Resolve, expr: N | undefined): boolean {
  if (expr === undefined) return false;
  if (expr.type === 'Identifier') {
    const alias = r.aliasOf(expr.name as string);
    return alias !== undefined && r.importedConstant(alias) !== undefined;
  }
  if (expr.type !== 'MemberExpression') return false;
  const q = r.qualify(expr);
  return q !== undefined && r.importedConstant(q) !== undefined;
}

/** Elements of a folded array at most: string tables of obfuscators have hundreds, not millions. */
const MAX_ARRAY = 10_000;

/** See `Resolve.foldArray`. */
export function foldArray(r: Resolve, expr: N | undefined, state: FoldState, depth: number): string[] | undefined {
  if (expr === undefined || depth > 24) return undefined;
  if (expr.type === 'Identifier') return r.arrayOf(expr.name as string, state)?.slice();
  if (expr.type === 'ParenthesizedExpression') return foldArray(r, node(expr.expression), state, depth + 1);
  if (expr.type === 'ArrayExpression') {
    const out: string[] = [];
    for (const el of nodes(expr.elements)) {
      // `[...'metsys']` is the string's characters, `[...parts]` the array's elements.
      if (el.type === 'SpreadElement') {
        const spread = spreadItems(r, node(el.argument), state, depth + 1);
        if (spread === undefined) return undefined;
        out.push(...spread);
      } else {
        const v = foldExpression(r, el, state, depth + 1);
        if (v === undefined) return undefined;
        out.push(v);
      }
      if (out.length > MAX_ARRAY) return undefined;
    }
    return out;
  }
  if (expr.type === 'CallExpression') {
    const callee = node(expr.callee);
    const args = nodes(expr.arguments);
    // `Array.from('metsys')`: the characters.
    if (r.qualify(callee) === 'Array.from' && args.length === 1) return spreadItems(r, args[0], state, depth + 1);
    if (callee?.type !== 'MemberExpression') return undefined;
    const method = r.propertyName(callee);
    if (method === 'map' && args.length === 1) return mapArray(r, node(callee.object), args[0]!, state, depth + 1);
    if ((method === 'slice' || method === 'concat') && args.length === 0) return foldArray(r, node(callee.object), state, depth + 1);
    if (method === 'split') {
      const s = foldExpression(r, node(callee.object), state, depth + 1);
      const sep = args[0] === undefined ? undefined : foldExpression(r, args[0], state, depth + 1);
      if (s === undefined || sep === undefined) return undefined;
      const parts = s.split(sep);
      return parts.length > MAX_ARRAY ? undefined : parts;
    }
    if (method === 'reverse') {
      const a = foldArray(r, node(callee.object), state, depth + 1);
      state.decoded = true;
      return a?.reverse();
    }
  }
  return undefined;
}

/** What `...x` spreads into an array: a folded array's elements or a folded string's characters. */
function spreadItems(r: Resolve, expr: N | undefined, state: FoldState, depth: number): string[] | undefined {
  const a = foldArray(r, expr, state, depth);
  if (a !== undefined) return a;
  const s = foldExpression(r, expr, state, depth);
  return s === undefined || s.length > MAX_ARRAY ? undefined : [...s];
}

/**
 * `order.map((i) => parts[i])` (a shuffled string table put back in order) and
 * `codes.map((c) => String.fromCharCode(c))` (with `c + k`, `c - k` or `c ^ k`): the two shapes of a
 * callback obfuscators map constant arrays with. Any other callback is not folded.
 */
function mapArray(r: Resolve, target: N | undefined, fn: N, state: FoldState, depth: number): string[] | undefined {
  if ((fn.type !== 'ArrowFunctionExpression' && fn.type !== 'FunctionExpression') || nodes(fn.params).length < 1) return undefined;
  const param = nodes(fn.params)[0]!;
  if (param.type !== 'Identifier') return undefined;
  let body = node(fn.body);
  if (body?.type === 'BlockStatement') {
    const stmts = nodes(body.body);
    body = stmts.length === 1 && stmts[0]!.type === 'ReturnStatement' ? node(stmts[0]!.argument) : undefined;
  }
  if (body === undefined) return undefined;
  const items = foldArray(r, target, state, depth + 1);
  if (items === undefined) return undefined;
  const isParam = (n: N | undefined) => n?.type === 'Identifier' && n.name === param.name;
  if (body.type === 'MemberExpression' && body.computed === true && isParam(node(body.property))) {
    const table = foldArray(r, node(body.object), state, depth + 1);
    if (table === undefined) return undefined;
    const out: string[] = [];
    for (const i of items) {
      const v = table[Number(i)];
      if (!/^\d+$/.test(i) || v === undefined) return undefined;
      out.push(v);
    }
    state.decoded = true;
    return out;
  }
  if (body.type === 'CallExpression' && r.qualify(node(body.callee)) === 'String.fromCharCode' && nodes(body.arguments).length === 1) {
    const arg = nodes(body.arguments)[0]!;
    let op = '';
    let k = 0;
    if (!isParam(arg)) {
      const right = node(arg.right);
      if (arg.type !== 'BinaryExpression' || !isParam(node(arg.left)) || !['+', '-', '^'].includes(arg.operator as string)) return undefined;
      const kv = Number(foldExpression(r, right, state, depth + 1));
      if (!Number.isInteger(kv)) return undefined;
      op = arg.operator as string;
      k = kv;
    }
    const out: string[] = [];
    for (const c of items) {
      const n = Number(c);
      const code = op === '+' ? n + k : op === '-' ? n - k : op === '^' ? n ^ k : n;
      if (!Number.isInteger(n) || c.trim() === '' || code < 0 || code > 0x10ffff) return undefined;
      out.push(String.fromCodePoint(code));
    }
    state.decoded = true;
    return out;
  }
  return undefined;
}

/** The bytes a constant expression stands for: `Buffer.from(s, 'base64'|'hex')` decoded exactly, else a folded string's latin1 bytes. */
function constantBytes(r: Resolve, expr: N | undefined, state: FoldState, depth: number): Buffer | undefined {
  if (expr === undefined) return undefined;
  if (expr.type === 'CallExpression' && r.qualify(node(expr.callee)) === 'Buffer.from') {
    const inner = nodes(expr.arguments);
    const data = foldExpression(r, inner[0], state, depth + 1);
    const encoding = inner[1] === undefined ? 'utf8' : foldExpression(r, inner[1], state, depth + 1);
    if (data === undefined || (encoding !== 'base64' && encoding !== 'hex' && encoding !== 'base64url' && encoding !== 'utf8' && encoding !== 'latin1')) return undefined;
    return Buffer.from(data, encoding);
  }
  const v = foldExpression(r, expr, state, depth + 1);
  return v === undefined ? undefined : Buffer.from(v, 'latin1');
}

/** Decoders and string methods applied to constants: what `atob('…')` or `[…].join('')` evaluates to. */
function foldCall(r: Resolve, expr: N, state: FoldState, depth: number): string | undefined {
  const callee = node(expr.callee);
  const args = nodes(expr.arguments);
  if (callee === undefined) return undefined;
  // (round s31) `d(P)` with `function d(x) { return atob(x) }`: a small helper of the file read in place.
  if (callee.type === 'Identifier') {
    const inlined = r.helperCall(expr, state, depth);
    if (inlined !== undefined) return inlined;
  }
  const name = r.qualify(callee);
  if (name === 'String.fromCharCode') {
    let out = '';
    // `String.fromCharCode(...codes)`: the spread array's numbers.
    if (args.length === 1 && args[0]!.type === 'SpreadElement') {
      const codes = foldArray(r, node(args[0]!.argument), state, depth + 1);
      if (codes === undefined) return undefined;
      for (const c of codes) {
        const n = Number(c);
        if (!Number.isInteger(n) || c.trim() === '' || n < 0 || n > 0x10ffff) return undefined;
        out += String.fromCodePoint(n);
      }
      state.decoded = true;
      return out;
    }
    for (const a of args) {
      const v = foldExpression(r, a, state, depth + 1);
      const n = v === undefined ? NaN : Number(v);
      if (!Number.isInteger(n) || n < 0 || n > 0x10ffff) return undefined;
      out += String.fromCodePoint(n);
    }
    state.decoded = true;
    return out;
  }
  if (name === 'atob' || name === 'decodeURIComponent' || name === 'unescape') {
    const v = foldExpression(r, args[0], state, depth + 1);
    if (v === undefined) return undefined;
    state.decoded = true;
    try {
      return name === 'atob' ? Buffer.from(v, 'base64').toString('latin1') : name === 'unescape' ? unescape(v) : decodeURIComponent(v);
    } catch {
      return undefined;
    }
  }
  // (round s31) `decodeURIComponent(escape(atob(x)))` reads atob's bytes as UTF-8: escape is folded (it encodes, it does not decode).
  if (name === 'escape' && args.length === 1) {
    const v = foldExpression(r, args[0], state, depth + 1);
    return v === undefined ? undefined : escape(v);
  }
  if (name === 'Buffer.from' && args.length === 1 && args[0]!.type === 'ArrayExpression') {
    const codes = nodes(args[0]!.elements).map((e) => (e.type === 'Literal' && typeof e.value === 'number' ? e.value : NaN));
    if (codes.length === 0 || codes.some((c) => !Number.isInteger(c) || c < 0 || c > 255)) return undefined;
    state.decoded = true;
    return Buffer.from(codes).toString('latin1');
  }
  if (name === 'Buffer.from' && args.length === 2) {
    const data = foldExpression(r, args[0], state, depth + 1);
    const encoding = foldExpression(r, args[1], state, depth + 1);
    if (data === undefined || (encoding !== 'base64' && encoding !== 'hex' && encoding !== 'base64url')) return undefined;
    state.decoded = true;
    return Buffer.from(data, encoding).toString('utf8');
  }
  // `zlib.gunzipSync(Buffer.from(blob, 'base64'))`, `zlib.inflateSync(…)`: decompressed constants are decoded text.
  const z = name === undefined ? null : /^zlib\.(gunzipSync|inflateSync|inflateRawSync|unzipSync|brotliDecompressSync)$/.exec(name);
  if (z !== null) {
    const bytes = constantBytes(r, args[0], state, depth + 1);
    if (bytes === undefined) return undefined;
    const out = decompress(bytes, z[1] === 'gunzipSync' ? 'gzip' : z[1] === 'inflateRawSync' ? 'raw' : z[1] === 'brotliDecompressSync' ? 'brotli' : 'any');
    if (out === undefined) return undefined;
    state.decoded = true;
    return out;
  }
  if (callee.type !== 'MemberExpression') return undefined;
  const method = r.propertyName(callee);
  const target = node(callee.object);
  // `Object.keys(cp).find((k) => k === 'spawn')` is the constant it searches for.
  const search = r.keySearch(expr);
  if (search !== undefined && search.source !== 'entries' && method === 'find') return search.name;
  if (method === 'join') {
    const parts = foldArray(r, target, state, depth + 1);
    const sep = args[0] === undefined ? ',' : foldExpression(r, args[0], state, depth + 1);
    return parts === undefined || sep === undefined ? undefined : parts.join(sep);
  }
  if (method === 'toString' && target?.type === 'CallExpression' && r.qualify(node(target.callee)) === 'Buffer.from' && nodes(target.arguments)[0]?.type !== 'ArrayExpression') {
    const inner = nodes(target.arguments);
    const data = foldExpression(r, inner[0], state, depth + 1);
    const encoding = inner[1] === undefined ? 'utf8' : foldExpression(r, inner[1], state, depth + 1);
    if (data === undefined || (encoding !== 'base64' && encoding !== 'hex' && encoding !== 'utf8' && encoding !== 'base64url')) return undefined;
    if (encoding !== 'utf8') state.decoded = true;
    return Buffer.from(data, encoding).toString('utf8');
  }
  if ((method === 'toString' || method === 'trim' || method === 'toLowerCase') && target !== undefined && (args.length === 0 || /^(utf-?8|ascii|latin1)$/i.test(r.fold(args[0]) ?? ''))) {
    const v = foldExpression(r, target, state, depth + 1);
    return v === undefined ? undefined : method === 'trim' ? v.trim() : method === 'toLowerCase' ? v.toLowerCase() : v;
  }
  if (method === 'replace' && target !== undefined && args.length === 2 && args[0]?.type === 'Literal' && typeof args[0].value === 'string') {
    const v = foldExpression(r, target, state, depth + 1);
    const to = foldExpression(r, args[1], state, depth + 1);
    return v === undefined || to === undefined ? undefined : v.split(args[0].value).join(to);
  }
  return undefined;
}

/**
 * The text of a template literal that does not fold, with each part that does not fold written `?` (the mark
 * callees and paths use for an unknown part): `rm -rf ${dir}/*` is `rm -rf ?/*`. Undefined when the template
 * starts with a value (`${bin} --version`): its first word is computed, and readers take an argument string's
 * first word for the program or the path's head, so such a template adds only the parts inside it, as before.
 */
export function templateText(r: Resolve, n: N): string | undefined {
  if (n.type !== 'TemplateLiteral') return undefined;
  const quasis = nodes(n.quasis);
  const exprs = nodes(n.expressions);
  const head = (quasis[0]?.value as { cooked?: string | null } | undefined)?.cooked;
  if (typeof head !== 'string' || head.trim() === '') return undefined;
  let out = '';
  for (let i = 0; i < quasis.length; i++) {
    const cooked = (quasis[i]!.value as { cooked?: string | null }).cooked;
    // An invalid escape leaves no cooked text: the template's text is not known.
    if (typeof cooked !== 'string') return undefined;
    out += cooked;
    if (i < exprs.length) out += r.fold(exprs[i]) ?? '?';
    if (out.length > MAX_FOLD) return undefined;
  }
  return out;
}

/**
 * The constant strings inside some arguments: each folds whole or is searched part by part (functions left out).
 * A condition's test only chooses a branch and never becomes the value (`name.includes('/') ? join(d, name) : …`
 * passes no `/`), so only the branches are searched. A template literal that does not fold gives its text with
 * `?` for each computed part (`templateText`), then the constants inside its parts.
 */
export function argStrings(r: Resolve, args: N[]): string[] {
  const out: string[] = [];
  const visit = (n: N, depth: number) => {
    if (depth > 8 || out.length > 32) return;
    const v = r.fold(n);
    if (v !== undefined) {
      out.push(v);
      return;
    }
    const text = templateText(r, n);
    if (text !== undefined) out.push(text);
    const children = n.type === 'ConditionalExpression' ? [node(n.consequent), node(n.alternate)].filter((c): c is N => c !== undefined) : childNodes(n);
    for (const child of children) {
      if (child.type !== 'FunctionExpression' && child.type !== 'ArrowFunctionExpression') visit(child, depth + 1);
    }
  };
  for (const a of args) visit(a, 0);
  return out;
}
