/**
 * The judge over capability profiles: what the modules an automatically run entry reaches can do,
 * together. A package is read as a module graph (relative requires and imports, Python relative
 * from-imports); from each entry that runs by itself — install scripts and the code they require,
 * setup.py, the modules a consumer's `require`/`import` loads (main, exports, a Python package's
 * `__init__.py`), a server's start — the judge follows what runs at load: each reached module's top
 * level, the functions of its own it calls there, and the functions of other modules it calls there.
 * A secret read and a network send on one such path are a theft whatever each step looks like; the
 * flow between them, where it is proven, makes it certain.
 */
import type { AgentFinding, Severity } from '@vigil/core';
import type { CodeFacts } from '../code/code-facts.js';
import { referenceFinding } from '../common/reference-finding.js';
import { CHAIN_DESTINATION, capabilityProfile, type Capability, type CapabilityProfile } from './capability-profile.js';
import { CLOUD_API_HOST, METADATA_SERVICE, TELEMETRY_OPT_OUT } from './code-findings.js';
import { ownHost, type PackageIdentity } from './package-identity.js';
import { TRUSTED_DOWNLOAD_HOSTS } from './shell-command.js';
import { sendsReached, type SendingModule } from './function-sends.js';

export const CAPABILITY_KEY_HANDOFF_TITLE = 'Hands private key material to a module that sends to a foreign host';
export const CAPABILITY_FLOW_TITLE = 'Secrets read in one module reach a network send in another on code that runs by itself';
export const CAPABILITY_COOCCURRENCE_TITLE = 'Code that runs by itself both reads secrets or user data and sends to a fixed outside host';
export const CAPABILITY_REMOTE_EXEC_TITLE = 'Code received from the network in one module is run by another on code that runs by itself';
export const CAPABILITY_PLANT_TITLE = 'Code that runs by itself writes where persistence or access is planted';

export interface CapabilityModule {
  rel: string;
  language: CodeFacts['language'];
  facts: CodeFacts;
  profile: CapabilityProfile;
  /** Source lines (1-based through `lines[n - 1]`). */
  lines: string[];
  /** Relative import specifier → the package file it resolves to. */
  imports: Map<string, string>;
  /** Modules this one re-exports (`export * from`, `export { a } from`, `from .x import *`): a barrel passes on what they read. */
  reexports?: ReadonlySet<string>;
}

type Resolve = (spec: string, from: string, language: CodeFacts['language']) => string | null;

/**
 * One module of the graph: its profile and the package files it imports — relative requires and
 * imports, re-exports (`export * from './x.js'`, `export { a } from './b'`, `from .x import *`) and
 * the submodules a Python `from . import a, b` names.
 */
/** `ownName`: the artifact's own name, so that its own folder under application data is not another program's. */
export function capabilityModule(rel: string, facts: CodeFacts, text: string, resolve: Resolve, ownName = ''): CapabilityModule {
  const isPy = facts.language === 'python';
  const imports = new Map<string, string>();
  const link = (spec: string): string | null => {
    // Relative specifiers, and for Python an absolute import of the package's own modules (`from mypkg._probe import probe`).
    const target = spec.startsWith('.') || isPy ? resolve(spec, rel, facts.language) : null;
    if (target === null || target === rel) return null;
    imports.set(spec, target);
    return target;
  };
  for (const i of facts.imports) link(i.module);
  const reexports = new Set<string>();
  for (const m of text.matchAll(isPy ? /^\s*from\s+(\.[\w.]*)\s+import\s+\*/gm : /\bexport\s+(?:\*(?:\s+as\s+[\w$]+)?|\{[^}]*\})\s*from\s*['"](\.[^'"]+)['"]/g)) {
    const target = link(m[1]!);
    if (target !== null) reexports.add(target);
  }
  // `from . import a, b` and `from pkg import a, b` name submodules when such files exist (`pkg/a.py`).
  if (isPy) for (const m of text.matchAll(/^[ \t]*from[ \t]+(\.+|\.*[A-Za-z_][\w.]*)[ \t]+import[ \t]+(?:\(([^)]*)\)|([\w \t,]+))/gm)) for (const name of (m[2] ?? m[3]!).split(/[\s,]+/).filter((n) => /^[A-Za-z_]\w*$/.test(n) && n !== 'as')) link(/^\.+$/.test(m[1]!) ? `${m[1]}${name}` : `${m[1]}.${name}`);
  return { rel, language: facts.language, facts, profile: capabilityProfile(facts, text, ownName), lines: text.split('\n'), imports, reexports };
}

export interface AutoRunEntry {
  rel: string;
  /** When the entry runs: `install` (lifecycle scripts, setup.py), `load` (a consumer's import), `start` (a server's start), `agent` (a script a skill tells the agent to run), `checkout` (a repository's code its build, tests, hooks or editor run), `readme` (a script a repository's README tells its reader to run). */
  when: 'install' | 'load' | 'start' | 'agent' | 'checkout' | 'readme';
}

export interface CapabilityContext {
  identity?: PackageIdentity;
  /** Hosts the package's own documentation names (README API base URLs): where its requests are expected to go. */
  documentedHosts: ReadonlySet<string>;
}

/** Calls that run the function they are given: timers, exit hooks, threads. */
const RUNS_CALLBACK = /^(setTimeout|setImmediate|setInterval|queueMicrotask|process\.nextTick|process\.on|process\.once|atexit\.register|threading\.Timer|threading\.Thread)$/;
/**
 * Tests, examples, benchmarks, documentation and vendored code: a load entry found by convention
 * there (`tests/__init__.py`) is not what a consumer loads, and third-party code reached there is
 * not the package's own. `scripts/` is not among them: install scripts and a skill's scripts live there.
 */
const SIDE = /(^|\/)(node_modules|tests?|__tests__|testing|spec|bench|benchmarks?|examples?|samples?|demos?|docs?|vendor(ed)?|third_party)\/|(^|\/)(test_[^/]*|[^/]*_test|conftest)\.py$|\.(test|spec)\.[cm]?[jt]s$/;
const SENSITIVE = new Set(['env', 'secret', 'keymaterial']);
const LOCAL = /^(localhost|127\.\d+\.\d+\.\d+|::1|\[::1\]|0\.0\.0\.0)$/i;
/** Documented opt-out of telemetry: a file that honours one is a telemetry module its users can switch off. */

/** A host nothing in the package vouches for: not its own, not a registry or code host, not a cloud's API, not this machine. */
function foreign(host: string, ctx: CapabilityContext): boolean {
  return !LOCAL.test(host) && !ownHost(host, ctx.identity) && !TRUSTED_DOWNLOAD_HOSTS.test(host) && !METADATA_SERVICE.test(host) && !CLOUD_API_HOST.test(host);
}

/** The module a call of an imported name reaches: the longest import specifier the callee starts with (a Python `from . import m` call `..m.f` reaches `.m`). */
function calledModule(mod: CapabilityModule, callee: string, resolve: (spec: string, from: string, language: CodeFacts['language']) => string | null): string | null {
  let best: string | null = null;
  let bestLen = -1;
  // Python's `from . import m` names its calls `..m.f` (the module `.`, then `m`): `.m.f`, where the package's own `.` is not linked (in its `__init__.py`).
  const alias = mod.language === 'python' && callee.startsWith('..') ? callee.slice(1) : null;
  for (const [spec, target] of mod.imports) {
    if (callee !== spec && !callee.startsWith(`${spec}.`) && !(alias !== null && spec !== '.' && !/^\.+$/.test(spec) && alias.startsWith(`${spec}.`))) continue;
    if (spec.length <= bestLen) continue;
    bestLen = spec.length;
    best = target;
    if (mod.language === 'python' && /^\.+$/.test(spec)) {
      const sub = /^\.+([A-Za-z_]\w*)\./.exec(callee.slice(spec.length - 1));
      const inner = sub === null ? null : resolve(`${spec}${sub[1]}`, mod.rel, 'python');
      if (inner !== null) best = inner;
    }
  }
  return best === mod.rel ? null : best;
}

/** Names a module binds from one relative import (CommonJS, ES modules, Python from-imports). */
function importedNames(mod: CapabilityModule, spec: string): string[] {
  const q = spec.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const text = mod.lines.join('\n');
  const patterns =
    mod.language === 'python'
      ? [new RegExp(`^[ \\t]*from[ \\t]+${q}[ \\t]+import[ \\t]+(?:\\(([^)]*)\\)|([\\w \\t,]+))`, 'gm'), new RegExp(`^\\s*import\\s+${q}\\s+as\\s+(\\w+)`, 'gm')]
      : [new RegExp(`(?:const|let|var)\\s+(\\{[^}]*\\}|[\\w$]+)\\s*=\\s*(?:await\\s+)?(?:require|import)\\(\\s*['"\`]${q}(?:\\.[cm]?[jt]s)?['"\`]\\s*\\)`, 'g'), new RegExp(`import\\s+([^;]*?)\\s+from\\s+['"]${q}(?:\\.[cm]?[jt]s)?['"]`, 'g')];
  const out: string[] = [];
  // `{ a as b }`, `{ a: b }`, `from .m import a as b`: the local name `b` is what the module's code uses.
  for (const re of patterns) for (const m of text.matchAll(re)) out.push(...(m[1] ?? m[2] ?? '').replace(/[{}*]/g, ' ').replace(/([\w$]+)\s+as\s+([\w$]+)/g, '$2').split(/[\s,]+/).map((n) => n.split(/\s*:\s*/).pop()!).filter((n) => /^[A-Za-z_$][\w$]*$/.test(n) && n !== 'as'));
  return out;
}

/**
 * What a reading module hands to a call on `line` of `mod`: a call of a module that reads secrets or
 * user data on the same line, a name bound from such a module, or a variable assigned from a call of
 * one (`const data = gather.collect(); upload.send(data)`). Null when the arguments carry none.
 */
/** The module reads secrets or user data, itself or through the modules it re-exports (a barrel `index.js`), three levels at most. */
function readsThrough(modules: ReadonlyMap<string, CapabilityModule>, rel: string, depth: number): boolean {
  const mod = modules.get(rel);
  if (mod === undefined || SIDE.test(rel)) return false;
  if (mod.profile.capabilities.some((k) => k.kind === 'secret-read' || k.kind === 'user-data')) return true;
  return depth < 3 && [...(mod.reexports ?? [])].some((r) => r !== rel && readsThrough(modules, r, depth + 1));
}

/** The last name of a callee (`./send.report` → `report`), escaped for a regular expression. */
function lastName(callee: string): string {
  return (callee.split('.').pop() ?? '').replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** What follows the call's own opening parenthesis on its line (the whole line after the first one when the name is not found). */
function argumentText(text: string, callee: string): string {
  const m = new RegExp(`\\b${lastName(callee)}\\s*\\(`).exec(text);
  return m === null ? text.replace(/^.*?\(/, '') : text.slice(m.index + m[0].length);
}

function readerValue(modules: ReadonlyMap<string, CapabilityModule>, mod: CapabilityModule, line: number, callee: string, exclude: string, resolve: Resolve, isSource: (target: string) => boolean = (t) => readsThrough(modules, t, 0), bindings = true): string | null {
  const readers = [...mod.imports].filter(([, target]) => target !== exclude && target !== mod.rel && !SIDE.test(target) && isSource(target));
  if (readers.length === 0) return null;
  const readerTargets = new Set(readers.map(([, target]) => target));
  // A call reaches a reading module by the module it resolves to (a Python `from . import collect` call `..collect.recent` reaches `.collect`).
  const callsReader = (o: { callee: string }) => /[\w$]$/.test(o.callee) && readerTargets.has(calledModule(mod, o.callee, resolve) ?? '');
  const args = argumentText(mod.lines[line - 1] ?? '', callee);
  // A call of a reading module inside the arguments (`send(gather())`), not merely elsewhere on the line.
  const direct = mod.facts.calls.find((o) => o.line === line && callsReader(o) && new RegExp(`\\b${lastName(o.callee)}\\s*\\(`).test(args));
  if (direct !== undefined) return `what ${direct.callee}() returns`;
  const word = (n: string) => new RegExp(`(?<![\\w.$])${n.replace(/\$/g, '\\$')}(?![\\w$])`);
  // A name bound from the module (a value it exports); not for fetched text, which only a call returns.
  if (bindings) for (const [spec, target] of readers) {
    const named = importedNames(mod, spec).find((n) => word(n).test(args));
    if (named !== undefined) return `${named} from ${target}`;
  }
  // A variable assigned from a call of a reading module (`const data = gather.collect()`, `_state = gather()`).
  const readerCalls = mod.facts.calls.filter(callsReader);
  for (const m of new Set([...args.matchAll(/[A-Za-z_$][\w$]*/g)].map((x) => x[0]))) {
    const name = m.replace(/\$/g, '\\$');
    const from = readerCalls.find((o) => new RegExp(`(?<![\\w.$])${name}\\s*=(?![=>])[^;]*\\b${lastName(o.callee)}\\s*\\(`).test(mod.lines[o.line - 1] ?? ''));
    if (from !== undefined) return `${m} (= ${from.callee}())`;
  }
  return null;
}
interface Active {
  cap: Capability;
  rel: string;
  /** How the capability is reached from the entry (for evidence). */
  via: string;
}

/**
 * Findings of the capability judge: proven cross-module flows of secrets into a network send (CRIT
 * to a fixed outside host, HIGH where the destination is not resolvable) and, where no flow is
 * proven, a secret or user-data read and a send to a fixed outside host on the same automatically
 * run path (HIGH). Tests, examples and vendored code, hosts the package's metadata or README names,
 * and telemetry with a documented opt-out do not count.
 */
export function capabilityFindings(modules: ReadonlyMap<string, CapabilityModule>, entries: readonly AutoRunEntry[], ctx: CapabilityContext, resolve: (spec: string, from: string, language: CodeFacts['language']) => string | null): AgentFinding[] {
  const out: AgentFinding[] = [];
  const reported = new Set<string>();
  const outside = (h: string) => foreign(h, ctx) && !ctx.documentedHosts.has(h);
  const follow = (m: SendingModule, callee: string) => {
    const mod = modules.get(m.rel);
    return mod === undefined ? null : calledModule(mod, callee, resolve);
  };
  for (const entry of entries) {
    // An entry named by an install script, a server's start or a skill runs wherever it lives; a load entry found by convention under tests does not.
    if (!modules.has(entry.rel) || (entry.when === 'load' && SIDE.test(entry.rel))) continue;
    // What runs when the entry runs: each reached module's top level, and whole modules whose functions are called there.
    const active: Active[] = [];
    const whole = new Set<string>();
    const topRun = new Set<string>();
    // A server's start module runs whole: its `main()` (the console script `pkg.server:main`) starts what
    // the server does, and its tool handlers run whenever the model calls them.
    const queue: [string, 'top' | 'whole', string][] = [[entry.rel, entry.when === 'start' ? 'whole' : 'top', entry.when === 'start' ? `${entry.rel} as the server runs` : `${entry.rel} at load`]];
    while (queue.length > 0) {
      const [rel, mode, via] = queue.shift()!;
      const mod = modules.get(rel);
      if (mod === undefined || (rel !== entry.rel && SIDE.test(rel)) || whole.has(rel) || (mode === 'top' && topRun.has(rel))) continue;
      // Code written in functions that still runs at load makes the whole module run: a function of the module's own
      // called there (`main()`, `install()`), a function expression invoked in place (`(async () => {…})()`, a UMD
      // wrapper), a callback a timer or exit hook registered there, setuptools command classes (run at install).
      const trigger = mode === 'top' ? mod.facts.calls.find((c) => c.topLevel && (mod.profile.localFunctions.has(c.callee) || c.callee === '?' || RUNS_CALLBACK.test(c.callee))) : undefined;
      const runsWhole = mode === 'whole' || trigger !== undefined || (mod.language === 'python' && mod.facts.commandOverrides.length > 0);
      const how = trigger === undefined ? (runsWhole && mode === 'top' ? `${rel} overrides a setuptools command` : via) : `${rel}:${trigger.line} runs ${trigger.callee === '?' ? 'a function expression' : `${trigger.callee}()`} at load`;
      for (const cap of mod.profile.capabilities) if ((cap.atLoad && !topRun.has(rel)) || (runsWhole && !cap.atLoad)) active.push({ cap, rel, via: cap.atLoad ? `${rel} at load` : how });
      topRun.add(rel);
      if (runsWhole) whole.add(rel);
      for (const target of mod.imports.values()) if (!topRun.has(target)) queue.push([target, 'top', `${target} at load`]);
      for (const c of mod.facts.calls) {
        if (!(c.topLevel || runsWhole)) continue;
        const target = calledModule(mod, c.callee, resolve);
        if (target !== null && !whole.has(target)) queue.push([target, 'whole', `${rel}:${c.line} calls ${c.callee.split('.').pop()}()`]);
      }
    }
    // A server's start module runs whole: its start, and its tool handlers whenever the model calls a tool.
    const when = { install: 'at install', start: 'as the server runs (its start or its tool handlers)', load: 'when the package loads', agent: 'when the agent runs it as the skill says', checkout: 'when the checkout is built, tested or opened', readme: 'when run as the project says (its README, or its start, dev or test script)' }[entry.when];

    // Proven flow (a): data carrying secrets, or what a reading module returns, handed on the path to a function of a module that sends.
    for (const rel of topRun) {
      const mod = modules.get(rel)!;
      for (const c of mod.facts.calls) {
        if (!(c.topLevel || whole.has(rel))) continue;
        const target = calledModule(mod, c.callee, resolve);
        const sender = target === null ? undefined : modules.get(target);
        if (sender === undefined || SIDE.test(sender.rel)) continue;
        if (!sender.profile.capabilities.some((k) => k.kind === 'network-send')) continue;
        // The sends the called function reaches, not every send of its module (function-sends.ts).
        const sends = sendsReached(modules, sender, c.callee, follow).filter((s) => !SIDE.test(s.rel));
        if (sends.length === 0) continue;
        const hosts = [...new Set(sends.flatMap((s) => [...(s.cap.hosts ?? []), ...modules.get(s.rel)!.profile.fileHosts]))];
        if (hosts.length > 0 && !hosts.some(outside)) continue;
        const labels = c.argLabels.filter((l) => SENSITIVE.has(l));
        const source = labels.length > 0 ? `${labels.join(', ')} data` : readerValue(modules, mod, c.line, c.callee, target!, resolve);
        if (source === null) continue;
        const severity: Severity = hosts.length > 0 ? 'CRIT' : 'HIGH';
        const sending = sends.some((s) => s.rel === sender.rel) ? sender.rel : sends[0]!.rel;
        push(severity, CAPABILITY_FLOW_TITLE, rel, c.line, `${c.callee}(…) carries ${source} ${when}; ${sending} sends to ${hosts.filter(outside).slice(0, 2).join(', ') || 'an address it computes'} (${entry.rel})`);
      }
    }
    // Key material handed to a module that sends, whenever the call runs (a constructor, a method): no library
    // passes its user's private key or seed to code that talks to a foreign host — it signs locally (the
    // @solana/web3.js 1.95.6/1.95.7 backdoor, December 2024: `addToQueue(secretKey)` in the Keypair
    // constructor, sent in request headers from a helper module).
    for (const rel of topRun) {
      const mod = modules.get(rel)!;
      for (const c of mod.facts.calls) {
        if (c.topLevel || whole.has(rel) || !c.argLabels.includes('keymaterial')) continue;
        const target = calledModule(mod, c.callee, resolve);
        const sender = target === null ? undefined : modules.get(target);
        if (sender === undefined || SIDE.test(sender.rel)) continue;
        if (!sender.profile.capabilities.some((k) => k.kind === 'network-send')) continue;
        const sends = sendsReached(modules, sender, c.callee, follow).filter((s) => !SIDE.test(s.rel));
        const hosts = [...new Set(sends.flatMap((s) => [...(s.cap.hosts ?? []), ...modules.get(s.rel)!.profile.fileHosts]))].filter(outside);
        if (sends.length === 0 || hosts.length === 0) continue;
        push('CRIT', CAPABILITY_KEY_HANDOFF_TITLE, rel, c.line, `${c.callee}(…) carries key material whenever it runs; ${sender.rel} sends to ${hosts.slice(0, 2).join(', ')} (${entry.rel})`);
      }
    }
    // Proven flow (b): a send on the path whose arguments name a value, or call a function, of a module that reads secrets.
    for (const a of active) {
      if (a.cap.kind !== 'network-send') continue;
      const mod = modules.get(a.rel)!;
      const line = mod.lines[a.cap.line - 1] ?? '';
      const hosts = [...new Set([...(a.cap.hosts ?? []), ...((a.cap.hosts ?? []).length === 0 ? mod.profile.fileHosts : [])])];
      if (hosts.length > 0 && !hosts.some(outside)) continue;
      for (const [spec, target] of mod.imports) {
        const reader = modules.get(target);
        if (reader === undefined || target === a.rel || !readsThrough(modules, target, 0)) continue;
        const args = argumentText(line, a.cap.detail);
        const named = importedNames(mod, spec).find((n) => new RegExp(`(?<![\\w.$])${n.replace(/\$/g, '\\$')}(?![\\w$])`).test(args));
        const called = mod.facts.calls.find((o) => o.line === a.cap.line && calledModule(mod, o.callee, resolve) === target && new RegExp(`\\b${lastName(o.callee)}\\s*\\(`).test(args));
        if (named === undefined && called === undefined) continue;
        const severity: Severity = hosts.length > 0 ? 'CRIT' : 'HIGH';
        const read = reader.profile.capabilities.find((k) => k.kind === 'secret-read' || k.kind === 'user-data');
        push(severity, CAPABILITY_FLOW_TITLE, a.rel, a.cap.line, `${a.cap.detail}(…) sends ${named ?? called!.callee} from ${target} (${read?.detail ?? 'which re-exports a module that reads secrets'}) ${when}, to ${hosts.filter(outside).slice(0, 2).join(', ') || 'an address it computes'} (${entry.rel})`);
        break;
      }
    }
    // Execution of what another module received from the network: `eval(await remote.fetchPlugin())`, `const src = await loader.get(); vm.runInThisContext(src)`.
    for (const a of active) {
      if (a.cap.kind !== 'exec') continue;
      const mod = modules.get(a.rel)!;
      const fetched = readerValue(modules, mod, a.cap.line, a.cap.detail.replace(/\(.*$/, ''), a.rel, resolve, (t) => fetches(t), false);
      if (fetched === null) continue;
      const sender = modules.get([...mod.imports.values()].find((t) => fetched.includes(t) || fetches(t)) ?? '');
      push('CRIT', CAPABILITY_REMOTE_EXEC_TITLE, a.rel, a.cap.line, `${a.cap.detail} runs ${fetched} ${when}${sender === undefined ? '' : `; ${sender.rel} receives it from ${[...new Set([...sender.profile.capabilities.flatMap((k) => k.hosts ?? []), ...sender.profile.fileHosts])].slice(0, 2).join(', ') || 'an address it computes'}`} (${entry.rel})`, 'remote_code_execution');
    }
    // Writes that plant persistence or access: SSH authorized keys (CRIT: a login for whoever holds the key), shell
    // startup files, cron, launch agents, autostart entries, another tool's settings or MCP configuration (HIGH).
    for (const a of active) {
      if (a.cap.kind !== 'write-outside' || /another package/.test(a.cap.detail)) continue;
      // SSH authorized keys grant a login; code written into another program runs with its trust and data.
      const access = /authorized_keys/.test(a.cap.detail) || a.cap.foreignProgram === true;
      push(access ? 'CRIT' : 'HIGH', CAPABILITY_PLANT_TITLE, a.rel, a.cap.line, `${when}: ${a.cap.detail} (${a.via}; ${entry.rel})`, 'persistence');
    }
    // Co-occurrence: a read and a send to a fixed outside host on the same path, no flow proven.
    if (out.some((f) => f.title === CAPABILITY_FLOW_TITLE && (f.evidence ?? '').endsWith(`(${entry.rel})`))) continue;
    const reads = active.filter((a) => a.cap.kind === 'secret-read' || a.cap.kind === 'user-data');
    if (reads.length === 0) continue;
    const sends = active.filter((a) => {
      if (a.cap.kind !== 'network-send') return false;
      const hosts = (a.cap.hosts ?? []).length > 0 ? a.cap.hosts! : modules.get(a.rel)!.profile.fileHosts;
      if (!hosts.some(outside)) return false;
      // A telemetry module with a documented opt-out that reads no credential store is what it says.
      const optOut = TELEMETRY_OPT_OUT.test(modules.get(a.rel)!.lines.join('\n'));
      return !(optOut && reads.every((r) => /environment|history|clipboard/.test(r.cap.detail)));
    });
    // A transaction sent by code that runs by itself, beside a read of keys: no library signs and sends
    // on its own at load or install, and what the transaction carries is public for good.
    const chainSend = sends.find((a) => a.cap.hosts?.includes(CHAIN_DESTINATION) === true);
    const secretRead = reads.find((a) => a.cap.kind === 'secret-read');
    const send = (secretRead !== undefined ? chainSend : undefined) ?? sends[0];
    if (send !== undefined) {
      const onChain = send === chainSend && secretRead !== undefined;
      const read = onChain ? secretRead : reads[0]!;
      const hosts = ((send.cap.hosts ?? []).length > 0 ? send.cap.hosts! : modules.get(send.rel)!.profile.fileHosts).filter(outside);
      push(onChain ? 'CRIT' : 'HIGH', CAPABILITY_COOCCURRENCE_TITLE, send.rel, send.cap.line, `${when}: ${read.rel}:${read.cap.line} reads ${read.cap.detail} (${read.via}); ${send.rel}:${send.cap.line} ${send.cap.detail}(…) to ${hosts.slice(0, 2).join(', ')} (${send.via})`);
    }
  }
  return out;

  /** The module, or a module it re-exports, makes network calls (where fetched code comes from). */
  function fetches(rel: string, depth = 0): boolean {
    const mod = modules.get(rel);
    if (mod === undefined || SIDE.test(rel)) return false;
    if (mod.profile.capabilities.some((k) => k.kind === 'network-send')) return true;
    return depth < 3 && [...(mod.reexports ?? [])].some((r) => r !== rel && fetches(r, depth + 1));
  }

  function push(severity: Severity, title: string, file: string, line: number, evidence: string, category = 'exfiltration'): void {
    const key = `${title}\u0000${file}\u0000${line}`;
    if (reported.has(key)) return;
    reported.add(key);
    out.push(referenceFinding({ category, severity, title, file, line, evidence }));
  }
}
