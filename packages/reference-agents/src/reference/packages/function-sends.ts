/**
 * The network sends a call into another module reaches (the capability judge's proven flow (a)): a
 * module's send is the function that sends, not the module. `helpers.as_json(response)` — a function
 * that only serializes its argument — sends nothing because another function of `helpers.py` opens an
 * HTTP session for another tool (awslabs/mcp aws-api-mcp-server, a false BLOCK of round s28).
 *
 * The called function reaches the sends inside its body, inside the functions of its module it names
 * (calls, thread targets, callbacks) and inside the functions of other modules it calls, three steps
 * deep; a class of the module it names (`cls=Boto3Encoder`, `return Client(key)`) reaches the sends of its
 * methods. Where the function cannot be read apart from its module, every send of the module counts, as
 * before: a call of the module itself, a name it defines twice or not as a function (a class called
 * directly, a re-export), a body too long to read, or a body that puts its data where another function
 * may pick it up (a queue, a buffer, module or object state — the `addToQueue(secretKey)` of the
 * @solana/web3.js backdoor, flushed by a timer elsewhere).
 */
import { braceBlockEnd, functionRanges, pythonBlockEnd, type FunctionRange } from '../code/function-ranges.js';
import type { CodeFacts } from '../code/code-facts.js';
import type { Capability, CapabilityProfile } from './capability-profile.js';

/** What the reader needs of a module of the graph (a `CapabilityModule`). */
export interface SendingModule {
  rel: string;
  language: CodeFacts['language'];
  facts: CodeFacts;
  profile: CapabilityProfile;
  lines: string[];
}

export interface ReachedSend {
  rel: string;
  cap: Capability;
}

/** Calls of other modules how the judge resolves them: the module file a callee of `mod` reaches, or null. */
export type FollowCall = (mod: SendingModule, callee: string) => string | null;

/** Bodies longer than this (a minified bundle on one line) are not read apart from their module. */
const MAX_BODY = 20_000;
/** Functions followed from one call at most. */
const MAX_FOLLOWED = 60;
/**
 * A body that stores data outside its own scope: a container method (`queue.push(k)`, `buf.append(d)`,
 * `q.put(x)`, a write), `global`/`nonlocal`, an assignment to an attribute or an item (`self.key = k`,
 * `STATE["k"] = v`, `this.q[i] += x`).
 */
const STORES = /\.(?:push|append|appendleft|extend|add|put|put_nowait|unshift|insert|update|setdefault|set|setItem|enqueue|write|writelines|emit)\s*\(|\b(?:global|nonlocal)\s+[A-Za-z_]|[\w$\])]\s*(?:\.[A-Za-z_$][\w$]*|\[[^\]\n]{0,200}\])\s*[-+*/%|&^]?=(?![=>])/;

/** Definition headers as `functionRanges` reads them (one a line), to tell a name defined twice. */
const PY_HEADER = /^\s*(?:async\s+)?def\s+([A-Za-z_]\w*)/;
const JS_HEADER = /\bfunction\s*\*?\s*([A-Za-z_$][\w$]*)\s*\(|\b(?:const|let|var)\s+([A-Za-z_$][\w$]*)\s*=\s*(?:async\s+)?(?:function\b|\([^)]*\)\s*=>|[A-Za-z_$][\w$]*\s*=>)|\b(?:module\.)?exports\.([A-Za-z_$][\w$]*)\s*=\s*(?:async\s+)?(?:function\b|\([^)]*\)\s*=>)|^\s*(?:async\s+)?(?!if\b|for\b|while\b|switch\b|catch\b|function\b)([A-Za-z_$][\w$]*)\s*\([^)]*\)\s*\{/;

interface ModuleIndex {
  functions: Map<string, FunctionRange>;
  /** Names a definition header gives more than once (two methods `send`): which one runs is not known. */
  twice: Set<string>;
  /** Classes of the module by their lines (Python: the indented block; JavaScript: the braces of the body). */
  classes: Map<string, { from: number; to: number }>;
}

const indexes = new WeakMap<SendingModule, ModuleIndex>();

function indexOf(mod: SendingModule): ModuleIndex {
  const cached = indexes.get(mod);
  if (cached !== undefined) return cached;
  const python = mod.language === 'python';
  const functions = functionRanges(mod.lines, python);
  const seen = new Set<string>();
  const twice = new Set<string>();
  for (const line of mod.lines) {
    const m = (python ? PY_HEADER : JS_HEADER).exec(line);
    const name = m === null ? undefined : (m[1] ?? m[2] ?? m[3] ?? m[4]);
    if (name !== undefined) (seen.has(name) ? twice : seen).add(name);
  }
  const index = { functions, twice, classes: classRanges(mod.lines, python) };
  indexes.set(mod, index);
  return index;
}

function allSends(mod: SendingModule): ReachedSend[] {
  return mod.profile.capabilities.filter((k) => k.kind === 'network-send').map((cap) => ({ rel: mod.rel, cap }));
}

/**
 * The sends a call of `callee` (resolved to `target`) reaches: those of the function it names and of
 * what that function calls; every send of `target` when the function cannot be read apart.
 */
export function sendsReached(modules: ReadonlyMap<string, SendingModule>, target: SendingModule, callee: string, follow: FollowCall): ReachedSend[] {
  const budget = { left: MAX_FOLLOWED };
  const name = callee.split('.').pop() ?? '';
  // A class called (`Uploader(key)`, `new Client(key)`) reaches what its methods send.
  const index = indexOf(target);
  const reached = index.classes.has(name) && !index.functions.has(name) ? classReach(modules, target, name, follow, 0, new Set(), budget) : reach(modules, target, name, follow, 0, new Set(), budget);
  return reached ?? allSends(target);
}

/** The sends function `name` of `mod` reaches, or null when it cannot be read apart from its module. */
function reach(modules: ReadonlyMap<string, SendingModule>, mod: SendingModule, name: string, follow: FollowCall, depth: number, seen: Set<string>, budget: { left: number }): ReachedSend[] | null {
  const index = indexOf(mod);
  const fn = /^[A-Za-z_$][\w$]*$/.test(name) && !index.twice.has(name) ? index.functions.get(name) : undefined;
  if (fn === undefined) return null;
  const key = `${mod.rel}\u0000${name}`;
  if (seen.has(key)) return [];
  seen.add(key);
  const body = mod.lines.slice(fn.from - 1, fn.to).join('\n');
  // Past the name in its header (`exports.toJson = (d) =>` is the definition, not a store).
  const rest = body.slice(body.indexOf(name) + name.length);
  if (body.length > MAX_BODY || STORES.test(rest)) return null;
  const out = allSends(mod).filter((s) => s.cap.line >= fn.from && s.cap.line <= fn.to);
  if (depth >= 3) return out;
  // Functions of the module the body names (calls, `Thread(target=_send)`, callbacks).
  const words = new Set(rest.match(/[A-Za-z_$][\w$]*/g) ?? []);
  for (const w of words) {
    if (w === name || !(index.functions.has(w) || index.classes.has(w))) continue;
    if (--budget.left < 0) return null;
    const inner = index.functions.has(w) && !index.classes.has(w) ? reach(modules, mod, w, follow, depth + 1, seen, budget) : classReach(modules, mod, w, follow, depth + 1, seen, budget);
    if (inner === null) return null;
    out.push(...inner);
  }
  // Functions of other modules the body calls.
  const across = otherModulesReach(modules, mod, fn, follow, depth, seen, budget);
  return across === null ? null : [...out, ...across];
}

/** The sends a class of `mod` reaches: those in its methods and in the functions of the module its body names. */
function classReach(modules: ReadonlyMap<string, SendingModule>, mod: SendingModule, name: string, follow: FollowCall, depth: number, seen: Set<string>, budget: { left: number }): ReachedSend[] | null {
  const range = indexOf(mod).classes.get(name);
  if (range === undefined) return null;
  const key = `${mod.rel}\u0000class ${name}`;
  if (seen.has(key)) return [];
  seen.add(key);
  const body = mod.lines.slice(range.from - 1, range.to).join('\n');
  if (body.length > MAX_BODY) return null;
  // A class keeps state in itself by design: its methods' sends count, not its stores.
  const out = allSends(mod).filter((s) => s.cap.line >= range.from && s.cap.line <= range.to);
  if (depth >= 3) return out;
  const functions = indexOf(mod).functions;
  for (const w of new Set(body.match(/[A-Za-z_$][\w$]*/g) ?? [])) {
    const f = functions.get(w);
    // Methods of this class are read above; functions of the module outside it are followed.
    if (w === name || f === undefined || (f.from >= range.from && f.to <= range.to)) continue;
    if (--budget.left < 0) return null;
    const inner = reach(modules, mod, w, follow, depth + 1, seen, budget);
    if (inner === null) return null;
    out.push(...inner);
  }
  const across = otherModulesReach(modules, mod, range, follow, depth, seen, budget);
  return across === null ? null : [...out, ...across];
}

/** The sends reached through the calls between `lines` of `mod` into functions of other modules (all of a module whose function cannot be read alone). */
function otherModulesReach(modules: ReadonlyMap<string, SendingModule>, mod: SendingModule, lines: { from: number; to: number }, follow: FollowCall, depth: number, seen: Set<string>, budget: { left: number }): ReachedSend[] | null {
  const out: ReachedSend[] = [];
  for (const c of mod.facts.calls) {
    if (c.line < lines.from || c.line > lines.to) continue;
    const rel = follow(mod, c.callee);
    const other = rel === null ? undefined : modules.get(rel);
    if (other === undefined || other === mod) continue;
    if (--budget.left < 0) return null;
    out.push(...(reach(modules, other, c.callee.split('.').pop() ?? '', follow, depth + 1, seen, budget) ?? allSends(other)));
  }
  return out;
}

/** Classes by their lines: Python to the end of the indented block, JavaScript to the brace closing the body (a rough count, 2000 lines at most). */
function classRanges(lines: readonly string[], python: boolean): Map<string, { from: number; to: number }> {
  const out = new Map<string, { from: number; to: number }>();
  lines.forEach((line, i) => {
    const m = (python ? /^(\s*)class\s+([A-Za-z_]\w*)/ : /^(\s*)(?:export\s+)?(?:default\s+)?class\s+([A-Za-z_$][\w$]*)/).exec(line);
    if (m === null) return;
    const end = python ? pythonBlockEnd(lines, i, m[1]!.length) : braceBlockEnd(lines, i, m.index, 2000, false);
    out.set(m[2]!, { from: i + 1, to: end + 1 });
  });
  return out;
}
