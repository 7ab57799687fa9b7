import type { CallFact, CodeFacts } from '../code-facts.js';
import { FILE_PATH_CALLEE, isNetworkCallee } from './callee-kinds.js';
import type { FileSyntax } from './collect-syntax.js';
import { dirPath, withPath } from './dir-path.js';
import { nodes, type N } from './estree.js';
import type { FileContext } from './file-context.js';
import { argStrings } from './fold.js';
import { identifiersIn } from './syntax-shapes.js';

/**
 * One level across functions, after `addCallFacts` (whose `facts.calls[i]` is `syntax.callSites[i]`):
 * a local function that sends its parameters makes its callers' calls network calls, and one that
 * writes to a path it is given makes each call of it a write to the path its caller builds.
 */
export function followWrappers(ctx: FileContext, syntax: FileSyntax, facts: CodeFacts): void {
  markNetworkWrappers(ctx, syntax, facts);
  addWritesThroughWriters(ctx, syntax, facts);
}

// `const send = (c) => fetch(u, { headers: { x: c } }); send(secret)` makes `send` a network call for its callers.
// The parameter may reach the request through names bound anywhere in the file, also from a callback the
// function schedules or from another function: `q.push(v)` here, `fetch(u, { headers: { x: q.join() } })` in a
// timer or a flush (the @solana/web3.js backdoor's `addToQueue`, December 2024).
function markNetworkWrappers(ctx: FileContext, syntax: FileSyntax, facts: CodeFacts): void {
  const { scopes } = ctx;
  const keysIn = (roots: N[], chain: number[]): string[] => {
    scopes.chain = chain;
    return [...identifiersIn(roots)].map((name) => scopes.key(name));
  };
  // Binding graph: a name's key to the keys of the names its values are built from (function values carry no data).
  // Sets: a name pushed to 150,000 times (`q.push(a)` repeated) keeps one edge per source name.
  const from = new Map<string, Set<string>>();
  for (const b of ctx.bindings) {
    if (b.kind !== 'value' || b.target.type !== 'Identifier' || b.init === undefined || b.init.type === 'FunctionExpression' || b.init.type === 'ArrowFunctionExpression') continue;
    scopes.chain = b.chain;
    const target = scopes.key(b.target.name as string);
    let set = from.get(target);
    if (set === undefined) from.set(target, (set = new Set()));
    for (const k of keysIn([b.init], b.chain)) set.add(k);
  }
  const reached = new Set<string>();
  syntax.callSites.forEach(({ call, chain: at }, i) => {
    const fact = facts.calls[i]!;
    if (!isNetworkCallee(fact.callee) && !fact.onChannel) return;
    const stack = keysIn(nodes(call.arguments), at);
    while (stack.length > 0 && reached.size < 20000) {
      const k = stack.pop()!;
      if (reached.has(k)) continue;
      reached.add(k);
      for (const next of from.get(k) ?? []) if (!reached.has(next)) stack.push(next);
    }
  });
  const wrappers = new Set<string>();
  for (const [start, fn] of syntax.functions) if (fn.params.some((p) => reached.has(`${start}\u0000${p}`))) wrappers.add(fn.name);
  if (wrappers.size > 0) for (const c of facts.calls) if (wrappers.has(c.callee) && c.argLabels.length > 0) c.onChannel = true;
}

// `function inject(file, code) { fs.writeFileSync(file, …) }` writes wherever its callers point it.
function addWritesThroughWriters(ctx: FileContext, syntax: FileSyntax, facts: CodeFacts): void {
  const { scopes, r, labels } = ctx;
  const writers = new Map<string, { callee: string; param: number }>();
  syntax.callSites.forEach(({ call, chain: at }, i) => {
    const fact = facts.calls[i]!;
    if (!FILE_PATH_CALLEE.test(fact.callee)) return;
    const fn = syntax.functions.get(at[0] ?? 0);
    const first = nodes(call.arguments)[0];
    if (fn === undefined || first?.type !== 'Identifier') return;
    const k = fn.params.indexOf(first.name as string);
    if (k >= 0 && !writers.has(fn.name)) writers.set(fn.name, { callee: fact.callee, param: k });
  });
  const viaWriters: CallFact[] = [];
  if (writers.size > 0) {
    syntax.callSites.forEach(({ call, chain: at }, i) => {
      const fact = facts.calls[i]!;
      const w = writers.get(fact.callee);
      const arg = w === undefined ? undefined : nodes(call.arguments)[w.param];
      if (w === undefined || arg === undefined) return;
      scopes.chain = at;
      viaWriters.push({ ...fact, callee: w.callee, args: [r.fold(arg) ?? null], argLabels: [...labels.of(arg)], argStrings: argStrings(r, [arg]), ...withPath(dirPath(r, ctx.boundTo, arg)) });
    });
  }
  facts.calls.push(...viaWriters);
}
