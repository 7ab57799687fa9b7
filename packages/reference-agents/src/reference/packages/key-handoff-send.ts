import type { AgentFinding } from '@vigil/core';
import { referenceFinding } from '../common/reference-finding.js';
import { keepForNextParse, parseJavaScript } from '../code/parse-javascript.js';
import { childNodes, node, nodes, type N } from '../code/javascript/estree.js';

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
  body: N;
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

/** Functions of the file by name: declarations, `const f = (…) => …`, class methods (by method name). */
function functionsOf(program: N): Map<string, Fn> {
  const out = new Map<string, Fn>();
  const add = (name: string | null, fn: N | undefined) => {
    if (name === null || fn === undefined || !/Function/.test(fn.type) || out.has(name)) return;
    const params = nodes(fn.params).map((p) => ident(p.type === 'AssignmentPattern' ? node(p.left) : p)).filter((p): p is string => p !== null);
    const body = node(fn.body);
    if (body !== undefined) out.set(name, { name, params, body });
  };
  walk(program, (n) => {
    if (n.type === 'FunctionDeclaration') add(ident(node(n.id)), n);
    else if (n.type === 'VariableDeclarator') add(ident(node(n.id)), node(n.init));
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

/** Outer names `fn` stores its parameter into: `q.push(p)`, `buf += p`, `cache[k] = p`, `set.add(p)`. */
function storesOf(fn: Fn): Set<string> {
  const params = new Set(fn.params);
  const out = new Set<string>();
  const usesParam = (n: N | undefined) => n !== undefined && [...namesIn(n)].some((x) => params.has(x));
  walk(fn.body, (n) => {
    if (n.type === 'CallExpression') {
      const callee = node(n.callee);
      const obj = callee?.type === 'MemberExpression' ? node(callee.object) : undefined;
      const method = calleeName(callee);
      if (obj?.type === 'Identifier' && method !== null && /^(?:push|unshift|add|set|append|concat|enqueue|write)$/.test(method) && nodes(n.arguments).some(usesParam)) out.add(obj.name as string);
    } else if (n.type === 'AssignmentExpression' && usesParam(node(n.right))) {
      let left = node(n.left);
      while (left?.type === 'MemberExpression') left = node(left.object);
      const name = ident(left);
      if (name !== null && !params.has(name)) out.add(name);
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
 * queue.splice(0)`, two steps) and the parameters of callbacks run over them (`items.forEach((k) => …)`).
 * A request that names none of them (an RPC call beside a cache lookup) does not send the store.
 */
function derivedFrom(body: N, store: string): Set<string> {
  const out = new Set([store]);
  const mentions = (n: N | undefined) => n !== undefined && [...namesIn(n)].some((x) => out.has(x));
  for (let pass = 0; pass < 2; pass++) {
    walk(body, (n) => {
      if (n.type === 'VariableDeclarator' && mentions(node(n.init))) { const id = ident(node(n.id)); if (id !== null) out.add(id); }
      else if (n.type === 'AssignmentExpression' && mentions(node(n.right))) { const id = ident(node(n.left)); if (id !== null) out.add(id); }
      else if (n.type === 'CallExpression' && node(n.callee)?.type === 'MemberExpression' && mentions(node(node(n.callee)?.object))) {
        for (const a of nodes(n.arguments)) if (/Function/.test(a.type)) for (const p of nodes(a.params)) { const id = ident(p); if (id !== null) out.add(id); }
      } else if (n.type === 'ForOfStatement' && mentions(node(n.right))) {
        const left = node(n.left);
        for (const d of left?.type === 'VariableDeclaration' ? nodes(left.declarations) : []) { const id = ident(node(d.id)); if (id !== null) out.add(id); }
      }
    }, 20_000);
  }
  return out;
}

/** Calls, inside a key constructor, of a local function given key material: walked by hand to keep the enclosing function's name. */
function keyHandoffs(program: N, fns: Map<string, Fn>): Array<{ context: string; callee: string; key: string; at: N }> {
  const out: Array<{ context: string; callee: string; key: string; at: N }> = [];
  const visit = (n: N, context: string | null, depth: number) => {
    if (depth > 400 || out.length > 20) return;
    let ctx = context;
    if (n.type === 'MethodDefinition' || (n.type === 'Property' && /Function/.test(node(n.value)?.type ?? ''))) ctx = ident(node(n.key)) ?? ctx;
    else if (n.type === 'FunctionDeclaration') ctx = ident(node(n.id)) ?? ctx;
    else if (n.type === 'ClassDeclaration' && ctx === null) ctx = ident(node(n.id));
    if (n.type === 'CallExpression' && ctx !== null && KEY_CONTEXT.test(ctx) && !PURPOSEFUL_SEND.test(ctx)) {
      const callee = ident(node(n.callee));
      if (callee !== null && fns.has(callee)) {
        for (const a of nodes(n.arguments)) {
          const key = keyCarried(a);
          if (key !== null) out.push({ context: ctx, callee, key, at: n });
        }
      }
    }
    for (const c of childNodes(n)) visit(c, ctx, depth + 1);
  };
  visit(program, null, 0);
  return out;
}

const TEST_PATH = /(?:^|\/)(?:tests?|__tests__|spec|examples?|fixtures?)\/|\.(?:test|spec)\.[cm]?[jt]sx?$/i;

export function keyHandoffSendFinding(file: string, text: string): AgentFinding | null {
  if (TEST_PATH.test(file) || text.length > 2_000_000) return null;
  if (!/secret_?key|private_?key|priv_?key|mnemonic|seed|phrase|wallet_?key|signer_?key|scalar/i.test(text) || !/fetch|axios|https?\b|request|XMLHttpRequest|WebSocket|sendBeacon|\bgot\b|undici|superagent|needle|phin|\bnet\b|dgram|\bdns\b|\bws\b/.test(text)) return null;
  const typescript = /\.[cm]?tsx?$/i.test(file);
  const parsed = parseJavaScript(text, typescript);
  if (parsed === null) return null;
  // Only read here: the fact reader that parses the same text next takes this tree instead of parsing again.
  keepForNextParse(text, typescript, parsed);
  const program = parsed.program as unknown as N;
  const fns = functionsOf(program);
  const handoffs = keyHandoffs(program, fns);
  if (handoffs.length === 0) return null;
  const bound = networkBindings(program);
  for (const h of handoffs) {
    const fn = fns.get(h.callee)!;
    // Sent from the function itself, or stored where a flush reads it into a request.
    let send = sendReading(fn.body, new Set(fn.params), bound);
    if (send === null) for (const store of storesOf(fn)) if ((send = drainOf(program, store, bound)) !== null) break;
    if (send === null) continue;
    const line = (at: N) => text.slice(0, at.start).split('\n').length;
    return referenceFinding({
      category: 'exfiltration',
      severity: 'CRIT',
      title: 'A key constructor hands the private key to a function that sends it over the network',
      file,
      line: line(h.at),
      evidence: `${h.context}: ${text.slice(h.at.start, Math.min(h.at.end, h.at.start + 120))} … line ${line(send)}: ${text.slice(send.start, Math.min(send.end, send.start + 160))}`,
    });
  }
  return null;
}
