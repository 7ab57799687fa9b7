import type { Binding } from './bindings.js';
import type { CallFact, CodeFacts } from '../code-facts.js';
import { FILE_PATH_CALLEE, isNetworkCallee } from './callee-kinds.js';
import type { FileSyntax } from './collect-syntax.js';
import { dirPath, withPath } from './dir-path.js';
import { nodes } from './estree.js';
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
function markNetworkWrappers(ctx: FileContext, syntax: FileSyntax, facts: CodeFacts): void {
  const bindingsByScope = new Map<number, Binding[]>();
  for (const b of ctx.bindings) {
    if (b.kind !== 'value' || b.target.type !== 'Identifier' || b.init === undefined) continue;
    const list = bindingsByScope.get(b.chain[0] ?? 0) ?? [];
    list.push(b);
    bindingsByScope.set(b.chain[0] ?? 0, list);
  }
  const wrappers = new Set<string>();
  syntax.callSites.forEach(({ call, chain: at }, i) => {
    const fact = facts.calls[i]!;
    if (!isNetworkCallee(fact.callee) && !fact.onChannel) return;
    const fn = syntax.functions.get(at[0] ?? 0);
    if (fn === undefined || fn.params.length === 0) return;
    const used = identifiersIn(nodes(call.arguments));
    for (const b of bindingsByScope.get(at[0] ?? 0) ?? []) if (used.has(b.target.name as string)) for (const id of identifiersIn([b.init!])) used.add(id);
    if (fn.params.some((p) => used.has(p))) wrappers.add(fn.name);
  });
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
