import type { AgentFinding } from '@vigil/core';
import { referenceFinding } from '../common/reference-finding.js';
import { keepForNextParse, parseJavaScript } from '../code/parse-javascript.js';
import { childNodes, node, nodes, type N } from '../code/javascript/estree.js';
import { patternNames } from '../code/javascript/syntax-shapes.js';

/**
 * A key constructor of the package itself (`Keypair.fromSecretKey`, `Wallet`'s constructor,
 * `fromMnemonic`, `deriveSeed`) that hands the key it is given to a local function whose data reaches
 * a network request: sent there directly, or stored in a queue, buffer or string that another function
 * of the file (a timer's flush, an exit handler) reads into a request. Signing and derivation are
 * local; a key constructor has no reason to let the key leave (the @solana/web3.js 1.95.6/1.95.7
 * backdoor, December 2024: `addToQueue(bs58.encode(secretKey))` whose queue a timer sent in fake
 * CloudFront headers to a host spelled in char codes).
 *
 * The JavaScript fact reader follows `q.push(v)` into a request only when the request's callee is a
 * plain network name and the queue is read by name; this reader also takes a callee picked at run
 * time (`(globalThis.fetch || nodeFetch)(…)`) and a queue drained through a callback
 * (`items.forEach((k) => fetch(…k…))`): any function that reads the store and makes a request.
 */

// Names of secrets that sign rather than travel (docs/agents.md, "key material"); not `publicKey`, not API keys.
const KEY_NAME = /^(?:secret_?key|private_?key|priv_?key|mnemonic|seed|seed_?phrase|secret_?phrase|recovery_?phrase|family_?seed|seed_?hex|wallet_?key|signer_?key|secret_?scalar|private_?scalar)$/i;
// What a key passed through still is (encoding, slicing, copying); a call named for anything else (sign, hash, derive a public key) yields something else.
const CARRIES = /^(?:encode|toString|stringify|from|btoa|hexlify|toHex|bytesToHex|hex|base58|base64|slice|subarray|concat|join|Uint8Array|String|Array|Buffer|toBase58|toBase64|encodeBase58|bs58|trim)$/i;
// Where a key is made, restored or used locally: a key library's constructors, a class's constructor.
const KEY_CONTEXT = /^(?:constructor|from\w*|generate\w*|create\w*|derive\w*|restore\w*|recover\w*|load\w*|decrypt\w*|unlock\w*|sign\w*|random\w*|init\w*)$|(?:Keypair|Wallet|Signer|Account|Mnemonic|Seed|Key)$/;
// A function named for sending the key somewhere on purpose (a custodial import, a backup upload) is not a leak.
const PURPOSEFUL_SEND = /send|post|upload|import|export|backup|sync|register|submit|remote|api|request|publish/i;
// Modules whose default export or members make requests.
const NETWORK_MODULE = /^(?:node:)?(?:https?|http2|net|tls|dgram|dns)$|^(?:node-fetch|cross-fetch|isomorphic-fetch|axios|got|undici|ky|superagent|needle|phin|request|ws)$/;
const NETWORK_NAME = /^(?:fetch|XMLHttpRequest|WebSocket|sendBeacon)$/;
const NETWORK_MEMBER = /^(?:fetch|request|get|post|put|patch|head|send|sendBeacon|connect|lookup|resolve\w*|createConnection|write|end)$/;

interface Fn {
  name: string;
  params: string[];
  /** (round s31b) The parameters by position (null for a pattern): which one an argument lands in. */
  positional?: (string | null)[];
  body: N;
}

/** (round s31b) The function read for what one argument becomes: only the parameter at `index` (all of them for a pattern or a rest). */
function focused(fn: Fn, index: number): Fn {
  const p = fn.positional?.[index];
  return p === undefined || p === null ? fn : { ...fn, params: [p] };
}

const ident = (n: N | undefined): string | null => (n?.type === 'Identifier' ? (n.name as string) : null);

function calleeName(callee: N | undefined): string | null {
  if (callee === undefined) return null;
  if (callee.type === 'Identifier') return callee.name as string;
  if (callee.type === 'MemberExpression' && !callee.computed) return ident(node(callee.property));
  return null;
}

/** Every node under `root` (iterative, bounded). */
function walk(root: N, visit: (n: N) => void, limit = 400_000): void {
  const stack: N[] = [root];
  let seen = 0;
  while (stack.length > 0 && seen++ < limit) {
    const n = stack.pop()!;
    visit(n);
    stack.push(...childNodes(n));
  }
}

function namesIn(root: N): Set<string> {
  const out = new Set<string>();
  walk(root, (n) => {
    if (n.type === 'Identifier') out.add(n.name as string);
  }, 50_000);
  return out;
}

/** Names the file binds to a network module: `const f = require('node-fetch')`, `import axios from 'axios'`, `import * as https from 'https'`. */
function networkBindings(program: N): Set<string> {
  const out = new Set<string>();
  walk(program, (n) => {
    if (n.type === 'VariableDeclarator') {
      const init = node(n.init);
      const arg = init?.type === 'CallExpression' && ident(node(init.callee)) === 'require' ? nodes(init.arguments)[0] : undefined;
      if (arg?.type === 'Literal' && typeof arg.value === 'string' && NETWORK_MODULE.test(arg.value)) {
        const id = node(n.id);
        if (id?.type === 'Identifier') out.add(id.name as string);
        if (id?.type === 'ObjectPattern') for (const p of nodes(id.properties)) { const v = ident(node(p.value)); if (v !== null) out.add(v); }
      }
    } else if (n.type === 'ImportDeclaration') {
      const src = node(n.source);
      if (src !== undefined && typeof src.value === 'string' && NETWORK_MODULE.test(src.value)) for (const s of nodes(n.specifiers)) { const l = ident(node(s.local)); if (l !== null) out.add(l); }
    }
  });
  return out;
}

/** A request: `fetch(…)`, `globalThis.fetch(…)`, a bound network module or its member, `(globalThis.fetch || nodeFetch)(…)`, `require('https').get(…)`. */
function isNetworkCallee(callee: N | undefined, bound: Set<string>): boolean {
  if (callee === undefined) return false;
  if (callee.type === 'Identifier') return NETWORK_NAME.test(callee.name as string) || bound.has(callee.name as string);
  if (callee.type === 'LogicalExpression') return isNetworkCallee(node(callee.left), bound) || isNetworkCallee(node(callee.right), bound);
  if (callee.type === 'ConditionalExpression') return isNetworkCallee(node(callee.consequent), bound) || isNetworkCallee(node(callee.alternate), bound);
  if (callee.type === 'SequenceExpression') return isNetworkCallee(nodes(callee.expressions).at(-1), bound);
  if (callee.type === 'MemberExpression') {
    const prop = callee.computed ? null : ident(node(callee.property));
    const obj = node(callee.object);
    if (prop === null) return false;
    if (NETWORK_NAME.test(prop)) return true;
    if (!NETWORK_MEMBER.test(prop) || obj === undefined) return false;
    if (obj.type === 'Identifier') return bound.has(obj.name as string);
    const req = obj.type === 'CallExpression' && ident(node(obj.callee)) === 'require' ? nodes(obj.arguments)[0] : undefined;
    return req?.type === 'Literal' && typeof req.value === 'string' && NETWORK_MODULE.test(req.value);
  }
  return false;
}

const asFn = (name: string, fn: N | undefined): Fn | null => {
  if (fn === undefined || !/Function/.test(fn.type)) return null;
  const positional = nodes(fn.params).map((p) => ident(p.type === 'AssignmentPattern' ? node(p.left) : p));
  const body = node(fn.body);
  return body === undefined ? null : { name, params: positional.filter((p): p is string => p !== null), positional, body };
};

/** Functions of the file by name: declarations, `const f = (…) => …`, and (round s31b) `exports.f = function …`. */
function functionsOf(program: N): Map<string, Fn> {
  const out = new Map<string, Fn>();
  const add = (name: string | null, fn: N | undefined) => {
    if (name === null || out.has(name)) return;
    const f = asFn(name, fn);
    if (f !== null) out.set(name, f);
  };
  walk(program, (n) => {
    if (n.type === 'FunctionDeclaration') add(ident(node(n.id)), n);
    else if (n.type === 'VariableDeclarator') add(ident(node(n.id)), node(n.init));
  });
  // `exports.f = function …`, `module.exports.f = (…) => …`: a module's function known by the name it exports.
  walk(program, (n) => {
    if (n.type !== 'AssignmentExpression' || n.operator !== '=') return;
    const left = node(n.left);
    if (left?.type !== 'MemberExpression' || left.computed === true) return;
    const obj = node(left.object);
    const onExports = ident(obj) === 'exports' || (obj?.type === 'MemberExpression' && ident(node(obj.object)) === 'module' && ident(node(obj.property)) === 'exports');
    if (onExports) add(ident(node(left.property)), node(n.right));
  });
  return out;
}

/** (round s31b) Methods of the file's classes and object literals by name (`static fromSeed(…)`, `{ track(v) { … } }`). */
function methodsOf(program: N): Map<string, Fn> {
  const out = new Map<string, Fn>();
  walk(program, (n) => {
    if (n.type !== 'MethodDefinition' && n.type !== 'Property' && n.type !== 'PropertyDefinition') return;
    const key = node(n.key);
    const name = n.computed === true ? null : (ident(key) ?? (key?.type === 'Literal' && typeof key.value === 'string' ? key.value : null));
    if (name === null || out.has(name)) return;
    const f = asFn(name, node(n.value));
    if (f !== null) out.set(name, f);
  });
  return out;
}

/** Does `arg` carry a key-material name (directly or through encoding/copying calls)? Returns the name. */
function keyCarried(arg: N): string | null {
  const stack: N[] = [arg];
  let steps = 0;
  while (stack.length > 0 && steps++ < 2000) {
    const n = stack.pop()!;
    if (n.type === 'Identifier' && KEY_NAME.test(n.name as string)) return n.name as string;
    if (n.type === 'MemberExpression' && !n.computed && KEY_NAME.test(ident(node(n.property)) ?? '')) return ident(node(n.property));
    // (round s31b) A key's size or type is not the key: `secretKey.length`, `seed.byteLength`.
    if (n.type === 'MemberExpression' && !n.computed && /^(?:length|byteLength|byteOffset|size|constructor|BYTES_PER_ELEMENT|name)$/.test(ident(node(n.property)) ?? '')) continue;
    if (n.type === 'CallExpression' || n.type === 'NewExpression') {
      const name = calleeName(node(n.callee));
      if (name === null || !CARRIES.test(name)) {
        // `bs58.encode(x)` carries x; `sign(m, secretKey)` does not. The callee's object may itself be the key (`secretKey.slice(0, 32)`).
        const obj = node(node(n.callee)?.object);
        if (obj !== undefined) stack.push(obj);
        continue;
      }
      stack.push(...nodes(n.arguments));
      const obj = node(node(n.callee)?.object);
      if (obj !== undefined) stack.push(obj);
      continue;
    }
    if (/Function/.test(n.type)) continue;
    stack.push(...childNodes(n));
  }
  return null;
}

/** The name a store is read by: an outer variable (`q`), or a field of the object (`this.q` is read as `q`). */
function storeName(target: N | undefined, params: Set<string>): string | null {
  let t = target;
  let field: string | null = null;
  while (t?.type === 'MemberExpression') {
    if (t.computed !== true) field = ident(node(t.property));
    t = node(t.object);
  }
  if (t?.type === 'ThisExpression') return field;
  const name = ident(t);
  return name !== null && !params.has(name) ? name : null;
}

/** Outer names `fn` stores its parameter into: `q.push(p)`, `buf += p`, `cache[k] = p`, `set.add(p)`, (round s31b) `this.q.push(p)`. */
function storesOf(fn: Fn): Set<string> {
  const params = new Set(fn.params);
  const out = new Set<string>();
  const usesParam = (n: N | undefined) => n !== undefined && [...namesIn(n)].some((x) => params.has(x));
  walk(fn.body, (n) => {
    if (n.type === 'CallExpression') {
      const callee = node(n.callee);
      const obj = callee?.type === 'MemberExpression' ? node(callee.object) : undefined;
      const method = calleeName(callee);
      if (obj !== undefined && method !== null && /^(?:push|unshift|add|set|append|concat|enqueue|write)$/.test(method) && nodes(n.arguments).some(usesParam)) {
        const name = storeName(obj, params);
        if (name !== null) out.add(name);
      }
    } else if (n.type === 'AssignmentExpression' && usesParam(node(n.right))) {
      const name = storeName(node(n.left), params);
      if (name !== null) out.add(name);
    }
  }, 20_000);
  return out;
}

/** Network calls anywhere in `root` whose arguments name any of `names` (with `names` null: any request). */
function sendReading(root: N, names: Set<string> | null, bound: Set<string>): N | null {
  let hit: N | null = null;
  walk(root, (n) => {
    if (hit !== null || n.type !== 'CallExpression' || !isNetworkCallee(node(n.callee), bound)) return;
    if (names === null || nodes(n.arguments).some((a) => [...namesIn(a)].some((x) => names.has(x)))) hit = n;
  }, 50_000);
  return hit;
}

/** Functions of the program (any kind, anonymous too) that read `store` and make a request: a flush. */
function drainOf(program: N, store: string, bound: Set<string>): N | null {
  let hit: N | null = null;
  let read = 0;
  walk(program, (n) => {
    // Bounded: each function's body is walked for the name (a minified bundle has thousands).
    if (hit !== null || !/Function/.test(n.type) || read++ > 3000) return;
    const body = node(n.body);
    if (body === undefined || !namesIn(body).has(store)) return;
    hit = sendReading(body, derivedFrom(body, store), bound);
  });
  return hit;
}

/**
 * The names a flush's body builds from the store: the store, names assigned from it (`const items =
 * queue.splice(0)`, two steps; (round s31b) destructured too: `const { id, tag } = queue.shift()`) and the
 * parameters of callbacks run over them (`items.forEach((k) => …)`, `items.forEach(({ tag }) => …)`).
 * A request that names none of them (an RPC call beside a cache lookup) does not send the store.
 */
function derivedFrom(body: N, store: string): Set<string> {
  const out = new Set([store]);
  const mentions = (n: N | undefined) => n !== undefined && [...namesIn(n)].some((x) => out.has(x));
  for (let pass = 0; pass < 2; pass++) {
    walk(body, (n) => {
      if (n.type === 'VariableDeclarator' && mentions(node(n.init))) { for (const id of patternNames(node(n.id))) out.add(id); }
      else if (n.type === 'AssignmentExpression' && mentions(node(n.right))) { for (const id of patternNames(node(n.left))) out.add(id); }
      else if (n.type === 'CallExpression' && node(n.callee)?.type === 'MemberExpression' && mentions(node(node(n.callee)?.object))) {
        for (const a of nodes(n.arguments)) if (/Function/.test(a.type)) for (const p of nodes(a.params)) for (const id of patternNames(p)) out.add(id);
      } else if (n.type === 'ForOfStatement' && mentions(node(n.right))) {
        const left = node(n.left);
        for (const d of left?.type === 'VariableDeclaration' ? nodes(left.declarations) : []) for (const id of patternNames(node(d.id))) out.add(id);
      }
    }, 20_000);
  }
  return out;
}

/** (round s31b) A function of another module of the package: its path as written and the name it is reached by (`*` for the module itself). */
interface ImportedName {
  module: string;
  name: string;
}

/** Names the file binds to its own modules: `const { f } = require('./q')`, `const q = require('./q')`, `import { f as g } from './q.js'`, `import * as q`. */
function localImports(program: N): Map<string, ImportedName> {
  const out = new Map<string, ImportedName>();
  const relative = (v: unknown): v is string => typeof v === 'string' && /^\.\.?\//.test(v);
  const requireOf = (n: N | undefined): string | null => {
    const arg = n?.type === 'CallExpression' && ident(node(n.callee)) === 'require' ? nodes(n.arguments)[0] : undefined;
    return arg?.type === 'Literal' && relative(arg.value) ? arg.value : null;
  };
  walk(program, (n) => {
    if (n.type === 'VariableDeclarator') {
      const id = node(n.id);
      const init = node(n.init);
      const direct = requireOf(init);
      // `const f = require('./q').f`
      const memberOf = init?.type === 'MemberExpression' && init.computed !== true ? requireOf(node(init.object)) : null;
      if (direct !== null && id?.type === 'Identifier') out.set(id.name as string, { module: direct, name: '*' });
      else if (memberOf !== null && id?.type === 'Identifier') out.set(id.name as string, { module: memberOf, name: ident(node(init!.property)) ?? '*' });
      else if (direct !== null && id?.type === 'ObjectPattern') {
        for (const p of nodes(id.properties)) {
          const key = ident(node(p.key));
          const local = ident(node(p.value));
          if (key !== null && local !== null) out.set(local, { module: direct, name: key });
        }
      }
    } else if (n.type === 'ImportDeclaration') {
      const src = node(n.source)?.value;
      if (!relative(src)) return;
      for (const spec of nodes(n.specifiers)) {
        const local = ident(node(spec.local));
        if (local === null) continue;
        if (spec.type === 'ImportSpecifier') out.set(local, { module: src, name: ident(node(spec.imported)) ?? String(node(spec.imported)?.value ?? '*') });
        else out.set(local, { module: src, name: spec.type === 'ImportDefaultSpecifier' ? 'default' : '*' });
      }
    }
  });
  return out;
}

/** (round s31b) Objects the file makes with `new X(…)` and keeps: `const r = new X()`, `this.r = new X()` (read as `r`), by the class name. */
function instancesOf(program: N): Map<string, string> {
  const out = new Map<string, string>();
  const classOf = (n: N | undefined): string | null => (n?.type === 'NewExpression' ? ident(node(n.callee)) : null);
  walk(program, (n) => {
    if (n.type === 'VariableDeclarator') {
      const id = ident(node(n.id));
      const cls = classOf(node(n.init));
      if (id !== null && cls !== null) out.set(id, cls);
    } else if (n.type === 'AssignmentExpression' && n.operator === '=') {
      const left = node(n.left);
      const cls = classOf(node(n.right));
      if (cls === null) return;
      if (left?.type === 'MemberExpression' && node(left.object)?.type === 'ThisExpression' && left.computed !== true) { const f = ident(node(left.property)); if (f !== null) out.set(`this.${f}`, cls); }
      else if (left?.type === 'Identifier') out.set(left.name as string, cls);
    }
  });
  return out;
}

interface FileNames {
  fns: Map<string, Fn>;
  methods: Map<string, Fn>;
  imports: Map<string, ImportedName>;
  instances: Map<string, string>;
  classes: Set<string>;
}

/** Where a call goes: a function or method of this file, a name of another module of the package, or nowhere known. */
type Target = { kind: 'local'; fn: Fn; name: string } | { kind: 'imported'; module: string; name: string; label: string };

function targetOf(callee: N | undefined, names: FileNames): Target | null {
  if (callee === undefined) return null;
  if (callee.type === 'Identifier') {
    const name = callee.name as string;
    const local = names.fns.get(name);
    if (local !== undefined) return { kind: 'local', fn: local, name };
    const imp = names.imports.get(name);
    return imp === undefined ? null : { kind: 'imported', module: imp.module, name: imp.name === '*' ? 'default' : imp.name, label: name };
  }
  if (callee.type !== 'MemberExpression' || callee.computed === true) return null;
  const method = ident(node(callee.property));
  if (method === null) return null;
  const obj = node(callee.object);
  // `this.report(k)`, `Keypair.report(k)`, `this.constructor.report(k)`: a method of the file's own classes.
  const selfLike = obj?.type === 'ThisExpression' || (obj?.type === 'Identifier' && names.classes.has(obj.name as string)) || (obj?.type === 'MemberExpression' && node(obj.object)?.type === 'ThisExpression' && ident(node(obj.property)) === 'constructor');
  if (selfLike && names.methods.has(method)) return { kind: 'local', fn: names.methods.get(method)!, name: method };
  // `q.addToQueue(k)` with `q = require('./q')`.
  const ns = obj?.type === 'Identifier' ? names.imports.get(obj.name as string) : undefined;
  if (ns !== undefined && (ns.name === '*' || ns.name === 'default')) return { kind: 'imported', module: ns.module, name: method, label: `${obj!.name as string}.${method}` };
  // `this.reporter.note(k)`, `r.note(k)` with the object made by `new Reporter()`: the class's method, here or in the module it comes from.
  const key = obj?.type === 'Identifier' ? (obj.name as string) : obj?.type === 'MemberExpression' && node(obj.object)?.type === 'ThisExpression' && obj.computed !== true ? `this.${ident(node(obj.property)) ?? ''}` : null;
  // `new Reporter().note(k)`: the object made in place.
  const cls = obj?.type === 'NewExpression' ? (ident(node(obj.callee)) ?? undefined) : key === null ? undefined : names.instances.get(key);
  if (cls === undefined) return null;
  if (names.classes.has(cls) && names.methods.has(method)) return { kind: 'local', fn: names.methods.get(method)!, name: method };
  const imp = names.imports.get(cls);
  return imp === undefined ? null : { kind: 'imported', module: imp.module, name: method, label: `${key ?? cls}.${method}` };
}

interface Handoff {
  context: string;
  key: string;
  at: N;
  /** The argument's position in the call. */
  index: number;
  target: Target | { kind: 'store'; store: string };
}

/** Calls, inside a key constructor, of a function given key material: walked by hand to keep the enclosing function's name. */
function keyHandoffs(program: N, names: FileNames): Handoff[] {
  const out: Handoff[] = [];
  const visit = (n: N, context: string | null, depth: number) => {
    if (depth > 400 || out.length > 20) return;
    let ctx = context;
    if (n.type === 'MethodDefinition' || (n.type === 'Property' && /Function/.test(node(n.value)?.type ?? ''))) ctx = ident(node(n.key)) ?? ctx;
    else if (n.type === 'FunctionDeclaration') ctx = ident(node(n.id)) ?? ctx;
    else if (n.type === 'ClassDeclaration' && ctx === null) ctx = ident(node(n.id));
    if (n.type === 'CallExpression' && ctx !== null && KEY_CONTEXT.test(ctx) && !PURPOSEFUL_SEND.test(ctx)) {
      const callee = node(n.callee);
      const target = targetOf(callee, names);
      // (round s31b) The key put straight into a store of the module or the object: `pending.push(key)`, `this.q.push(key)`.
      const method = calleeName(callee);
      const store = target === null && callee?.type === 'MemberExpression' && method !== null && /^(?:push|unshift|add|set|append|enqueue)$/.test(method) ? storeName(node(callee.object), new Set()) : null;
      if (target !== null || store !== null) {
        nodes(n.arguments).forEach((a, index) => {
          const key = keyCarried(a);
          if (key !== null) out.push({ context: ctx, key, at: n, index, target: target ?? { kind: 'store', store: store! } });
        });
      }
    }
    for (const c of childNodes(n)) visit(c, ctx, depth + 1);
  };
  visit(program, null, 0);
  return out;
}

/**
 * The request a function's data reaches: sent from the function itself, stored where a flush of the file
 * reads it into a request, or (round s31b) handed on to another function of the file that does either (two steps).
 */
function sendOf(program: N, names: FileNames, fn: Fn, bound: Set<string>, depth = 0): N | null {
  let send = sendReading(fn.body, new Set(fn.params), bound);
  if (send === null) for (const store of storesOf(fn)) if ((send = drainOf(program, store, bound)) !== null) break;
  if (send !== null || depth >= 2) return send;
  const params = new Set(fn.params);
  let next: N | null = null;
  walk(fn.body, (n) => {
    if (next !== null || n.type !== 'CallExpression') return;
    const target = targetOf(node(n.callee), names);
    if (target?.kind !== 'local' || target.fn.body === fn.body) return;
    const index = nodes(n.arguments).findIndex((a) => [...namesIn(a)].some((x) => params.has(x)));
    if (index >= 0) next = sendOf(program, names, focused(target.fn, index), bound, depth + 1);
  }, 20_000);
  return next;
}

function namesOf(program: N): FileNames {
  const classes = new Set<string>();
  walk(program, (n) => {
    if (n.type === 'ClassDeclaration' || n.type === 'ClassExpression') { const id = ident(node(n.id)); if (id !== null) classes.add(id); }
  });
  return { fns: functionsOf(program), methods: methodsOf(program), imports: localImports(program), instances: instancesOf(program), classes };
}

const TEST_PATH = /(?:^|\/)(?:tests?|__tests__|spec|examples?|fixtures?)\/|\.(?:test|spec)\.[cm]?[jt]sx?$/i;
const KEY_TEXT = /secret_?key|private_?key|priv_?key|mnemonic|seed|phrase|wallet_?key|signer_?key|scalar/i;
const NETWORK_TEXT = /fetch|axios|https?\b|request|XMLHttpRequest|WebSocket|sendBeacon|\bgot\b|undici|superagent|needle|phin|\bnet\b|dgram|\bdns\b|\bws\b/;

/** (round s31b) Key material handed to a function of another module of the package: what the module must be read for. */
export interface ImportedKeyHandoff {
  /** The module as the file names it (`./utils/queue`). */
  module: string;
  /** The exported function or method called (`addToQueue`; `default` for the module itself). */
  name: string;
  /** The position of the argument that carries the key. */
  index: number;
  line: number;
  evidence: string;
}

export interface KeyHandoffResult {
  finding: AgentFinding | null;
  imported: ImportedKeyHandoff[];
}

const lineOf = (text: string, at: N) => text.slice(0, at.start).split('\n').length;

/**
 * The key constructors of a file read once: a finding when the key reaches a request of the same file, and
 * the handoffs to functions of the package's other modules (`addToQueue` required from `./utils/queue`),
 * which `keySenderOf` judges on the module they name.
 */
export function keyHandoffSend(file: string, text: string): KeyHandoffResult {
  const none: KeyHandoffResult = { finding: null, imported: [] };
  if (TEST_PATH.test(file) || text.length > 2_000_000 || !KEY_TEXT.test(text)) return none;
  const typescript = /\.[cm]?tsx?$/i.test(file);
  const parsed = parseJavaScript(text, typescript);
  if (parsed === null) return none;
  // Only read here: the fact reader that parses the same text next takes this tree instead of parsing again.
  keepForNextParse(text, typescript, parsed);
  const program = parsed.program as unknown as N;
  const names = namesOf(program);
  const handoffs = keyHandoffs(program, names);
  if (handoffs.length === 0) return none;
  const bound = networkBindings(program);
  const imported: ImportedKeyHandoff[] = [];
  for (const h of handoffs) {
    if (h.target.kind === 'imported') {
      imported.push({ module: h.target.module, name: h.target.name, index: h.index, line: lineOf(text, h.at), evidence: `${h.context}: ${text.slice(h.at.start, Math.min(h.at.end, h.at.start + 120))}` });
      continue;
    }
    if (!NETWORK_TEXT.test(text)) continue;
    const send = h.target.kind === 'store' ? drainOf(program, h.target.store, bound) : sendOf(program, names, focused(h.target.fn, h.index), bound);
    if (send === null) continue;
    return {
      finding: referenceFinding({
        category: 'exfiltration',
        severity: 'CRIT',
        title: KEY_HANDOFF_TITLE,
        file,
        line: lineOf(text, h.at),
        evidence: `${h.context}: ${text.slice(h.at.start, Math.min(h.at.end, h.at.start + 120))} … line ${lineOf(text, send)}: ${text.slice(send.start, Math.min(send.end, send.start + 160))}`,
      }),
      imported: [],
    };
  }
  return { finding: null, imported };
}

export const KEY_HANDOFF_TITLE = 'A key constructor hands the private key to a function that sends it over the network';

export function keyHandoffSendFinding(file: string, text: string): AgentFinding | null {
  return keyHandoffSend(file, text).finding;
}

/**
 * (round s31b) The request that a function another module of the package calls with key material reaches in
 * this module: the function or method exported under `name` (`export function`, `exports.f =`,
 * `module.exports = { f }`, a class's method; `default`: `module.exports = function …`) sends its
 * parameters, stores them where a flush of this module sends them, or hands them to a function of the module
 * that does. Null when it does not, or the text is not read.
 */
export function keySenderOf(file: string, text: string, name: string, index: number): KeySender | null {
  if (text.length > 2_000_000) return null;
  const parsed = parseJavaScript(text, /\.[cm]?tsx?$/i.test(file));
  if (parsed === null) return null;
  const program = parsed.program as unknown as N;
  const names = namesOf(program);
  const fn = exportedFunction(program, names, name);
  if (fn === null) {
    // A barrel that passes another module's names on (`export * from './queue'`, `module.exports = require('./queue')`): read there.
    const from = reexportSources(program, name);
    return from.length === 0 ? null : { reexports: from };
  }
  if (!NETWORK_TEXT.test(text)) return null;
  const send = sendOf(program, names, focused(fn, index), networkBindings(program));
  return send === null ? null : { line: lineOf(text, send), evidence: text.slice(send.start, Math.min(send.end, send.start + 160)) };
}

/** What `keySenderOf` finds: the request the key reaches, or the modules a barrel takes the name from (each with the name it has there). */
export type KeySender = { line: number; evidence: string } | { reexports: { module: string; name: string }[] };

/** Modules a module passes `name` on from: `export * from`, `export { x as name } from`, a relative `require` whose value it exports. */
function reexportSources(program: N, name: string): { module: string; name: string }[] {
  const out: { module: string; name: string }[] = [];
  const relative = (v: unknown): v is string => typeof v === 'string' && /^\.\.?\//.test(v);
  walk(program, (n) => {
    if (out.length >= 5) return;
    if (n.type === 'ExportAllDeclaration' && node(n.exported) === undefined) {
      const src = node(n.source)?.value;
      if (relative(src)) out.push({ module: src, name });
    } else if (n.type === 'ExportNamedDeclaration') {
      const src = node(n.source)?.value;
      if (!relative(src)) return;
      for (const spec of nodes(n.specifiers)) if (ident(node(spec.exported)) === name) out.push({ module: src, name: ident(node(spec.local)) ?? name });
    } else if (n.type === 'CallExpression' && ident(node(n.callee)) === 'require') {
      // `module.exports = require('./q')`, `{ ...require('./q') }`, `__exportStar(require('./q'), exports)`: the name may come from there.
      const src = nodes(n.arguments)[0]?.value;
      if (relative(src)) out.push({ module: src, name });
    }
  }, 50_000);
  return out;
}

/** The function a module gives under `name`: declared or exported by that name, a method of that name, or what `module.exports = { name: local }` / `export { local as name }` points to. */
function exportedFunction(program: N, names: FileNames, name: string): Fn | null {
  if (name !== 'default') {
    const direct = names.fns.get(name) ?? names.methods.get(name);
    if (direct !== undefined) return direct;
  }
  let found: Fn | null = null;
  walk(program, (n) => {
    if (found !== null) return;
    // `module.exports = { name: local }`, `module.exports = function …`
    if (n.type === 'AssignmentExpression' && n.operator === '=') {
      const left = node(n.left);
      const right = node(n.right);
      const isModuleExports = left?.type === 'MemberExpression' && ident(node(left.object)) === 'module' && ident(node(left.property)) === 'exports';
      if (!isModuleExports || right === undefined) return;
      if (name === 'default') {
        found = asFn('default', right) ?? (ident(right) !== null ? (names.fns.get(ident(right)!) ?? null) : null);
        return;
      }
      if (right.type === 'ObjectExpression') {
        for (const p of nodes(right.properties)) {
          if (ident(node(p.key)) !== name) continue;
          const value = node(p.value);
          found = asFn(name, value) ?? (ident(value) !== null ? (names.fns.get(ident(value)!) ?? null) : null);
        }
      }
    } else if (n.type === 'ExportSpecifier') {
      const exported = ident(node(n.exported));
      const local = ident(node(n.local));
      if (exported === name && local !== null) found = names.fns.get(local) ?? null;
    } else if (n.type === 'ExportDefaultDeclaration' && name === 'default') {
      const decl = node(n.declaration);
      found = asFn('default', decl) ?? (ident(decl) !== null ? (names.fns.get(ident(decl)!) ?? null) : null);
    }
  });
  return found;
}
