import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import type { PolicyDefinition } from '../cel/compile-policy.js';
import type { CelInput } from '../policy-input.js';
import type { PolicyOutcome } from '../cel/run-policy.js';
import {
  PROGRESS_BYTES,
  PROGRESS_INTS,
  PROGRESS_RULE,
  PROGRESS_RUNNING,
  PROGRESS_STARTED_AT_OFFSET,
  PROGRESS_TAKEN_AT_OFFSET,
  type EvaluationRequest,
  type EvaluationResponse,
} from './messages.js';

/** The longest one rule may run on one package before it is ended (docs/policies.md, "Limits"). */
export const RULE_TIME_LIMIT_MS = 1_000;
/** The old-generation heap of one evaluation thread; a rule that needs more is ended. */
export const EVALUATION_HEAP_MB = 64;
/**
 * The longest one evaluation (all rules on all its packages: a lockfile's) may keep threads busy,
 * so that many rules just under the per-rule limit cannot hold the pool for minutes. Counted while
 * a thread works on it, not while a replacement thread starts.
 */
export const EVALUATION_TIME_LIMIT_MS = 5_000;

export interface PolicyRunnerOptions {
  /** Evaluation threads; default max(2, availableParallelism() - 1). */
  size?: number | undefined;
  ruleTimeLimitMs?: number | undefined;
  evaluationTimeLimitMs?: number | undefined;
  heapMb?: number | undefined;
  /** The thread's entry; default the compiled policy-worker.js (see defaultWorkerUrl). */
  workerUrl?: URL | undefined;
}

/** What a run needs of a policy: a stored definition or a compiled policy both are one. */
export interface PolicyToRun {
  id: string;
  name: string;
  version: number;
  builtin: boolean;
  rules: ReadonlyArray<Pick<PolicyDefinition['rules'][number], 'name' | 'action' | 'expression'>>;
}

export interface PolicyRunner {
  /**
   * Runs the policy's rules on each input, off the event loop, and answers one outcome per input
   * in input order. A rule that runs past the time limit, or needs more memory than the thread's
   * heap, is ended: its check is an `error` (failed with its action), and it is not run again on the
   * remaining inputs of this call, which answer the same error for it.
   */
  run(policy: PolicyToRun, inputs: readonly CelInput[]): Promise<PolicyOutcome[]>;
  /** Ends the threads; calls in flight and later ones are rejected. */
  close(): Promise<void>;
}

interface Job {
  id: number;
  policy: PolicyDefinition;
  inputs: readonly CelInput[];
  results: Array<PolicyOutcome | undefined>;
  /** Outcomes received for inputs 0…received-1. */
  received: number;
  skip: Map<number, string>;
  /** Thread deaths no running rule explains; a second one ends the call. */
  unexplained: number;
  /** Time threads have spent on the job before the current one took it (ms), for the evaluation's time limit. */
  spentMs: number;
  resolve: (outcomes: PolicyOutcome[]) => void;
  reject: (error: Error) => void;
}

interface Slot {
  worker: Worker;
  ints: Int32Array;
  startedAt: Float64Array;
  /** When the thread took up its current request (written by the thread; 0 until then). */
  takenAt: Float64Array;
  job: Job | null;
  watchdog: NodeJS.Timeout | null;
  /** Set once the slot is being replaced, so its exit is handled once. */
  ended: boolean;
}

/**
 * The compiled worker. Run from the TypeScript sources (vitest), this module sits in src/ where no
 * .js worker exists: a thread can only load the build, so the sources point at dist/ (which
 * `pnpm test` builds first).
 */
function defaultWorkerUrl(): URL {
  return import.meta.url.endsWith('.ts')
    ? new URL('../../../../dist/features/policies/evaluation/policy-worker.js', import.meta.url)
    : new URL('./policy-worker.js', import.meta.url);
}

function overrunMessage(kind: 'time' | 'memory' | 'total', limit: number): string {
  if (kind === 'total') return `the evaluation exceeded its total time limit (${limit} ms): the rule was not run`;
  return kind === 'time'
    ? `the rule exceeded its evaluation time limit (${limit} ms) and was stopped`
    : `the rule exceeded its evaluation memory limit (${limit} MB) and was stopped`;
}

/**
 * A pool of node:worker_threads threads that evaluate policy rules, so that no rule, however it
 * slipped past the save-time cost estimate (rule-cost.ts), can hold the event loop or exhaust the
 * server's heap: each thread has its own small heap (a rule that fills it ends the thread, not the
 * process), and a watchdog on the main thread ends a thread whose rule runs too long. An ended
 * thread is replaced, and the call goes on from the package it was on.
 */
export function createPolicyRunner(options: PolicyRunnerOptions = {}): PolicyRunner {
  const size = options.size ?? Math.max(2, availableParallelism() - 1);
  if (!Number.isInteger(size) || size < 1) throw new RangeError(`options.size: expected a positive integer, got ${String(size)}`);
  const ruleTimeLimitMs = options.ruleTimeLimitMs ?? RULE_TIME_LIMIT_MS;
  const evaluationTimeLimitMs = options.evaluationTimeLimitMs ?? EVALUATION_TIME_LIMIT_MS;
  const heapMb = options.heapMb ?? EVALUATION_HEAP_MB;
  const workerUrl = options.workerUrl ?? defaultWorkerUrl();
  const slots: Array<Slot | undefined> = new Array(size);
  const queue: Job[] = [];
  let nextId = 1;
  let closed = false;

  /** The job's time on threads so far, the current thread's included. */
  function spent(slot: Slot, job: Job, now: number): number {
    const takenAt = slot.takenAt[0]!;
    return job.spentMs + (takenAt > 0 ? now - takenAt : 0);
  }

  function finish(slot: Slot): void {
    if (slot.watchdog !== null) clearInterval(slot.watchdog);
    slot.watchdog = null;
    slot.job = null;
    slot.worker.unref();
    pump();
  }

  function onMessage(slot: Slot, response: EvaluationResponse): void {
    const job = slot.job;
    if (job === null || response.id !== job.id) return;
    if (response.kind === 'outcome') {
      job.results[response.index] = response.outcome;
      while (job.received < job.inputs.length && job.results[job.received] !== undefined) job.received++;
      return;
    }
    finish(slot);
    job.resolve(job.results as PolicyOutcome[]);
  }

  /** The thread is gone (ended by the watchdog, out of memory, crashed): blame the running rule, replace the thread, go on. */
  function onDeath(index: number, slot: Slot, kind: 'time' | 'memory' | 'total' | 'crash', error?: Error): void {
    if (slot.ended) return;
    slot.ended = true;
    if (slots[index] === slot) slots[index] = undefined;
    if (slot.watchdog !== null) clearInterval(slot.watchdog);
    slot.watchdog = null;
    void slot.worker.terminate();
    const job = slot.job;
    slot.job = null;
    if (job === null) return;
    job.spentMs = spent(slot, job, Date.now());
    const running = Atomics.load(slot.ints, PROGRESS_RUNNING) === 1;
    if (kind === 'total') {
      // Out of time: every rule of the packages not finished reports it, none runs again.
      const message = overrunMessage('total', evaluationTimeLimitMs);
      job.policy.rules.forEach((_rule, rule) => job.skip.set(rule, message));
    } else if (running && kind !== 'crash') {
      job.skip.set(Atomics.load(slot.ints, PROGRESS_RULE), overrunMessage(kind, kind === 'time' ? ruleTimeLimitMs : heapMb));
    } else if (++job.unexplained >= 2) {
      job.reject(new Error(`policy evaluation thread failed: ${error?.message ?? kind}`));
      pump();
      return;
    }
    // Outcomes of packages after `received` may have been lost with the thread: they run again.
    queue.unshift(job);
    pump();
  }

  function spawn(index: number): Slot {
    const progress = new SharedArrayBuffer(PROGRESS_BYTES);
    const worker = new Worker(workerUrl, {
      workerData: progress,
      resourceLimits: { maxOldGenerationSizeMb: heapMb, maxYoungGenerationSizeMb: Math.max(4, Math.ceil(heapMb / 8)), stackSizeMb: 4 },
    });
    const slot: Slot = {
      worker,
      ints: new Int32Array(progress, 0, PROGRESS_INTS),
      startedAt: new Float64Array(progress, PROGRESS_STARTED_AT_OFFSET, 1),
      takenAt: new Float64Array(progress, PROGRESS_TAKEN_AT_OFFSET, 1),
      job: null,
      watchdog: null,
      ended: false,
    };
    worker.unref();
    worker.on('message', (response: EvaluationResponse) => onMessage(slot, response));
    worker.on('error', (error: Error & { code?: string }) => onDeath(index, slot, error.code === 'ERR_WORKER_OUT_OF_MEMORY' ? 'memory' : 'crash', error));
    worker.on('exit', () => onDeath(index, slot, 'crash'));
    slots[index] = slot;
    return slot;
  }

  function start(index: number, job: Job): void {
    const slot = slots[index] ?? spawn(index);
    slot.job = job;
    slot.takenAt[0] = 0;
    Atomics.store(slot.ints, PROGRESS_RUNNING, 0);
    slot.worker.ref();
    const check = Math.max(5, Math.floor(Math.min(ruleTimeLimitMs, evaluationTimeLimitMs) / 4));
    const stoppedAll = job.skip.size === job.policy.rules.length;
    slot.watchdog = setInterval(() => {
      const now = Date.now();
      if (!stoppedAll && spent(slot, job, now) > evaluationTimeLimitMs) onDeath(index, slot, 'total');
      else if (Atomics.load(slot.ints, PROGRESS_RUNNING) === 1 && now - slot.startedAt[0]! > ruleTimeLimitMs) onDeath(index, slot, 'time');
    }, check);
    slot.watchdog.unref();
    const request: EvaluationRequest = { id: job.id, policy: job.policy, inputs: job.inputs, from: job.received, skip: [...job.skip] };
    slot.worker.postMessage(request);
  }

  function pump(): void {
    if (closed) return;
    for (let index = 0; index < size && queue.length > 0; index++) {
      if (slots[index]?.job != null) continue;
      start(index, queue.shift()!);
    }
  }

  return {
    async run(policy, inputs) {
      if (closed) throw new Error('the policy runner is closed');
      if (inputs.length === 0) return [];
      return new Promise<PolicyOutcome[]>((resolve, reject) => {
        queue.push({
          id: nextId++,
          // Only what the thread needs crosses to it.
          policy: { id: policy.id, name: policy.name, version: policy.version, builtin: policy.builtin, rules: policy.rules.map(({ name, action, expression }) => ({ name, action, expression, description: null })) },
          inputs,
          results: new Array<PolicyOutcome | undefined>(inputs.length),
          received: 0,
          skip: new Map(),
          unexplained: 0,
          spentMs: 0,
          resolve,
          reject,
        });
        pump();
      });
    },
    async close() {
      closed = true;
      for (const job of queue.splice(0)) job.reject(new Error('the policy runner is closed'));
      const running = slots.splice(0, slots.length).filter((s): s is Slot => s !== undefined);
      await Promise.all(
        running.map(async (slot) => {
          slot.ended = true;
          if (slot.watchdog !== null) clearInterval(slot.watchdog);
          slot.job?.reject(new Error('the policy runner is closed'));
          slot.job = null;
          await slot.worker.terminate();
        }),
      );
    },
  };
}

let shared: PolicyRunner | undefined;

/** One runner per process, its threads started on first use and idle threads never holding the process open. */
export function sharedPolicyRunner(): PolicyRunner {
  shared ??= createPolicyRunner();
  return shared;
}
