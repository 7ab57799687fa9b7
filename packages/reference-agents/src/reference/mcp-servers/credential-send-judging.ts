import { addressHost, type CredentialSend } from './credential-send.js';

/**
 * What the two readers of credential sends (credential-sends.ts for JavaScript/TypeScript,
 * python-credential-sends.ts for Python) judge alike, over either syntax tree (`N`): the readings of
 * the code at a request (as written, and with its function's parameters bound at each call site, two
 * calls up), the budgets, the walk that tells a hidden address, the folds both languages share, and
 * the judging of one request into the CredentialSends it makes in each reading.
 */

/** What a parameter stands for in a reading: an expression (read in its own reading) or the variables another module hands it. */
export type Bound<N> = { node: N; ctx: Ctx<N> } | { envs: readonly string[] };
export interface Ctx<N> {
  bind: ReadonlyMap<string, Bound<N>>;
}
/** An expression and the reading it is read in. */
export interface Held<N> {
  node: N;
  ctx: Ctx<N>;
}
/** The code as written: no parameter bound. */
export const ROOT: Ctx<never> = { bind: new Map() };

// Bounds: the requests of a file judged, the readings of each, the nodes one question (the variables of an
// expression, whether an address is hidden) may visit, and the steps of all the questions about one file.
const MAX_SINKS = 80;
const MAX_CONTEXTS = 12;
const BUDGET = 4000;
const FILE_BUDGET = 400_000;

/** All the questions about one file together: past FILE_BUDGET steps the remaining requests are left unread. */
export class FileWork {
  private steps = 0;
  /** Counts one step: true once past the budget. */
  step(): boolean {
    return ++this.steps > FILE_BUDGET;
  }
  get spent(): boolean {
    return this.steps > FILE_BUDGET;
  }
}

/** A request of the file, with where its address, headers, query and body are. */
export interface Sink<N> {
  call: N;
  /** Address expressions, joined in order (a client's base, then the path). */
  address: N[];
  headers: N[];
  query: N[];
  /** Every other argument and what is written to the request it opened. */
  body: N[];
}

/** What the entry points ask of a reader. */
export interface SendReader<N> {
  sinks: Sink<N>[];
  judge: (sink: Sink<N>) => CredentialSend[];
  envsOf: (node: N | null | undefined, ctx: Ctx<N>) => Set<string>;
  contextsAt: (node: N) => Ctx<N>[];
  callSites: ReadonlyMap<string, N[]>;
}

/** Adds `value` under `key`, at most eight a key. */
export function pushCapped<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list === undefined) map.set(key, [value]);
  else if (list.length < 8) list.push(value);
}

/** The judged sends of the first MAX_SINKS requests. */
export function readerSends<N>(reader: SendReader<N>): CredentialSend[] {
  const out: CredentialSend[] = [];
  for (const sink of reader.sinks.slice(0, MAX_SINKS)) out.push(...reader.judge(sink));
  return out;
}

/**
 * For each call of one of `callees` (local names of another module's functions), the secret variables each
 * argument carries, by the argument's position. `argumentsOf` gives a call's arguments by position, null for
 * one not to read (a keyword argument); none for a call not to read.
 */
export function credentialArguments<N>(reader: SendReader<N>, callees: ReadonlySet<string>, argumentsOf: (call: N) => ReadonlyArray<N | null>): Map<string, Map<number, string[]>> {
  const out = new Map<string, Map<number, string[]>>();
  for (const [name, calls] of reader.callSites) {
    if (!callees.has(name)) continue;
    for (const call of calls.slice(0, 8)) {
      argumentsOf(call).forEach((arg, i) => {
        if (arg === null) return;
        const envs = new Set<string>();
        for (const ctx of reader.contextsAt(call)) for (const e of reader.envsOf(arg, ctx)) envs.add(e);
        if (envs.size === 0) return;
        const byIndex = out.get(name) ?? new Map<number, string[]>();
        byIndex.set(i, [...new Set([...(byIndex.get(i) ?? []), ...envs])]);
        out.set(name, byIndex);
      });
    }
  }
  return out;
}

/** The file's functions and their calls, as the readings need them. */
export interface CallGraph<N> {
  /** Variables another module hands the parameters of this file's functions, by function name and position. */
  seeds: ReadonlyMap<string, ReadonlyMap<number, readonly string[]>>;
  callSites: ReadonlyMap<string, N[]>;
  /** The function a node is in, or null at the top level. */
  enclosing: (node: N) => N | null;
  nameOf: (fn: N) => string | null;
  /** A function's parameter names by position (null for one that is not a plain name). */
  params: (fn: N) => ReadonlyArray<string | null>;
  /** The call is written inside the function (a recursive call). */
  inside: (call: N, fn: N) => boolean;
  /** The reading of a function's body with its parameters bound to a call's arguments. */
  bindCall: (fn: N, call: N, outer: Ctx<N>) => Ctx<N>;
}

/** The readings of the code at a node: as written (or seeded), and with the parameters of its function bound at each call site (two calls up). */
export function readingsAt<N>(graph: CallGraph<N>): (node: N) => Ctx<N>[] {
  const seeded = (fn: N | null): Ctx<N> => {
    const name = fn === null ? null : graph.nameOf(fn);
    const seed = name === null ? undefined : graph.seeds.get(name);
    if (seed === undefined || fn === null) return ROOT;
    const bind = new Map<string, Bound<N>>();
    graph.params(fn).forEach((p, i) => {
      const envs = seed.get(i);
      if (envs !== undefined && p !== null) bind.set(p, { envs });
    });
    return { bind };
  };
  const visit = (fn: N | null, depth: number): Ctx<N>[] => {
    const here: Ctx<N>[] = [seeded(fn)];
    if (fn === null || depth >= 2) return here;
    const name = graph.nameOf(fn);
    for (const call of (name === null ? [] : (graph.callSites.get(name) ?? [])).slice(0, 6)) {
      if (graph.inside(call, fn)) continue;
      for (const outer of visit(graph.enclosing(call), depth + 1).slice(0, 4)) {
        if (here.length >= MAX_CONTEXTS) break;
        here.push(graph.bindCall(fn, call, outer));
      }
    }
    return here;
  };
  return (node) => visit(graph.enclosing(node), 0).slice(0, MAX_CONTEXTS);
}

/**
 * The guard of one walk over expressions in readings: false once its own budget, the file's or the depth
 * runs out, or when it has already seen the node (by `span`) in that reading.
 */
export function walkGuard<N>(work: FileWork, span: (node: N) => string): (node: N, ctx: Ctx<N>, depth: number) => boolean {
  let budget = BUDGET;
  const seen = new Set<string>();
  const ids = new Map<Ctx<N>, number>();
  return (node, ctx, depth) => {
    if (budget-- <= 0 || work.step() || depth > 14) return false;
    let id = ids.get(ctx);
    if (id === undefined) ids.set(ctx, (id = ids.size));
    const key = `${span(node)}:${id}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  };
}

/** What a name stands for in a reading: its binding, else its only assignment; null when bound to variables or assigned other than once. */
export function heldByName<N>(name: string, ctx: Ctx<N>, decls: ReadonlyMap<string, N[]>): Held<N> | null {
  const b = ctx.bind.get(name);
  if (b !== undefined) return 'node' in b ? b : null;
  const inits = decls.get(name);
  return inits !== undefined && inits.length === 1 ? { node: inits[0]!, ctx } : null;
}

/** What a field read stands for: its value in an object literal, else the one value assigned to it (read as written). */
export function heldByField<N>(field: Held<N> | null, assigned: readonly N[] | undefined): Held<N> | null {
  if (field !== null) return field;
  return assigned !== undefined && assigned.length === 1 ? { node: assigned[0]!, ctx: ROOT } : null;
}

/** The value written for a key in the object literal `obj` stands for, read in that object's reading. */
export function fieldIn<N>(obj: Held<N> | null, valueOf: (literal: N) => N | null): Held<N> | null {
  const field = obj === null ? null : valueOf(obj.node);
  return field === null || obj === null ? null : { node: field, ctx: obj.ctx };
}

/** A name bound in the reading: adds the variables it is handed, or walks the expression it is bound to; false when it is not bound. */
export function followBound<N>(bound: Bound<N> | undefined, add: (env: string) => void, visit: (node: N, ctx: Ctx<N>, depth: number) => void, depth: number): boolean {
  if (bound === undefined) return false;
  if ('envs' in bound) for (const e of bound.envs) add(e);
  else visit(bound.node, bound.ctx, depth + 1);
  return true;
}

/** Walks a field read's value: in its object literal, else every value assigned to it; false when neither is known. */
export function visitField<N>(field: Held<N> | null, assigned: readonly N[] | undefined, visit: (node: N, ctx: Ctx<N>, depth: number) => void, depth: number): boolean {
  if (field !== null) {
    visit(field.node, field.ctx, depth + 1);
    return true;
  }
  if (assigned === undefined) return false;
  for (const init of assigned) visit(init, ROOT, depth + 1);
  return true;
}

/** The constant text of an expression in a reading, or null (`loose`: unknown parts read `*`). */
export type Fold<N> = (node: N | null | undefined, ctx: Ctx<N>, loose: boolean, depth?: number) => string | null;

/**
 * A fold of expressions in readings: a miss past a depth of 16 or the file's budget; an expression's own
 * constant value (`exact`) when the reading binds nothing or it is a literal; else what `foldNode` reads,
 * given the miss (`*` when `loose`, else null). `open` unwraps what does not change a value.
 */
export function readingFold<N>(
  code: { work: FileWork; open?: (node: N | null | undefined) => N | null; literal: (node: N) => boolean; exact: (node: N) => string | null },
  foldNode: (node: N, ctx: Ctx<N>, loose: boolean, depth: number, miss: string | null) => string | null,
): Fold<N> {
  return (node, ctx, loose, depth = 0) => {
    const miss = loose ? '*' : null;
    const n = code.open === undefined ? node : code.open(node);
    if (!n || depth > 16 || code.work.step()) return miss;
    if (ctx.bind.size === 0 || code.literal(n)) {
      const v = code.exact(n);
      if (v !== null) return v;
    }
    return foldNode(n, ctx, loose, depth, miss);
  };
}

/** `a + b`: both sides folded, else null. */
export function foldSum<N>(fold: Fold<N>, left: N | null | undefined, right: N | null | undefined, ctx: Ctx<N>, loose: boolean, depth: number): string | null {
  const l = fold(left, ctx, loose, depth + 1);
  const r = l === null ? null : fold(right, ctx, loose, depth + 1);
  return l === null || r === null ? null : l + r;
}

/** Items joined with `sep`, or a miss when one does not fold. */
export function foldJoin<N>(fold: Fold<N>, items: readonly N[], sep: string, ctx: Ctx<N>, loose: boolean, depth: number): string | null {
  const parts = items.map((i) => fold(i, ctx, loose, depth + 1));
  return parts.some((p) => p === null) ? (loose ? '*' : null) : parts.join(sep);
}

/**
 * A name: its binding in the reading, else a constant `known` to the file, else the first of its
 * assignments that folds exactly, else its only one read loosely.
 */
export function foldName<N>(fold: Fold<N>, name: string, ctx: Ctx<N>, loose: boolean, depth: number, decls: ReadonlyMap<string, N[]>, known: (name: string) => string | undefined = () => undefined): string | null {
  const miss = loose ? '*' : null;
  const b = ctx.bind.get(name);
  if (b !== undefined) return 'node' in b ? fold(b.node, b.ctx, loose, depth + 1) : miss;
  const constant = known(name);
  if (constant !== undefined) return constant;
  const inits = decls.get(name) ?? [];
  for (const init of inits.slice(0, 3)) {
    const v = fold(init, ctx, false, depth + 1);
    if (v !== null) return v;
  }
  return inits.length === 1 ? fold(inits[0], ctx, loose, depth + 1) : miss;
}

/** What a call of the file's own function returns (two definitions, `most` returns each), each read with the function's parameters bound by `bind`. */
export function* returnsRead<N>(fns: readonly N[] | undefined, returnsOf: (fn: N) => N[], bind: (fn: N) => Ctx<N>, most = Infinity): Generator<Held<N>> {
  for (const fn of (fns ?? []).slice(0, 2)) for (const node of returnsOf(fn).slice(0, most)) yield { node, ctx: bind(fn) };
}

/** A call of the file's own functions: the first of the returns read (`returnsRead`) that folds to something known. */
export function foldReturned<N>(fold: Fold<N>, returned: Iterable<Held<N>>, loose: boolean, depth: number): string | null {
  for (const r of returned) {
    const v = fold(r.node, r.ctx, loose, depth + 1);
    if (v !== null && v !== '*') return v;
  }
  return null;
}

/** What the walk for a hidden address asks of one language's syntax. */
export interface AddressCode<N> {
  work: FileWork;
  /** What a node is known by: the walk reads each once. */
  seenAs: (node: N) => unknown;
  /** Called on each node the walk enters, before it is judged. */
  enter?: (node: N) => void;
  /** A decoding step: XOR, base64/hex, character codes, a reversed string. */
  decodes: (node: N) => boolean;
  /** Reads from outside the code: the environment, the network, a file, the command line. */
  readsOutside: (node: N) => boolean;
  /** The bodies of the file's functions a call runs, each read with its parameters bound to the call's arguments. */
  calledBodies: (node: N, ctx: Ctx<N>) => Held<N>[];
  /** The name a node reads, or null when it is not a name. */
  nameRead: (node: N) => string | null;
  /** A name that holds what comes from outside (`const { TOKEN } = process.env`). */
  outsideName?: (name: string) => boolean;
  decls: ReadonlyMap<string, N[]>;
  /** A name that is a parameter of a function the walk did not enter with it bound. */
  unboundParameter: (name: string) => boolean;
  /** The parts of a node that are values (not property names). */
  valueParts: (node: N) => N[];
}

/**
 * An address computed from the code's own constants through a decoding step (a decoder the fold could not
 * finish: XOR with a key, a custom alphabet): nothing outside the code (the environment, a parameter, a
 * response, a file) goes into it.
 */
export function decodedFromConstants<N>(node: N, ctx: Ctx<N>, code: AddressCode<N>): boolean {
  let decoded = false;
  let outside = false;
  let budget = BUDGET;
  const seen = new Set<unknown>();
  const visit = (n: N, c: Ctx<N>, depth: number): void => {
    if (outside || budget-- <= 0 || code.work.step() || depth > 14) return;
    const key = code.seenAs(n);
    if (seen.has(key)) return;
    seen.add(key);
    code.enter?.(n);
    if (code.decodes(n)) decoded = true;
    if (code.readsOutside(n)) {
      outside = true;
      return;
    }
    for (const body of code.calledBodies(n, c)) visit(body.node, body.ctx, depth + 1);
    const name = code.nameRead(n);
    if (name !== null) {
      const b = c.bind.get(name);
      if (b !== undefined) {
        if ('node' in b) visit(b.node, b.ctx, depth + 1);
        else outside = true;
        return;
      }
      if (code.outsideName?.(name) === true) {
        outside = true;
        return;
      }
      const inits = code.decls.get(name);
      if (inits !== undefined) for (const init of inits) visit(init, c, depth + 1);
      else if (code.unboundParameter(name)) outside = true;
      return;
    }
    for (const part of code.valueParts(n)) visit(part, c, depth + 1);
  };
  visit(node, ctx, 0);
  return decoded && !outside;
}

/** The host an address folds to (unknown parts read `*`). */
export function foldedHost<N>(address: readonly N[], fold: (part: N) => string | null): string | null {
  return addressHost(address.map((a) => fold(a) ?? '*').join(''));
}

/** An address with no host to read that the code hides on purpose. */
export function hiddenSend<N>(host: string | null, address: readonly N[], hidden: (part: N) => boolean): boolean {
  return host === null && address.length > 0 && address.some(hidden);
}

type Regions = Array<[CredentialSend['where'], string[]]>;

/** The secret variables the headers, the address and query, and the body carry, in that order. */
export function carriedRegions<N>(envsOf: (node: N) => Set<string>, headers: readonly N[], url: readonly N[], body: readonly N[]): Regions {
  const carried = (nodes: readonly N[]) => {
    const s = new Set<string>();
    for (const n of nodes) for (const e of envsOf(n)) s.add(e);
    return [...s];
  };
  return [['header', carried(headers)], ['url', carried(url)], ['body', carried(body)]];
}

/** One reading of a request: where it goes, whether its address is hidden, and what each part carries. */
export interface SendReading {
  host: string | null;
  hidden: boolean;
  regions: Regions;
}

/**
 * The sends one request makes across its readings (until the file's budget is spent): one per part that
 * carries a secret, and, as written, one that carries none when no part does; readings that say the same are one.
 */
export function judgeReadings<N>(line: number, contexts: readonly Ctx<N>[], work: FileWork, read: (ctx: Ctx<N>) => SendReading): CredentialSend[] {
  const out: CredentialSend[] = [];
  for (const ctx of contexts) {
    if (work.spent) break;
    const { host, hidden, regions } = read(ctx);
    for (const [where, envs] of regions) if (envs.length > 0) out.push({ envs, where, host, hidden, line });
    if (ctx === ROOT && regions.every(([, envs]) => envs.length === 0)) out.push({ envs: [], where: 'body', host, hidden, line });
  }
  const seen = new Set<string>();
  return out.filter((s) => {
    const key = `${s.where}|${s.host}|${s.hidden}|${s.envs.join(',')}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
