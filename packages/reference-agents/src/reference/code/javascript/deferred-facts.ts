import { isImportedConstant } from './fold.js';
import type { CodeFacts } from '../code-facts.js';
import { CHAIN_SEND, SECRET_ARGUMENT_NAME, SENSITIVE_NAMES } from '../code-facts.js';
import { isNetworkCallee } from './callee-kinds.js';
import type { FileSyntax } from './collect-syntax.js';
import { node, nodes, type N } from './estree.js';
import type { FileContext } from './file-context.js';

/** Assignments that replace a network or wallet function: `fetch = …`, `XMLHttpRequest.prototype.send = …`. */
const HOOKED = /^(fetch|XMLHttpRequest\.prototype\.(open|send|setRequestHeader)|ethereum(\.request|\.send|\.sendAsync|\.enable)?|solana\.(signTransaction|signAndSendTransaction))$/;

/**
 * Node APIs whose replacement (monkey-patching) intercepts what other code sends, reads or runs:
 * request functions of the network modules, process spawning, credential-bearing crypto, and the
 * prototype methods of their request classes (`http.ClientRequest.prototype.write`).
 */
const NODE_HOOKABLE = /^(?:(?:node:)?(?:https?|http2|net|tls|dns|child_process)\.(?:request|get|connect|createConnection|lookup|resolve\w*|exec|execSync|execFile|spawn|spawnSync|fork)|(?:node:)?https?\.(?:ClientRequest|Agent)\.prototype\.\w+|(?:node:)?crypto\.(?:createCipheriv|createSign|privateDecrypt|createPrivateKey))$/;
/** Node's built-in modules (`node:` or bare). */
const NODE_BUILTIN = /^(?:node:)?(?:assert|async_hooks|buffer|child_process|cluster|console|constants|crypto|dgram|diagnostics_channel|dns|domain|events|fs|http|http2|https|inspector|module|net|os|path|perf_hooks|process|punycode|querystring|readline|repl|stream|string_decoder|sys|timers|tls|trace_events|tty|url|util|v8|vm|wasi|worker_threads|zlib)(?:\/[\w/]+)?$/;
const FUNCTION_VALUE = new Set(['FunctionExpression', 'ArrowFunctionExpression', 'Identifier', 'CallExpression']);

/**
 * The facts of nodes the walk kept until names were resolved: secret environment names read off
 * `process.env`, `for … in process.env` dumps, sensitive names behind computed members, hooks of
 * network and wallet functions, and the string constants only folding reveals.
 */
export function addDeferredFacts(ctx: FileContext, syntax: FileSyntax, facts: CodeFacts): void {
  const { text, scopes, r, lineOf } = ctx;
  for (const { n: m, name, chain: at } of syntax.envMembers) {
    scopes.chain = at;
    if (r.qualify(node(m.object)) === 'process.env') facts.secretEnvNames.push({ name, line: lineOf(m.start) });
  }
  for (const { n: f, chain: at } of syntax.forIns) {
    scopes.chain = at;
    if (r.qualify(node(f.right)) === 'process.env') facts.envDumps.push({ line: lineOf(f.start), expression: text.slice(f.start, Math.min(f.end, f.start + 80)) });
  }
  for (const { n: m, chain: at } of syntax.computedMembers) {
    scopes.chain = at;
    const prop = node(m.property);
    if (prop === undefined || prop.type === 'Identifier' || isImportedConstant(r, prop)) continue;
    const name = r.fold(prop);
    if (name !== undefined && SENSITIVE_NAMES.has(name)) facts.hiddenNames.push({ name, line: lineOf(m.start), expression: text.slice(m.start, Math.min(m.end, m.start + 120)) });
  }
  for (const { n: a, chain: at } of syntax.assignments) {
    scopes.chain = at;
    const left = node(a.left);
    if (left?.type !== 'MemberExpression' && left?.type !== 'Identifier') continue;
    const target = r.qualify(left);
    if (target === undefined) continue;
    if (HOOKED.test(target)) {
      if (left.type === 'Identifier' && target === 'fetch') continue;
      facts.hooks.push({ target, line: lineOf(a.start) });
    } else if (left.type === 'MemberExpression' && NODE_HOOKABLE.test(target) && FUNCTION_VALUE.has(node(a.right)?.type ?? '')) {
      // A Node API that carries requests, credentials or commands replaced by a function: everything
      // any module of the process sends or runs through it passes the replacement first.
      facts.hooks.push({ target, line: lineOf(a.start) });
    } else if (left.type === 'MemberExpression' && (node(a.right)?.type === 'FunctionExpression' || node(a.right)?.type === 'ArrowFunctionExpression' || node(a.right)?.type === 'Identifier')) {
      // A function of an imported library (not a relative module, not a Node built-in listed above)
      // replaced by one that itself makes a network call or puts data on a chain: every caller's
      // arguments (a mnemonic given to `bip39.mnemonicToSeedSync`, a key to `Keypair.fromSecretKey`) pass it first.
      // Node's own modules are judged by the rows above (an HTTP mocking library replaces `http.ClientRequest` by design).
      const library = facts.imports.find((i) => !/^[./]/.test(i.module) && !NODE_BUILTIN.test(i.module) && (target === i.module || target.startsWith(`${i.module}.`)));
      if (library === undefined || target === library.module) continue;
      // A function written in place, or a function of the file named by the value (`bip39.x = patched`).
      const right = node(a.right)!;
      const named = right.type === 'Identifier' ? [...syntax.functions].find(([, f]) => f.name === right.name) : undefined;
      if (right.type === 'Identifier' && named === undefined) continue;
      const fn = named === undefined ? { start: right.start, end: right.end, params: nodes(right.params).map((p: N) => (p.type === 'Identifier' ? (p.name as string) : p.type === 'AssignmentPattern' ? ((node(p.left)?.name as string | undefined) ?? '') : '')) } : { start: named[0], end: named[1].end, params: named[1].params };
      const sends = syntax.callSites.some((site, i) => site.call.start >= fn.start && site.call.end <= fn.end && (isNetworkCallee(facts.calls[i]?.callee ?? '') || facts.calls[i]?.onChannel === true || CHAIN_SEND.test(facts.calls[i]?.callee ?? '')));
      if (!sends) continue;
      // A wrapper of a request function (retries, timeouts, logging) sends by nature: only one that also names a fixed address of its own counts.
      if (isNetworkCallee(target) && !/['"`]https?:\/\/[\w.-]+/.test(ctx.text.slice(fn.start, fn.end))) continue;
      const params = fn.params;
      const secretArgs = SECRET_ARGUMENT_NAME.test(target.slice(library.module.length + 1)) || params.some((p) => SECRET_ARGUMENT_NAME.test(p));
      facts.hooks.push({ target, line: lineOf(a.start), sends: true, ...(secretArgs ? { secretArgs: true } : {}) });
    }
  }
  // String constants, including ones only visible after folding (concatenations, char codes, base64).
  for (const { n, chain: at } of syntax.foldCandidates) {
    scopes.chain = at;
    // (round s31) A call of a name: only a small helper of the file is read (`helpers.ts`).
    const callee = n.type === 'CallExpression' ? node(n.callee) : undefined;
    if (callee?.type === 'Identifier' && !/^(atob|unescape|decodeURIComponent)$/.test(callee.name as string) && r.helperResult(callee) === undefined) continue;
    const st = { decoded: false };
    const v = r.fold(n, st);
    if (v !== undefined && v.length >= 4 && (st.decoded || n.type !== 'CallExpression')) facts.strings.push({ value: v, line: lineOf(n.start), decoded: st.decoded });
  }
}
