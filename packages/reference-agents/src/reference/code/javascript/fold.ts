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
    case 'CallExpression':
      return foldCall(r, expr, state, depth);
    default:
      return undefined;
  }
}

/** See `Resolve.foldArray`. */
export function foldArray(r: Resolve, expr: N | undefined, state: FoldState, depth: number): string[] | undefined {
  if (expr === undefined || depth > 24) return undefined;
  if (expr.type === 'ArrayExpression') {
    const out: string[] = [];
    for (const el of nodes(expr.elements)) {
      const v = foldExpression(r, el, state, depth + 1);
      if (v === undefined) return undefined;
      out.push(v);
    }
    return out;
  }
  if (expr.type === 'CallExpression') {
    const callee = node(expr.callee);
    if (callee?.type !== 'MemberExpression') return undefined;
    const method = r.propertyName(callee);
    const args = nodes(expr.arguments);
    if (method === 'split') {
      const s = foldExpression(r, node(callee.object), state, depth + 1);
      const sep = args[0] === undefined ? undefined : foldExpression(r, args[0], state, depth + 1);
      if (s === undefined || sep === undefined) return undefined;
      return s.split(sep);
    }
    if (method === 'reverse') {
      const a = foldArray(r, node(callee.object), state, depth + 1);
      state.decoded = true;
      return a?.reverse();
    }
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
  const name = r.qualify(callee);
  if (name === 'String.fromCharCode') {
    let out = '';
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

/** The constant strings inside some arguments: each folds whole or is searched part by part (functions left out). */
export function argStrings(r: Resolve, args: N[]): string[] {
  const out: string[] = [];
  const visit = (n: N, depth: number) => {
    if (depth > 8 || out.length > 32) return;
    const v = r.fold(n);
    if (v !== undefined) {
      out.push(v);
      return;
    }
    for (const child of childNodes(n)) {
      if (child.type !== 'FunctionExpression' && child.type !== 'ArrowFunctionExpression') visit(child, depth + 1);
    }
  };
  for (const a of args) visit(a, 0);
  return out;
}
