import { spawn, type ChildProcessByStdio } from 'node:child_process';
import { closeSync, openSync } from 'node:fs';
import { mkdir, mkdtemp, realpath, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import type { Readable, Writable } from 'node:stream';
import { extname, join, relative, isAbsolute, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { AGENT_INPUT_FORMAT, AgentBundlePath, type AgentInput, type AgentResult, type Track } from '@vigil/core';
import { resolveAgentBudget, type AgentBudget } from './budget.js';
import { printableText } from './printable-text.js';
import { removeTree } from './remove-tree.js';
import { classifyExit, type RunnerKill } from './classify-exit.js';
import { sampleProcessUsage } from './process-usage.js';
import { detectSandboxLayers, PARENT_DEATH_SIGNAL } from './sandbox-layers.js';
import { inheritedDescriptors } from './inherited-descriptors.js';

/** Identifies the artifact to the agent; both are null for a local scan of a directory. */
export interface AgentRunMetadata {
  track: Track;
  /** `sha256:<hex>` of the artifact's bytes (the task's `artifact.sha256`). */
  sha256?: string | null;
  /** The task's `artifact.bundle_hash`. */
  bundleHash?: string | null;
}

export interface RunAgentOptions {
  /** The unpacked agent bundle. Readable by the agent, never writable. */
  bundleDir: string;
  /** The bundle's entrypoint, a bundle path (`agent.mjs`, `bin/run.js`). */
  entrypoint: string;
  /** The unpacked artifact. Readable by the agent, never writable; its working directory. */
  artifactDir: string;
  metadata: AgentRunMetadata;
  /** Replaces fields of DEFAULT_AGENT_BUDGET. */
  budget?: Partial<AgentBudget>;
  /** Aborting ends the run with `aborted`. */
  signal?: AbortSignal;
  /**
   * `false` leaves an OS layer out even where this machine offers it (for a host where it
   * misbehaves, and for testing the layers one at a time). Absent or `true`: used when available.
   */
  layers?: { networkNamespace?: boolean; osLimits?: boolean; preload?: boolean };
  /** Where the run's scratch directory is made; `os.tmpdir()` by default. */
  workDir?: string;
}

/** Which layers this run actually had (docs/agents.md, "What is enforced where"). */
export interface EnforcedLayers {
  permissionModel: true;
  /** The `--import` preload that reports and stops forbidden calls (always on unless turned off). */
  preload: boolean;
  /** A new, empty network namespace (Linux `unshare --net`). */
  networkNamespace: boolean;
  /** RLIMIT_CPU and RLIMIT_AS set by `prlimit` (Linux). */
  osLimits: boolean;
  /** The kernel kills the agent when the runner dies (Linux `setpriv --pdeathsig KILL`). */
  parentDeathSignal: boolean;
  /** CPU time and resident memory sampled from /proc and enforced by the runner (Linux). */
  usagePolling: boolean;
}

interface RunFacts {
  elapsedMs: number;
  /** CPU time the agent used; null where it cannot be measured. */
  cpuMs: number | null;
  /** Peak resident memory; null where it cannot be measured. */
  maxRssBytes: number | null;
  /** The last 64 KiB of what the agent wrote on stderr, for diagnosis. */
  stderr: string;
  budget: AgentBudget;
  enforced: EnforcedLayers;
}

export type AgentRunOutcome = ({ ok: true; result: AgentResult } | { ok: false; failureReason: string; detail: string }) & RunFacts;

const STDERR_TAIL_BYTES = 64 * 1024;
const REPORT_BYTES = 64 * 1024;
/** What the preload reports as `forbidden: <kind>` (docs/agents.md, "Failure reasons"). */
export const FORBIDDEN_KINDS: ReadonlySet<string> = new Set(['network', 'filesystem', 'child_process', 'worker', 'wasi', 'addon', 'process', 'runtime']);
const POLL_MS = 100;
/** V8 reserves this much address space before the first allocation (docs/agents.md, "Budget"). */
const ADDRESS_SPACE_HEADROOM_BYTES = 1024 * 1024 * 1024;
const ENTRYPOINT_EXTENSIONS = new Set(['.js', '.mjs', '.cjs']);
const PRELOAD = fileURLToPath(new URL('./sandbox-preload.mjs', import.meta.url));

function inside(parent: string, child: string): boolean {
  const rel = relative(parent, child);
  return rel !== '' && !rel.startsWith(`..${sep}`) && rel !== '..' && !isAbsolute(rel);
}

async function directory(path: string, name: string): Promise<string> {
  const real = await realpath(path).catch(() => {
    throw new TypeError(`${name}: ${path} does not exist`);
  });
  if (!(await stat(real)).isDirectory()) throw new TypeError(`${name}: ${path} is not a directory`);
  return real;
}

/**
 * Runs one agent on one unpacked artifact in the sandbox and returns its validated result, or the
 * documented failure_reason. Whatever the agent does, this resolves: it throws only for a mistake of
 * the caller (a budget out of range, a bundle or artifact directory that does not exist).
 */
export async function runAgent(options: RunAgentOptions): Promise<AgentRunOutcome> {
  const budget = resolveAgentBudget(options.budget);
  const bundleDir = await directory(options.bundleDir, 'bundleDir');
  const artifactDir = await directory(options.artifactDir, 'artifactDir');
  const sandbox = await detectSandboxLayers();
  const enforced: EnforcedLayers = {
    permissionModel: true,
    preload: options.layers?.preload !== false,
    networkNamespace: options.layers?.networkNamespace !== false && sandbox.networkNamespace !== null,
    osLimits: options.layers?.osLimits !== false && sandbox.prlimit !== null,
    parentDeathSignal: sandbox.setpriv !== null,
    usagePolling: process.platform === 'linux',
  };
  const started = Date.now();
  const refuse = (failureReason: string, detail: string): AgentRunOutcome => ({
    ok: false,
    failureReason,
    detail,
    elapsedMs: Date.now() - started,
    cpuMs: null,
    maxRssBytes: null,
    stderr: '',
    budget,
    enforced,
  });

  if (!AgentBundlePath.safeParse(options.entrypoint).success) return refuse('invalid_bundle: entrypoint', `${JSON.stringify(options.entrypoint)} is not a bundle path`);
  const extension = extname(options.entrypoint);
  if (!ENTRYPOINT_EXTENSIONS.has(extension)) {
    return refuse(`unsupported_entrypoint: ${extension || '(none)'}`, 'the runtime is Node: the entrypoint must end in .js, .mjs or .cjs');
  }
  const entry = await realpath(join(bundleDir, options.entrypoint)).catch(() => null);
  if (entry === null || !inside(bundleDir, entry) || !(await stat(entry)).isFile()) {
    return refuse('invalid_bundle: entrypoint', `${options.entrypoint} is not a file inside the bundle`);
  }

  const runDir = await realpath(await mkdtemp(join(options.workDir ?? tmpdir(), 'vigil-agent-')));
  try {
    const scratch = join(runDir, 'scratch');
    await mkdir(scratch);
    const input: AgentInput = {
      format: AGENT_INPUT_FORMAT,
      track: options.metadata.track,
      artifact: { dir: artifactDir, sha256: options.metadata.sha256 ?? null, bundle_hash: options.metadata.bundleHash ?? null },
      scratch_dir: scratch,
      budget: { wall_ms: budget.wallMs, cpu_ms: budget.cpuMs, memory_bytes: budget.memoryBytes, output_bytes: budget.outputBytes },
    };
    const flags = process.allowedNodeEnvironmentFlags;
    const nodeArgs = [
      sandbox.permissionFlag,
      `--allow-fs-read=${bundleDir}`,
      `--allow-fs-read=${artifactDir}`,
      `--allow-fs-read=${scratch}`,
      ...(enforced.preload ? [`--allow-fs-read=${PRELOAD}`] : []),
      `--allow-fs-write=${scratch}`,
      '--no-addons',
      `--max-old-space-size=${Math.floor(budget.memoryBytes / (1024 * 1024))}`,
      ...(flags.has('--no-experimental-fetch') ? ['--no-experimental-fetch'] : []),
      ...(flags.has('--disable-warning') ? ['--disable-warning=ExperimentalWarning'] : []),
      // The runner's pid rides in the preload's URL (not the agent's environment): the preload
      // ends an agent whose runner died before the parent-death signal was set.
      ...(enforced.preload ? [`--import=${pathToFileURL(PRELOAD).href}?runner=${process.pid}`] : []),
      entry,
    ];
    let command = process.execPath;
    let args = nodeArgs;
    // Innermost, so it is set after unshare changed the credentials (which may clear it); each of
    // these execs the next, so the agent keeps the runner as its parent.
    if (enforced.parentDeathSignal) {
      args = [...PARENT_DEATH_SIGNAL, '--', command, ...args];
      command = sandbox.setpriv!;
    }
    if (enforced.networkNamespace) {
      args = [...sandbox.networkNamespace!, '--', command, ...args];
      command = sandbox.unshare!;
    }
    if (enforced.osLimits) {
      // The soft limit sends SIGXCPU, the hard one a second later SIGKILL. Both lie a second past
      // the budget: the polling below ends the run at the exact budget; these are the backstop.
      const cpuSeconds = Math.ceil(budget.cpuMs / 1000) + 1;
      // --core=0: an abort() must not leave a core file (the agent's memory) in the artifact directory.
      args = [`--cpu=${cpuSeconds}:${cpuSeconds + 1}`, `--as=${budget.memoryBytes + ADDRESS_SPACE_HEADROOM_BYTES}`, '--core=0', '--', command, ...args];
      command = sandbox.prlimit!;
    }
    return await supervise({ command, args, cwd: artifactDir, scratch, input, budget, enforced, started, signal: options.signal });
  } finally {
    await removeTree(runDir);
  }
}

interface SuperviseOptions {
  command: string;
  args: string[];
  cwd: string;
  scratch: string;
  input: AgentInput;
  budget: AgentBudget;
  enforced: EnforcedLayers;
  started: number;
  signal: AbortSignal | undefined;
}

function spawnAgent(options: SuperviseOptions, stdio: Array<'pipe' | 'ignore' | number>): ChildProcessByStdio<Writable, Readable, Readable> {
  // The first three are always pipes (agentStdio); the array form loses that in the types.
  return spawn(options.command, options.args, {
    cwd: options.cwd,
    env: agentEnvironment(options.scratch),
    // Its own process group, so a kill reaches everything it is running.
    detached: process.platform !== 'win32',
    stdio,
    windowsHide: true,
  }) as ChildProcessByStdio<Writable, Readable, Readable>;
}

/** A scrubbed environment: nothing of the validator's (keys, tokens, NODE_OPTIONS) reaches the agent. */
function agentEnvironment(scratch: string): Record<string, string> {
  const env: Record<string, string> = { HOME: scratch, TMPDIR: scratch, TMP: scratch, TEMP: scratch, LANG: 'C.UTF-8', TZ: 'UTC' };
  if (process.platform === 'win32' && process.env.SystemRoot) env.SystemRoot = process.env.SystemRoot;
  return env;
}

/**
 * stdin, stdout, stderr and the fd-3 report pipe; then /dev/null over every descriptor the runner
 * inherited without close-on-exec (a shell's pipe, a supervisor's socket), which the agent would
 * otherwise inherit in turn and could read or write.
 */
function agentStdio(devNull: number | null): Array<'pipe' | 'ignore' | number> {
  const stdio: Array<'pipe' | 'ignore' | number> = ['pipe', 'pipe', 'pipe', 'pipe'];
  if (devNull === null) return stdio;
  for (const fd of inheritedDescriptors(stdio.length)) {
    while (stdio.length < fd) stdio.push('ignore');
    stdio.push(devNull);
  }
  return stdio;
}

/**
 * Opened with O_CLOEXEC like every descriptor Node opens, so only the dup2 in the child holds it.
 * Null off Linux, and when no descriptor is left (the spawn then reports EMFILE itself).
 */
function openDevNull(): number | null {
  if (process.platform !== 'linux') return null;
  try {
    return openSync('/dev/null', 'r');
  } catch {
    return null;
  }
}

function supervise(options: SuperviseOptions): Promise<AgentRunOutcome> {
  const { budget, enforced } = options;
  return new Promise((resolve) => {
    const devNull = openDevNull();
    let child: ChildProcessByStdio<Writable, Readable, Readable>;
    try {
      child = spawnAgent(options, agentStdio(devNull));
    } finally {
      if (devNull !== null) closeSync(devNull);
    }
    let killedFor: RunnerKill | null = null;
    let forbidden: { kind: string; detail: string } | null = null;
    let reportedUsage: { cpuMs: number; maxRssBytes: number } | null = null;
    let polledCpuMs: number | null = null;
    let polledRssBytes: number | null = null;
    const stdout: Buffer[] = [];
    let stdoutBytes = 0;
    let stderrTail = Buffer.alloc(0);
    let report = '';
    let spawnError: Error | null = null;

    const terminate = (reason: RunnerKill) => {
      killedFor ??= reason;
      try {
        if (process.platform === 'win32' || child.pid === undefined) child.kill('SIGKILL');
        else process.kill(-child.pid, 'SIGKILL');
      } catch {
        // Already gone.
      }
    };

    child.stdin.on('error', () => {
      // The agent exited or closed stdin without reading its input: how it ended says the rest.
    });
    child.stdin.end(`${JSON.stringify(options.input)}\n`);
    child.stdout.on('data', (chunk: Buffer) => {
      stdoutBytes += chunk.length;
      if (stdoutBytes > budget.outputBytes) terminate('output_too_large');
      else stdout.push(chunk);
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderrTail = Buffer.concat([stderrTail, chunk]);
      if (stderrTail.length > STDERR_TAIL_BYTES) stderrTail = stderrTail.subarray(stderrTail.length - STDERR_TAIL_BYTES);
    });
    const channel = child.stdio[3] as NodeJS.ReadableStream;
    channel.on('error', () => {});
    let reportBytes = 0;
    channel.on('data', (chunk: Buffer) => {
      // The preload writes a few short lines. More is the agent flooding fd 3 to keep the runner
      // busy: stop reading, and its writes (and a later report) fail, which the preload turns
      // into exit 86, `forbidden: runtime`.
      reportBytes += chunk.length;
      if (reportBytes > REPORT_BYTES) {
        (channel as NodeJS.ReadableStream & { destroy(): void }).destroy();
        return;
      }
      report += chunk.toString('utf8');
      const lines = report.split('\n');
      report = lines.pop() ?? '';
      for (const line of lines) {
        try {
          const message = JSON.parse(line) as { forbidden?: unknown; detail?: unknown; usage?: { cpu_ms?: unknown; max_rss_bytes?: unknown } };
          // fd 3 is open to the agent too: only the preload's kinds count, and the detail is
          // cleaned of control characters (it ends up in logs and terminals) and clipped.
          if (typeof message.forbidden === 'string' && FORBIDDEN_KINDS.has(message.forbidden) && forbidden === null) {
            forbidden = { kind: message.forbidden, detail: printableText(String(message.detail ?? ''), 300) };
          }
          if (message.usage && typeof message.usage.cpu_ms === 'number' && typeof message.usage.max_rss_bytes === 'number') {
            reportedUsage = { cpuMs: message.usage.cpu_ms, maxRssBytes: message.usage.max_rss_bytes };
          }
        } catch {
          // Not the preload's: the agent wrote on fd 3 itself. Ignored.
        }
      }
    });

    const wall = setTimeout(() => terminate('timeout'), budget.wallMs);
    let polling = false;
    const poll = enforced.usagePolling
      ? setInterval(() => {
          if (polling || child.pid === undefined) return;
          polling = true;
          void sampleProcessUsage(child.pid).then((usage) => {
            polling = false;
            if (usage === null) return;
            polledCpuMs = Math.max(polledCpuMs ?? 0, usage.cpuMs);
            polledRssBytes = Math.max(polledRssBytes ?? 0, usage.rssBytes);
            if (usage.cpuMs > budget.cpuMs) terminate('cpu_limit');
            else if (usage.rssBytes > budget.memoryBytes) terminate('memory_limit');
          });
        }, POLL_MS)
      : undefined;
    const onAbort = () => terminate('aborted');
    if (options.signal?.aborted) terminate('aborted');
    options.signal?.addEventListener('abort', onAbort, { once: true });

    let settled = false;
    const finish = (exitCode: number | null, signal: NodeJS.Signals | null) => {
      if (settled) return;
      settled = true;
      clearTimeout(wall);
      if (poll) clearInterval(poll);
      options.signal?.removeEventListener('abort', onAbort);
      const usage = reportedUsage as { cpuMs: number; maxRssBytes: number } | null;
      const cpuMs = polledCpuMs === null && usage === null ? null : Math.round(Math.max(polledCpuMs ?? 0, usage?.cpuMs ?? 0));
      const maxRssBytes = polledRssBytes === null && usage === null ? null : Math.max(polledRssBytes ?? 0, usage?.maxRssBytes ?? 0);
      const facts = { elapsedMs: Date.now() - options.started, cpuMs, maxRssBytes, stderr: stderrTail.toString('utf8'), budget, enforced };
      const failure = spawnError as (Error & { code?: string }) | null;
      if (failure !== null) {
        resolve({ ok: false, failureReason: `sandbox_error: ${failure.code ?? 'spawn'}`, detail: failure.message, ...facts });
        return;
      }
      const verdict = classifyExit({
        killedFor,
        forbidden,
        exitCode,
        signal,
        stdout: Buffer.concat(stdout).toString('utf8'),
        stderrTail: facts.stderr,
        cpuMs,
        budget,
      });
      // A crash's detail is the agent's own stderr line: never raw into a terminal or a log.
      resolve({ ...(verdict.ok ? verdict : { ...verdict, detail: printableText(verdict.detail, 1000) }), ...facts });
    };
    child.on('error', (error) => {
      spawnError = error;
      // Never started: no 'close' is owed.
      if (child.pid === undefined) finish(null, null);
    });
    child.on('close', finish);
  });
}
