import { REFLECTED_API, SENSITIVE_NAMES, type CallFact, type CodeFacts, type DataLabel } from '../code-facts.js';
import { CHANNEL_METHODS, FILE_PATH_CALLEE, GATED_SINK, isNetworkCallee, moduleName, PROCESS_CALLEE, STRING_ARG_CALLEE } from './callee-kinds.js';
import type { FileSyntax } from './collect-syntax.js';
import { jsCommandShape } from './command-shape.js';
import { commandPaths, dirPath, withPath } from './dir-path.js';
import { node, nodes, type N } from './estree.js';
import type { FileContext } from './file-context.js';
import { argStrings, isImportedConstant } from './fold.js';
import type { Resolve } from './resolve.js';
import { indirection } from './reflection.js';

/** Calls that move or copy a file: the first argument is read, only the second is written. */
const MOVE_CALLEE = /^fs\.(?:promises\.)?(?:renameSync|rename|copyFileSync|copyFile|cpSync|cp)$|^fs-extra\.(?:moveSync|move|copySync|copy)$/;

// `fs.chmod(path, mode)` and its kin: the mode is the second argument.
const CHMOD_MODE_CALLEE = /^(?:fs|fs-extra|graceful-fs)(?:\.promises)?\.(?:chmod|chmodSync|lchmod|lchmodSync)$/;

/** Names reached through reflection that are reported as hidden (`Reflect.get(cp, 'spawn')`). */
const REFLECTED_SENSITIVE = /^(exec|execSync|execFile|execFileSync|spawn|spawnSync|fork|eval|Function|mainModule|binding|dlopen)$/;

/**
 * One `CallFact` per call, in walk order (`facts.calls[i]` is `syntax.callSites[i]`, which the
 * wrapper pass relies on), and the facts read off calls: environment dumps, dynamic requires,
 * reflective calls, calls of decoded names and hidden sensitive names.
 */
export function addCallFacts(ctx: FileContext, syntax: FileSyntax, facts: CodeFacts): void {
  const { text, scopes, r, labels, lineOf, gates } = ctx;
  const { callSites, functions } = syntax;

  // The name a call's value is assigned to, to see `const child = spawn(…); child.unref()`.
  const declaredBy = new Map<N, string>();
  for (const b of ctx.bindings) {
    if (b.kind !== 'value' || b.target.type !== 'Identifier' || b.init === undefined) continue;
    if (!declaredBy.has(b.init)) declaredBy.set(b.init, b.target.name as string);
  }
  // Object literals kept in a variable, to read options passed by name.
  const objectInits = new Map<string, N>();
  for (const b of ctx.bindings) {
    if (b.kind !== 'value' || b.target.type !== 'Identifier' || b.init?.type !== 'ObjectExpression') continue;
    scopes.chain = b.chain;
    const key = scopes.key(b.target.name as string);
    if (!objectInits.has(key)) objectInits.set(key, b.init);
  }
  // Values chosen between constants (`const cmd = win ? 'rd /s /q .' : 'rm -rf *'`, `a || 'x'`): each branch is among the argument strings.
  const choiceInits = new Map<string, N>();
  for (const b of ctx.bindings) {
    if (b.kind !== 'value' || b.target.type !== 'Identifier' || (b.init?.type !== 'ConditionalExpression' && b.init?.type !== 'LogicalExpression')) continue;
    scopes.chain = b.chain;
    const key = scopes.key(b.target.name as string);
    if (!choiceInits.has(key)) choiceInits.set(key, b.init);
  }
  /** Names of local functions called only under a clock or chance condition (`if (Math.random() < .1) wipe()`). */
  const gatedCallees = new Map<string, 'date' | 'chance'>();
  for (const c of callSites) {
    if (c.guards.length === 0 || node(c.call.callee)?.type !== 'Identifier') continue;
    scopes.chain = c.chain;
    const callee = node(c.call.callee);
    const g = gates.gateOf(c.guards);
    if (g !== undefined && callee?.type === 'Identifier') gatedCallees.set(callee.name as string, g);
  }

  for (const { call, topLevel, unref, chain: at, guards, inFunctions } of callSites) {
    scopes.chain = at;
    const callee = node(call.callee);
    const q = r.qualify(callee) ?? '?';
    // Only calls a time bomb would make are judged (deleting, writing, running, exiting).
    const gate = guards.length + inFunctions.length > 0 && GATED_SINK.test(q) ? (gates.gateOf(guards) ?? inFunctions.map((start) => gatedCallees.get(functions.get(start)?.name ?? '')).find((g) => g !== undefined)) : undefined;
    const args = nodes(call.arguments);
    const argLabels = new Set<DataLabel>();
    // A move or copy writes only its destination: `renameSync(join(tmp, 'node_modules', pkg, bin), ownBin)`
    // takes a file out of another package (esbuild's install.js), it writes nothing there.
    const written = MOVE_CALLEE.test(q) ? args.slice(1) : args;
    for (const a of written) if (a.type !== 'FunctionExpression' && a.type !== 'ArrowFunctionExpression') for (const l of labels.of(a)) argLabels.add(l);
    argLabels.delete('channel');
    // `res.pipe(fs.createWriteStream(p))`: what a response carries flows into the stream it is piped to.
    if (callee?.type === 'MemberExpression' && r.propertyName(callee) === 'pipe') for (const l of labels.of(node(callee.object))) if (l === 'remote' || l === 'channel') argLabels.add('remote');
    // A client whose default headers carry a secret (`axios.defaults.headers.common['X'] = key`) sends it with every request.
    if (callee?.type === 'MemberExpression' && isNetworkCallee(q)) for (const l of labels.of(node(callee.object))) if (l === 'keymaterial' || l === 'secret' || l === 'env' || l === 'envtoken' || l === 'hostinfo') argLabels.add(l);
    const onChannel = callee?.type === 'MemberExpression' && CHANNEL_METHODS.has(r.propertyName(callee) ?? '') && labels.of(node(callee.object)).has('channel');
    const first = args[0];
    const firstState = { decoded: false };
    const directDecode = first !== undefined && (isDecoderCall(r, first) || (r.fold(first, firstState) !== undefined && firstState.decoded));
    const options: Record<string, string> = {};
    for (const arg of args) {
      // An options object kept in a variable (`const o = { detached: true }; spawn(c, a, o)`).
      const a = arg.type === 'Identifier' ? (objectInits.get(scopes.key(arg.name as string)) ?? arg) : arg;
      if (a.type !== 'ObjectExpression') continue;
      for (const p of nodes(a.properties)) {
        const key = (node(p.key)?.name ?? node(p.key)?.value) as string | undefined;
        const value = node(p.value);
        if (key === undefined || value === undefined) continue;
        if (value.type === 'Literal') options[key] = String(value.value);
        else {
          const v = r.fold(value);
          if (v !== undefined) options[key] = v;
        }
      }
    }
    let unrefd = unref;
    const parent = declaredBy.get(call);
    if (parent !== undefined && syntax.unrefTargets.has(parent)) unrefd = true;
    const fact: CallFact = {
      callee: q,
      line: lineOf(call.start),
      args: args.map((a) => r.fold(a) ?? null),
      argLabels: [...argLabels],
      // Constant strings inside the arguments matter for commands, files and requests only.
      argStrings: STRING_ARG_CALLEE.test(q) || isNetworkCallee(q) ? argStrings(r, written.map((a) => (a.type === 'Identifier' ? (choiceInits.get(scopes.key(a.name as string)) ?? a) : a))) : [],
      ...(FILE_PATH_CALLEE.test(q) && written[0] !== undefined ? withPath(dirPath(r, ctx.boundTo, written[0])) : {}),
      ...(PROCESS_CALLEE.test(q) ? { ...withCommandPaths(commandPaths(r, ctx.boundTo, args)), ...jsCommandShape(r, ctx.boundTo, q, args) } : {}),
      options,
      unref: unrefd,
      isNew: call.type === 'NewExpression',
      topLevel,
      onChannel,
      directDecode,
      ...(gate === undefined ? {} : { gate }),
      ...(CHMOD_MODE_CALLEE.test(q) && args[1]?.type === 'Literal' ? { modeText: text.slice(args[1].start as number, args[1].end as number) } : {}),
    };
    facts.calls.push(fact);
    const excerpt = () => text.slice(call.start, Math.min(call.end, call.start + 120));
    if ((q === 'JSON.stringify' || q === 'Object.keys' || q === 'Object.entries' || q === 'Object.values') && args[0] !== undefined && r.qualify(args[0]) === 'process.env') {
      facts.envDumps.push({ line: fact.line, expression: excerpt() });
    }
    if ((q === 'require' || q === 'module.require') && args[0] !== undefined && r.fold(args[0]) === undefined) facts.dynamicRequires.push(fact.line);
    // A require through an alias (esbuild's `__require` shim, `const r = require`) imports as `require` does.
    if (q === 'require' && callee?.type === 'Identifier' && callee.name !== 'require' && args[0] !== undefined) {
      const spec = r.fold(args[0]);
      if (spec !== undefined && !facts.imports.some((i) => i.line === fact.line && i.module === moduleName(spec))) facts.imports.push({ module: moduleName(spec), line: fact.line });
    }
    if (REFLECTED_API.test(q) || (q.includes('.') && isNetworkCallee(q))) {
      // `const run = cp['spawn']; run(…)`: the indirection is where the name was bound.
      const via = indirection(r, callee) ?? (callee?.type === 'Identifier' ? indirection(r, ctx.boundTo(callee.name as string)) : undefined);
      if (via !== undefined) facts.reflectiveCalls.push({ callee: q, line: fact.line, via, expression: text.slice(callee!.start, Math.min(callee!.end, callee!.start + 120)) });
    }
    // A method or module named by decoded text that does not fold (a hand-written decoder ran on it).
    const named = callee?.type === 'MemberExpression' && callee.computed === true ? node(callee.property) : q === 'require' || q === 'module.require' ? args[0] : undefined;
    if (named !== undefined && r.fold(named) === undefined && labels.of(named).has('decoded')) facts.decodedNameCalls.push({ line: fact.line, expression: excerpt() });
    // Reflection reaching a sensitive function (`Reflect.get(cp, 'spawn')`, `getOwnPropertyDescriptor(cp, 'exec')`).
    if ((q === 'Reflect.get' || q === 'Object.getOwnPropertyDescriptor') && args[1] !== undefined) {
      const name = r.fold(args[1]);
      if (name !== undefined && REFLECTED_SENSITIVE.test(name)) facts.hiddenNames.push({ name, line: fact.line, expression: excerpt() });
    }
    if ((q === 'require' || q === 'module.require') && args[0] !== undefined && args[0].type !== 'Literal' && !isImportedConstant(r, args[0])) {
      const name = r.fold(args[0]);
      if (name !== undefined && SENSITIVE_NAMES.has(moduleName(name))) facts.hiddenNames.push({ name: moduleName(name), line: fact.line, expression: excerpt() });
    }
  }
}

/** `{ commandPaths }` when a computed part of the command is a path from the file's location, nothing otherwise. */
function withCommandPaths(paths: string[] | undefined): { commandPaths?: string[] } {
  return paths === undefined ? {} : { commandPaths: paths };
}

/** `atob(x)`, `Buffer.from(x, 'base64')…`, `String.fromCharCode(…)`, `unescape(x)`, possibly followed by `.toString()`. */
function isDecoderCall(r: Resolve, expr: N, depth = 0): boolean {
  if (expr.type !== 'CallExpression') return false;
  const callee = node(expr.callee);
  const q = r.qualify(callee);
  if (q === 'atob' || q === 'String.fromCharCode' || q === 'unescape' || q === 'decodeURIComponent') return true;
  // Packer output: `eval(function(p,a,c,k,e,d){…}(…))` evaluates what an inline function unpacks.
  const fn = callee?.type === 'ParenthesizedExpression' ? node(callee.expression) : callee;
  if (fn?.type === 'FunctionExpression' || fn?.type === 'ArrowFunctionExpression') return true;
  if (q === 'Buffer.from') {
    const enc = r.fold(nodes(expr.arguments)[1]);
    return enc === 'base64' || enc === 'hex' || enc === 'base64url';
  }
  if (callee?.type === 'MemberExpression' && (r.propertyName(callee) === 'toString' || r.propertyName(callee) === 'join')) {
    const obj = node(callee.object);
    return obj !== undefined && isDecoderCall(r, obj, depth);
  }
  // (round s31) A small helper of the file that returns a decoder's result (`function d(x) { return atob(x) }`).
  const helper = depth < 3 ? r.helperResult(callee) : undefined;
  return helper !== undefined && isDecoderCall(r, helper.result, depth + 1);
}
