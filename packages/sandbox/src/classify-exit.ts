import { AgentResult } from '@vigil/core';
import type { AgentBudget } from './budget.js';

/** Why the runner itself ended the process. */
export type RunnerKill = 'timeout' | 'cpu_limit' | 'memory_limit' | 'output_too_large' | 'aborted';

export interface ExitFacts {
  /** Set when the runner killed the process, with the budget it enforced. */
  killedFor: RunnerKill | null;
  /** What the preload reported on fd 3 before killing the process. */
  forbidden: { kind: string; detail: string } | null;
  exitCode: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderrTail: string;
  /** Highest CPU time observed, when measured. */
  cpuMs: number | null;
  budget: AgentBudget;
}

export type ExitVerdict = { ok: true; result: AgentResult } | { ok: false; failureReason: string; detail: string };

const RUNNER_KILL_DETAIL: Record<RunnerKill, (budget: AgentBudget) => string> = {
  timeout: (budget) => `still running after the wall-clock budget of ${budget.wallMs} ms`,
  cpu_limit: (budget) => `used more than the CPU budget of ${budget.cpuMs} ms`,
  memory_limit: (budget) => `resident memory went over the budget of ${budget.memoryBytes} bytes`,
  output_too_large: (budget) => `printed more than the output budget of ${budget.outputBytes} bytes on stdout`,
  aborted: () => 'the caller aborted the run',
};

/** The preload's exit code for a forbidden attempt it could not report on fd 3 (sandbox-preload.mjs). */
export const UNREPORTED_FORBIDDEN_EXIT = 86;

const PERMISSION_KINDS: Record<string, string> = {
  FileSystemRead: 'filesystem',
  FileSystemWrite: 'filesystem',
  ChildProcess: 'child_process',
  WorkerThreads: 'worker',
  WASI: 'wasi',
};

/** V8's fatal heap message, a failed off-heap allocation under RLIMIT_AS, or the C++ allocator giving up. */
const OUT_OF_MEMORY = /JavaScript heap out of memory|Array buffer allocation failed|Fatal process out of memory|std::bad_alloc|Allocation failed - process out of memory/;

function lastLine(text: string): string {
  const lines = text.trim().split('\n');
  return (lines.at(-1) ?? '').slice(0, 300);
}

/** The uncaught error's own line (`Error: …`) when Node printed one, else the last line. */
function crashLine(text: string): string {
  const thrown = /^[\w.]*(Error|Exception)\b[^\n]*$/m.exec(text);
  return thrown ? thrown[0].slice(0, 300) : lastLine(text.replace(/\nNode\.js v[\d.]+\s*$/, ''));
}

/** The documented failure_reason (docs/agents.md, "Failure reasons") for how a run ended, or its result. */
export function classifyExit(facts: ExitFacts): ExitVerdict {
  if (facts.forbidden) {
    return { ok: false, failureReason: `forbidden: ${facts.forbidden.kind}`, detail: `the agent tried ${facts.forbidden.detail}` };
  }
  if (facts.killedFor) return { ok: false, failureReason: facts.killedFor, detail: RUNNER_KILL_DETAIL[facts.killedFor](facts.budget) };
  if (facts.exitCode === UNREPORTED_FORBIDDEN_EXIT && facts.signal === null) {
    return { ok: false, failureReason: 'forbidden: runtime', detail: `the agent closed or replaced the report channel (fd 3), then tried something forbidden (exit ${UNREPORTED_FORBIDDEN_EXIT})` };
  }
  if (facts.exitCode !== 0) {
    // An access the preload did not see (a path the agent reached some other way) still shows as
    // the permission model's uncaught ERR_ACCESS_DENIED.
    const denied = /ERR_ACCESS_DENIED[\s\S]{0,400}?permission: '(\w+)'/.exec(facts.stderrTail) ?? /permission: '(\w+)'[\s\S]{0,400}?ERR_ACCESS_DENIED/.exec(facts.stderrTail);
    if (denied) {
      const permission = denied[1]!;
      return { ok: false, failureReason: `forbidden: ${PERMISSION_KINDS[permission] ?? 'runtime'}`, detail: `the permission model refused ${permission}` };
    }
    if (facts.stderrTail.includes('ERR_DLOPEN_DISABLED')) return { ok: false, failureReason: 'forbidden: addon', detail: 'the agent tried to load a native addon' };
    if (facts.signal === 'SIGXCPU' || (facts.signal === 'SIGKILL' && facts.cpuMs !== null && facts.cpuMs >= facts.budget.cpuMs)) {
      return { ok: false, failureReason: 'cpu_limit', detail: RUNNER_KILL_DETAIL.cpu_limit(facts.budget) };
    }
    if (OUT_OF_MEMORY.test(facts.stderrTail)) return { ok: false, failureReason: 'memory_limit', detail: lastLine(facts.stderrTail.match(OUT_OF_MEMORY)![0]) };
    if (facts.signal !== null) return { ok: false, failureReason: `crashed: signal ${facts.signal}`, detail: crashLine(facts.stderrTail) };
    return { ok: false, failureReason: `crashed: exit ${String(facts.exitCode)}`, detail: crashLine(facts.stderrTail) };
  }
  let value: unknown;
  try {
    value = JSON.parse(facts.stdout);
  } catch {
    const what = facts.stdout.trim() === '' ? 'stdout is empty' : 'stdout is not exactly one JSON value';
    return { ok: false, failureReason: 'invalid_output: (stdout)', detail: what };
  }
  const parsed = AgentResult.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const path = issue.path.length === 0 ? '(root)' : issue.path.map(String).join('.');
    return { ok: false, failureReason: `invalid_output: ${path}`, detail: issue.message };
  }
  return { ok: true, result: parsed.data };
}
