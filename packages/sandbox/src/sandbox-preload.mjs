// @ts-check
// Loaded with `--import` into every sandboxed agent before the agent's own code (docs/agents.md,
// "The sandbox"). It is the second layer, not the boundary: code that reaches the originals another
// way bypasses it, which is why the OS layers and the permission model stand in front of it. What it
// adds is a clear report: an attempt to use the network, start a process or touch a file outside the
// allowed directories ends the run at once with `forbidden: <what>` on fd 3, even when the agent
// would have caught the error. Plain JavaScript with only built-in imports: it runs under the
// permission model, where reading anything beyond this file would be refused.
import { createRequire, syncBuiltinESMExports } from 'node:module';
import process from 'node:process';
import { URL, fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);
/** @type {typeof import('node:fs')} */
const fs = require('node:fs');
// Captured before the agent runs: it can replace Function.prototype.call/apply, Reflect.apply and
// Promise.prototype.then, and everything below must neither leak an original through them nor
// let them swallow a refusal. Bound functions and these copies never look a method up again.
const ReflectApply = Reflect.apply;
const PromiseThen = Promise.prototype.then;
const writeSync = fs.writeSync;
const pid = process.pid;
const rawKill = /** @type {{ _kill?: (target: number, signal: number) => number }} */ (/** @type {unknown} */ (process))._kill;
const killRaw = typeof rawKill === 'function' ? Function.prototype.call.bind(rawKill) : null;
const killSelf = () => (killRaw !== null ? killRaw(process, pid, 9) : process.kill(pid, 'SIGKILL'));
const reallyExit = /** @type {{ reallyExit?: (code: number) => never }} */ (/** @type {unknown} */ (process)).reallyExit;
const exitRaw = typeof reallyExit === 'function' ? Function.prototype.call.bind(reallyExit) : null;
const resourceUsage = process.resourceUsage.bind(process);
// The runner (run-agent.ts puts its pid in this module's URL) execs prlimit, unshare and setpriv
// into the agent, so the agent's parent is the runner. `setpriv --pdeathsig` has the kernel kill the
// agent when the runner dies, but only from the moment setpriv sets it: a runner killed before that
// (SIGKILL right after the spawn, seen on a loaded machine) left the agent reparented and idling with
// no wall clock over it. By now the signal is set, so a parent other than the runner means the runner
// is gone: end here, before the agent's code.
const RUNNER_PID = Number(new URL(import.meta.url).searchParams.get('runner'));
if (Number.isSafeInteger(RUNNER_PID) && RUNNER_PID > 0 && process.ppid !== RUNNER_PID) killSelf();
/** The runner's report channel (stdio index 3). */
const REPORT_FD = 3;
/** This file: the one path outside bundle, artifact and scratch the agent's process may read. */
const SELF = fileURLToPath(import.meta.url);
/** The exit code of a forbidden attempt that could not be reported (the agent closed or replaced fd 3): the runner reads it as `forbidden: runtime`. */
const UNREPORTED_EXIT = 86;
const fstatSync = fs.fstatSync;
/** @returns {string | null} which open file fd 3 is, or null when it is closed */
function reportChannel() {
  try {
    const stats = fstatSync(REPORT_FD);
    return `${stats.dev}:${stats.ino}`;
  } catch {
    return null;
  }
}
// The runner's pipe as it is now: an agent that closes fd 3 and opens a file of its own there must
// not receive the report meant for the runner (and so hide the refusal).
const REPORT_CHANNEL = reportChannel();

/**
 * Writes one line for the runner on fd 3, if fd 3 is still its pipe. The leading newline ends
 * whatever partial line the agent wrote there first, so the report is a line of its own.
 * @param {unknown} message
 * @returns {boolean} whether it was written (not when the agent closed or replaced fd 3, or the runner stopped reading)
 */
function report(message) {
  if (REPORT_CHANNEL === null || reportChannel() !== REPORT_CHANNEL) return false;
  try {
    writeSync(REPORT_FD, `\n${JSON.stringify(message)}\n`);
    return true;
  } catch {
    return false;
  }
}

/**
 * @param {string} kind
 * @param {string} detail
 * @returns {never}
 */
function forbidden(kind, detail) {
  const reported = report({ forbidden: kind, detail });
  if (!reported && exitRaw !== null) exitRaw(process, UNREPORTED_EXIT);
  killSelf();
  throw new Error(`forbidden: ${kind} (${detail})`);
}

/**
 * A stand-in with the original's name that `new` can call too (`new net.Socket()`).
 * @param {string} name
 * @param {string} kind
 * @param {string} detail
 */
function blocker(name, kind, detail) {
  return {
    [name]: function () {
      return forbidden(kind, detail);
    },
  }[name];
}

/**
 * Replaces `target[key]` with a blocker. A property that cannot be redefined stays; the
 * permission model and the OS layers still apply to it.
 * @param {object} target
 * @param {string} key
 * @param {string} kind
 * @param {string} detail
 * @param {boolean} [enumerable]
 */
function block(target, key, kind, detail, enumerable = false) {
  try {
    Object.defineProperty(target, key, { value: blocker(key, kind, detail), configurable: true, writable: true, enumerable });
  } catch {
    // Not configurable: the permission model and the OS layers still apply to it.
  }
}

/** Pure helpers that touch nothing outside the process stay usable. */
const HARMLESS = new Set(['net.isIP', 'net.isIPv4', 'net.isIPv6', 'http.validateHeaderName', 'http.validateHeaderValue', 'tls.checkServerIdentity']);

/** @type {Array<[string, string]>} module and what using it is */
const BLOCKED_MODULES = [
  ['net', 'network'],
  ['tls', 'network'],
  ['http', 'network'],
  ['https', 'network'],
  ['http2', 'network'],
  ['dgram', 'network'],
  ['dns', 'network'],
  ['dns/promises', 'network'],
  ['inspector', 'network'],
  ['child_process', 'child_process'],
  ['cluster', 'child_process'],
];

// Node makes process.stdin/stdout/stderr lazily, as net.Socket for a pipe: made now, they work;
// made after the stand-ins below, the agent could not even print its result.
void process.stdin;
void process.stdout;
void process.stderr;
// Made as a net.Socket over a pipe, stdin is now non-blocking (libuv sets O_NONBLOCK on fd 0): an
// agent reading its input with `fs.readFileSync(0)` (the documented way) before the runner's write
// reached the pipe got EAGAIN and ended `crashed: exit 1`, which a loaded machine made happen. Back
// in blocking mode, that read waits for the input; reading process.stdin as a stream still works.
/** @type {{ _handle?: { setBlocking?: (blocking: boolean) => number } }} */ (/** @type {unknown} */ (process.stdin))._handle?.setBlocking?.(true);

{
  // The originals stay reachable through the stdio streams (`process.stdout.constructor` is
  // net.Socket): their ways out are closed on the classes themselves.
  const net = require('node:net');
  for (const [target, key, detail] of /** @type {const} */ ([
    [net.Socket.prototype, 'connect', 'net.Socket.connect'],
    [net.Server.prototype, 'listen', 'net.Server.listen'],
  ])) {
    block(target, key, 'network', detail);
  }
}

for (const [name, kind] of BLOCKED_MODULES) {
  /** @type {Record<string, unknown>} */
  let exports;
  try {
    exports = require(`node:${name}`);
  } catch {
    continue;
  }
  for (const key of Object.keys(exports)) {
    const descriptor = Object.getOwnPropertyDescriptor(exports, key);
    if (!descriptor || !('value' in descriptor) || typeof descriptor.value !== 'function') continue;
    if (HARMLESS.has(`${name}.${key}`)) continue;
    const detail = `${name}.${key}`;
    try {
      Object.defineProperty(exports, key, { ...descriptor, value: blocker(key, kind, detail) });
    } catch {
      // A non-configurable export stays; the permission model and the OS layers still apply.
    }
  }
}

{
  /** @type {Record<string, unknown>} */
  const workers = require('node:worker_threads');
  block(workers, 'Worker', 'worker', 'worker_threads.Worker', true);
}

{
  // The stdio streams' handles are libuv Pipes, whose class reaches filesystem Unix sockets
  // (`process.stdout._handle.constructor`): a database's socket is not behind the network
  // namespace, and Node's permission model has no say over sockets. Streams made above keep
  // reading and writing; nothing can connect, bind, listen or adopt an fd through the class.
  for (const stream of [process.stdin, process.stdout, process.stderr]) {
    const handle = /** @type {{ _handle?: { constructor?: { prototype?: Record<string, unknown>, name?: string } } }} */ (/** @type {unknown} */ (stream))._handle;
    const proto = handle?.constructor?.prototype;
    if (!proto) continue;
    for (const key of ['connect', 'connect6', 'bind', 'bind6', 'listen', 'open', 'fchmod']) {
      if (typeof proto[key] !== 'function') continue;
      block(proto, key, 'network', `${handle?.constructor?.name ?? 'handle'}.${key}`);
    }
  }
}

{
  // Other processes are not the agent's business: a signal could stop or kill the validator
  // running it, and `_debugProcess` would open an inspector port inside it.
  // process.kill sends through process._kill, which is on `process` too: the check sits there.
  if (killRaw !== null) {
    Object.defineProperty(process, '_kill', {
      value: function ownProcessOnly(/** @type {number} */ target, /** @type {number} */ signal) {
        if (target !== pid) return forbidden('process', `process.kill(${String(target)})`);
        return killRaw(process, target, signal);
      },
      // Fixed: the preload's own SIGKILL of a forbidden run goes through it.
      configurable: false,
      writable: false,
      enumerable: false,
    });
  }
  /** @type {Record<string, unknown>} */
  const os = require('node:os');
  const setPriority = Function.prototype.call.bind(/** @type {(a?: number, b?: number) => void} */ (os.setPriority), os);
  // `setPriority(priority)` and `setPriority(0 | own pid, priority)` are the agent's own business.
  Object.defineProperty(os, 'setPriority', {
    value: function setOwnPriority(/** @type {number} */ a, /** @type {number | undefined} */ b) {
      if (b !== undefined && a !== 0 && a !== pid) return forbidden('process', `os.setPriority(${String(a)})`);
      return b === undefined ? setPriority(a) : setPriority(a, b);
    },
    configurable: true,
    writable: true,
    enumerable: true,
  });
  for (const key of ['_debugProcess', '_debugEnd']) {
    block(process, key, 'process', `process.${key}`);
  }
  // Internal bindings: the permission model refuses them, but an agent could catch that and go on.
  for (const key of ['binding', '_linkedBinding']) {
    block(process, key, 'runtime', `process.${key}`);
  }
  block(process, 'dlopen', 'addon', 'process.dlopen', true);
  if (typeof (/** @type {{ loadEnvFile?: unknown }} */ (/** @type {unknown} */ (process))).loadEnvFile === 'function') {
    block(process, 'loadEnvFile', 'filesystem', 'process.loadEnvFile', true);
  }
  /** @type {Array<[string, string, string, string]>} module, export, kind, what */
  const refused = [
    ['wasi', 'WASI', 'wasi', 'wasi.WASI'],
    ['v8', 'setFlagsFromString', 'runtime', 'v8.setFlagsFromString'],
    // Tracing writes node_trace.*.log into the working directory (the artifact).
    ['trace_events', 'createTracing', 'filesystem', 'trace_events.createTracing'],
    // Writes Heap.*.heapsnapshot into the working directory; the permission model does not check it.
    ['v8', 'setHeapSnapshotNearHeapLimit', 'filesystem', 'v8.setHeapSnapshotNearHeapLimit'],
    // Loader hooks run in a worker thread.
    ['module', 'register', 'worker', 'module.register'],
    // An OpenSSL engine is a shared library.
    ['crypto', 'setEngine', 'addon', 'crypto.setEngine'],
  ];
  for (const [name, key, kind, detail] of refused) {
    block(require(`node:${name}`), key, kind, detail, true);
  }
}

for (const name of ['fetch', 'WebSocket', 'EventSource']) {
  block(globalThis, name, 'network', name);
}

/**
 * The permission model refuses with ERR_ACCESS_DENIED; seen here, the refusal ends the run rather
 * than leaving the agent to catch it and carry on.
 * @param {unknown} error
 */
function checkDenied(error) {
  if (!error || typeof error !== 'object' || /** @type {{ code?: unknown }} */ (error).code !== 'ERR_ACCESS_DENIED') return;
  const { permission, resource } = /** @type {{ permission?: unknown, resource?: unknown }} */ (error);
  // Node 20 leaves `permission` empty for some file calls (symlink, fchmod): those are files too.
  const kind = permission === 'FileSystemRead' || permission === 'FileSystemWrite' || permission === undefined || permission === '' ? 'filesystem' : permission === 'ChildProcess' ? 'child_process' : permission === 'WorkerThreads' ? 'worker' : permission === 'WASI' ? 'wasi' : 'runtime';
  const named = `${permission === undefined || permission === '' ? '' : String(permission)} ${String(resource ?? '')}`.trim();
  forbidden(kind, named === '' ? String(/** @type {{ message?: unknown }} */ (error).message ?? 'a refused call') : named);
}

/**
 * @param {Record<string, unknown>} target
 * @param {string[]} [keys]
 */
function watchFunctions(target, keys = Object.keys(target)) {
  for (const key of keys) {
    const descriptor = Object.getOwnPropertyDescriptor(target, key);
    const original = descriptor && 'value' in descriptor ? descriptor.value : undefined;
    // Lower-case names are functions; capitalised ones are classes (Stats, ReadStream, …).
    if (typeof original !== 'function' || !/^[a-z]/.test(key) || !descriptor) continue;
    const wrapped = {
      /** @param {unknown[]} args */
      [key](...args) {
        const last = args.length - 1;
        const callback = args[last];
        if (typeof callback === 'function') {
          args[last] = /** @param {unknown[]} results */ function (...results) {
            checkDenied(results[0]);
            return ReflectApply(callback, this, results);
          };
        }
        let value;
        try {
          value = ReflectApply(original, this, args);
        } catch (error) {
          checkDenied(error);
          throw error;
        }
        if (value instanceof Promise) {
          return ReflectApply(PromiseThen, value, [
            undefined,
            (/** @type {unknown} */ error) => {
              checkDenied(error);
              throw error;
            },
          ]);
        }
        return value;
      },
    }[key];
    // Properties such as realpath.native and the promisify.custom of exists stay reachable.
    for (const own of Reflect.ownKeys(original)) {
      if (own === 'length' || own === 'name' || own === 'prototype') continue;
      const property = Object.getOwnPropertyDescriptor(original, own);
      if (property) Object.defineProperty(wrapped, own, property);
    }
    try {
      Object.defineProperty(target, key, { ...descriptor, value: wrapped });
    } catch {
      // Not configurable: the permission model still refuses; only the report is lost.
    }
  }
}

{
  // A FileHandle's utimes, chmod and chown reach the file behind any descriptor, read-only ones
  // into the artifact included, and the permission model does not check them (fs.futimes and
  // friends it does). No agent needs them.
  const handle = await fs.promises.open(SELF, 'r');
  const proto = /** @type {Record<string, unknown>} */ (Object.getPrototypeOf(handle));
  await handle.close();
  for (const key of ['utimes', 'chmod', 'chown']) {
    if (typeof proto[key] !== 'function') continue;
    block(proto, key, 'filesystem', `FileHandle.${key}`);
  }
}

{
  // The raw handle behind fs.watch: its start() is checked by the permission model, which throws
  // a refusal the agent could catch, as fs's own functions would without watchFunctions.
  const watcher = fs.watch(SELF);
  const handle = /** @type {{ _handle?: object }} */ (/** @type {unknown} */ (watcher))._handle;
  const proto = handle ? /** @type {Record<string, unknown>} */ (Object.getPrototypeOf(handle)) : null;
  watcher.close();
  if (proto) watchFunctions(proto, ['start']);
}
watchFunctions(/** @type {Record<string, unknown>} */ (/** @type {unknown} */ (fs)));
watchFunctions(require('node:fs/promises'));

// `import { connect } from 'node:net'` reads the ESM view of a built-in, which is a copy.
syncBuiltinESMExports();

process.on('exit', () => {
  const usage = resourceUsage();
  report({ usage: { cpu_ms: Math.round((usage.userCPUTime + usage.systemCPUTime) / 1000), max_rss_bytes: usage.maxRSS * 1024 } });
});
