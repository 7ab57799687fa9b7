import type { NamedFunction } from './collect-syntax.js';
import { childNodes, node, nodes, type N } from './estree.js';
import type { FoldState } from './resolve.js';
import type { Resolver } from './resolver.js';
import type { Scopes } from './scopes.js';

/**
 * (round s31) A small helper of the file read as what a call of it gives back: a function (declared, or an
 * arrow or function expression bound to a name) whose parameters are plain names and whose body is an
 * expression, or `const`/`let`/`var` declarations of plain names followed by one `return <expression>`.
 * `function d(x) { return Buffer.from(x, 'base64').toString() }` called as `eval(d(P))` is then
 * `eval(Buffer.from(P, 'base64').toString())` to the folding, which marks the result decoded as it would
 * the direct form. A branch, a loop, a call made for its effect, rest or destructured parameters, an async or
 * generator function leave the helper unread. A parameter may have a default (`function d(x, e = 'base64')`):
 * a call that leaves it out passes the default.
 * Only a helper that decodes is read (`decodes`): its body, or a helper it calls (transitively), calls a decoder
 * (`atob`, `Buffer.from(…, enc)` or of an array, `String.fromCharCode`/`fromCodePoint`, `decodeURIComponent`,
 * `unescape`, `.reverse()`, `zlib.*Sync` decompression, or a function of the file that works character by
 * character). Helpers that only join or format text are left to the callers' own reading, as before s31.
 */
export interface Helper {
  start: number;
  params: string[];
  /** Each parameter's default expression, when it has one. */
  defaults: (N | undefined)[];
  steps: { name: string; init: N }[];
  result: N;
  /** The scope chain inside the function. */
  chain: number[];
  /** Whether the body calls a decoder (computed on first use; `null` while it is being computed). */
  decodes?: boolean | null;
}

/** Statements of a helper's body read at most (a decoding helper is a line or a few). */
const MAX_STEPS = 8;
/** Helpers read inside one another at most. */
const MAX_NESTED = 4;

function helperOf(f: NamedFunction): Helper | undefined {
  const fn = f.node;
  if (fn === undefined || f.chain === undefined || fn.async === true || fn.generator === true) return undefined;
  const params = nodes(fn.params);
  const names: string[] = [];
  const defaults: (N | undefined)[] = [];
  for (const p of params) {
    const id = p.type === 'AssignmentPattern' ? node(p.left) : p;
    if (id?.type !== 'Identifier') return undefined;
    names.push(id.name as string);
    defaults.push(p.type === 'AssignmentPattern' ? node(p.right) : undefined);
  }
  const body = node(fn.body);
  if (body === undefined) return undefined;
  if (body.type !== 'BlockStatement') return { start: fn.start, params: names, defaults, steps: [], result: body, chain: f.chain };
  const statements = nodes(body.body);
  if (statements.length === 0 || statements.length > MAX_STEPS + 1) return undefined;
  const steps: { name: string; init: N }[] = [];
  for (let i = 0; i < statements.length; i++) {
    const s = statements[i]!;
    if (i === statements.length - 1) {
      const result = s.type === 'ReturnStatement' ? node(s.argument) : undefined;
      return result === undefined ? undefined : { start: fn.start, params: names, defaults, steps, result, chain: f.chain };
    }
    if (s.type !== 'VariableDeclaration') return undefined;
    for (const d of nodes(s.declarations)) {
      const id = node(d.id);
      const init = node(d.init);
      if (id?.type !== 'Identifier' || init === undefined) return undefined;
      steps.push({ name: id.name as string, init });
    }
  }
  return undefined;
}

/** Records the helpers among a file's named functions, by the key of their name (a key bound twice is dropped), and the functions that decode character by character. */
export function collectHelpers(r: Resolver, functions: ReadonlyMap<number, NamedFunction>, decoderStarts: ReadonlySet<number> = new Set()): void {
  for (const [start, f] of functions) {
    const key = `${f.scope}\u0000${f.name}`;
    if (decoderStarts.has(start)) r.decoderFunctions.add(key);
    if (r.helpers.has(key)) r.helpers.set(key, null);
    else r.helpers.set(key, helperOf(f) ?? null);
  }
}

/** Calls of these names decode (`atob(x)`, …). */
const DECODER_CALL = /^(?:atob|unescape|decodeURIComponent)$/;
/** Methods that decode or reverse text (`String.fromCharCode`, `.reverse()`, `zlib.inflateSync`). */
const DECODER_METHOD = /^(?:fromCharCode|fromCodePoint|reverse|gunzipSync|inflateSync|inflateRawSync|unzipSync|brotliDecompressSync)$/;
/** Nodes of one helper looked at, at most, when deciding whether it decodes. */
const MAX_NODES = 400;

function callDecodes(r: Resolver, scopes: Scopes, call: N): boolean {
  const callee = node(call.callee);
  if (callee?.type === 'Identifier') {
    const name = callee.name as string;
    if (DECODER_CALL.test(name)) return true;
    const key = scopes.key(name);
    if (r.decoderFunctions.has(key)) return true;
    const other = r.helpers.get(key);
    return other !== undefined && other !== null && decodes(r, scopes, other);
  }
  if (callee?.type !== 'MemberExpression' || callee.computed === true) return false;
  const prop = node(callee.property)?.name;
  if (typeof prop !== 'string') return false;
  if (DECODER_METHOD.test(prop)) return true;
  const args = nodes(call.arguments);
  return prop === 'from' && node(callee.object)?.name === 'Buffer' && (args.length >= 2 || args[0]?.type === 'ArrayExpression');
}

/** Whether a helper's body (its locals, its result, its defaults; not functions written inside it) calls a decoder, directly or through another helper. */
function decodes(r: Resolver, scopes: Scopes, h: Helper): boolean {
  if (h.decodes !== undefined) return h.decodes === true;
  h.decodes = null;
  const saved = scopes.chain;
  scopes.chain = h.chain;
  const stack: N[] = [h.result, ...h.steps.map((s) => s.init), ...h.defaults.filter((d): d is N => d !== undefined)];
  let found = false;
  let seen = 0;
  try {
    while (stack.length > 0 && !found && seen++ < MAX_NODES) {
      const n = stack.pop()!;
      if (n.type === 'CallExpression' || n.type === 'NewExpression') found = callDecodes(r, scopes, n);
      if (n.type !== 'FunctionExpression' && n.type !== 'ArrowFunctionExpression') stack.push(...childNodes(n));
    }
  } finally {
    scopes.chain = saved;
  }
  h.decodes = found;
  return found;
}

/** The decoding helper a callee names. */
function helperNamed(r: Resolver, scopes: Scopes, callee: N | undefined): Helper | undefined {
  if (callee?.type !== 'Identifier' || r.helpers.size === 0) return undefined;
  const h = r.helpers.get(scopes.key(callee.name as string)) ?? undefined;
  return h !== undefined && decodes(r, scopes, h) ? h : undefined;
}

/** The returned expression of the decoding helper a callee names, with the scope chain it is read in. */
export function helperResult(r: Resolver, scopes: Scopes, callee: N | undefined): { result: N; chain: number[] } | undefined {
  const h = helperNamed(r, scopes, callee);
  return h === undefined ? undefined : { result: h.result, chain: h.chain };
}

/**
 * What a call of a decoding helper gives for constant arguments: its parameters (and then its locals, in order)
 * bound to their folded values (a parameter left out to its default) while its return value is folded, then
 * unbound. Undefined when an argument does not fold, there are more arguments than parameters, a parameter
 * without a default is left out, or the helper is already being read. A call outside any other helper is
 * remembered by the helper and its argument values (and the number of names bound so far, which only grows).
 */
export function helperCall(r: Resolver, scopes: Scopes, call: N, state: FoldState, depth: number): string | undefined {
  const h = helperNamed(r, scopes, node(call.callee));
  if (h === undefined || r.inlining.has(h.start) || r.inlining.size >= MAX_NESTED) return undefined;
  const args = nodes(call.arguments);
  if (args.length > h.params.length || args.some((a) => a.type === 'SpreadElement')) return undefined;
  for (let i = args.length; i < h.params.length; i++) if (h.defaults[i] === undefined) return undefined;
  const values: string[] = [];
  for (const a of args) {
    const v = r.fold(a, state, depth + 1);
    if (v === undefined) return undefined;
    values.push(v);
  }
  const memoKey = r.inlining.size === 0 ? `${h.start}\u0000${r.constants.size}\u0000${r.arrays.size}\u0000${r.aliases.size}\u0000${values.length}\u0000${values.join('\u0000')}` : undefined;
  const known = memoKey === undefined ? undefined : r.helperResults.get(memoKey);
  if (known !== undefined) {
    if (known.decoded) state.decoded = true;
    return known.value;
  }
  const inner: FoldState = { decoded: false };
  const value = inlined(r, scopes, h, values, inner, depth);
  if (inner.decoded) state.decoded = true;
  if (memoKey !== undefined) r.helperResults.set(memoKey, { value, decoded: inner.decoded });
  return value;
}

function inlined(r: Resolver, scopes: Scopes, h: Helper, values: string[], state: FoldState, depth: number): string | undefined {
  const saved = scopes.chain;
  const bound: string[] = [];
  r.inlining.add(h.start);
  try {
    scopes.chain = h.chain;
    for (let i = 0; i < h.params.length; i++) {
      const key = scopes.key(h.params[i]!);
      // A parameter the body assigns to is not the argument throughout.
      if (r.constants.has(key) || r.arrays.has(key)) return undefined;
      const v = i < values.length ? values[i] : r.fold(h.defaults[i], state, depth + 1);
      if (v === undefined) return undefined;
      r.constants.set(key, v);
      bound.push(key);
    }
    for (const step of h.steps) {
      const key = scopes.key(step.name);
      if (r.constants.has(key) || r.arrays.has(key)) continue;
      const v = r.fold(step.init, state, depth + 1);
      if (v !== undefined) r.constants.set(key, v);
      else {
        const a = r.foldArray(step.init, state, depth + 1);
        if (a === undefined) return undefined;
        r.arrays.set(key, a);
      }
      bound.push(key);
    }
    return r.fold(h.result, state, depth + 1);
  } finally {
    for (const key of bound) {
      r.constants.delete(key);
      r.arrays.delete(key);
    }
    scopes.chain = saved;
    r.inlining.delete(h.start);
  }
}
