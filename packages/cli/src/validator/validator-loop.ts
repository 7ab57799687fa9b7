import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { removeTree, runAgent, unpackArchive, UnpackError, type AgentBudget } from '@vigil/sandbox';
import type { Dated, SignedVigilClient, VigilKeypair } from '@vigil/client';
import {
  MAX_PROGRESS_DETAIL_LENGTH,
  type AttestationSubmission,
  type BatchAttestationReceipt,
  type ClaimedRound as ClaimedRoundSchema,
  type LeasedTask as LeasedTaskSchema,
  type TaskClaim as TaskClaimSchema,
  type Track,
} from '@vigil/core';

/** The claim's values as the SDK hands them back (timestamps as Date). */
type ClaimedRound = Dated<typeof ClaimedRoundSchema>;
type LeasedTask = Dated<typeof LeasedTaskSchema>;
type TaskClaim = Dated<typeof TaskClaimSchema>;
import { signAttestationSubmission } from '@vigil/crypto';
import { attestationPayload } from './attestation-payload.js';
import { sweepStaleRuns } from './sweep-stale-runs.js';
import { artifactFile, bundleDir, IntegrityError } from './task-inputs.js';
import { isTransient, reasonOf } from './transient.js';
import { abortableSleep } from '../abortable-sleep.js';

/** One line of `vigil validator run --json` (docs/cli.md, "vigil validator run"). */
export type LoopEvent =
  | { event: 'claimed'; round_id: string; track: Track; tasks: number }
  | { event: 'task_done'; task_id: string; track: Track; verdict: string; risk_score: number; findings: number; elapsed_ms: number }
  | { event: 'task_failed'; task_id: string; track: Track; failure_reason: string; detail: string; released: boolean }
  | { event: 'batch_submitted'; attestations: number; created: number; duplicate: number; refused: number }
  | { event: 'attestation_refused'; task_id: string; status: number | null; detail: string }
  | { event: 'server_unreachable'; during: string; reason: string; retry_in_ms: number }
  | { event: 'stopping'; running: number; pending: number }
  | { event: 'summary'; claimed: number; attested: number; duplicate: number; refused: number; failed: number; unsent: number; elapsed_ms: number };

/** One agent run in the sandbox as it ended: `failureReason` null for a valid result. */
export interface SandboxRun {
  track: Track;
  failureReason: string | null;
  seconds: number;
}

export interface ValidatorLoopOptions {
  client: SignedVigilClient;
  keypair: VigilKeypair;
  track?: Track;
  concurrency: number;
  batchSize: number;
  pollIntervalMs: number;
  exitWhenIdle: boolean;
  workDir: string;
  emit: (event: LoopEvent) => void;
  /** Aborted on the first SIGINT/SIGTERM: stop claiming, finish or release what runs, flush, end. */
  stop: AbortSignal;
  /** Aborted on the second: end now; agents are killed and leases left to expire. */
  kill: AbortSignal;
  budget?: Partial<AgentBudget>;
  /** How long running agents may go on after `stop` before they are aborted (default 10 s). */
  graceMs?: number;
  /** A partial batch is sent at the latest this long after its first attestation (default 3 s). */
  flushIntervalMs?: number;
  /** Heartbeat (`progress running`) period while an agent runs (default 2 min; leases last 10). */
  heartbeatMs?: number;
  /** Longest wait between retries after a connection failure (default 10 s). */
  maxBackoffMs?: number;
  /** Per-request timeout (default 60 s). */
  requestTimeoutMs?: number;
  /** Told of every agent run in the sandbox (the metrics listener counts and times them). */
  onSandboxRun?: (run: SandboxRun) => void;
}

export interface LoopSummary {
  claimed: number;
  attested: number;
  duplicate: number;
  refused: number;
  failed: number;
  /** Signed attestations that could not be submitted before the loop ended. */
  unsent: number;
  /** True when a second signal ended the loop without the orderly stop. */
  killed: boolean;
}

/** Waits for `work` at most `ms` (or until `signal`), leaving no timer behind to hold the process. */
async function within(work: Promise<unknown>, ms: number, signal: AbortSignal): Promise<void> {
  const done = new AbortController();
  try {
    await Promise.race([work, abortableSleep(ms, AbortSignal.any([signal, done.signal]))]);
  } finally {
    done.abort();
  }
}

interface Pending {
  envelope: AttestationSubmission;
  since: number;
}


/**
 * The validator's run loop (docs/cli.md, "vigil validator run"): claims tasks up to `concurrency`,
 * runs each task's agent in the sandbox on its artifact (both downloaded once and hash-checked),
 * signs an attestation per result and submits them in batches. Connection failures are waited out
 * with backoff (signed results stay in memory and are resubmitted whole: the server answers
 * `duplicate` for what it already has). A failed run releases its lease with `progress failed`.
 */
export async function runValidatorLoop(options: ValidatorLoopOptions): Promise<LoopSummary> {
  const { client, keypair, emit } = options;
  const graceMs = options.graceMs ?? 10_000;
  const flushIntervalMs = options.flushIntervalMs ?? 3_000;
  const heartbeatMs = options.heartbeatMs ?? 120_000;
  const maxBackoffMs = options.maxBackoffMs ?? 10_000;
  const requestTimeoutMs = options.requestTimeoutMs ?? 60_000;
  const started = Date.now();
  const summary: LoopSummary = { claimed: 0, attested: 0, duplicate: 0, refused: 0, failed: 0, unsent: 0, killed: false };
  const running = new Map<string, { done: Promise<void>; abort: AbortController }>();
  const pending: Pending[] = [];
  /** The batch sent last without an answer: sent again as it is until one comes. */
  let outgoing: Pending[] | null = null;
  const artifacts = new Map<string, Promise<string>>();
  const bundles = new Map<string, Promise<{ dir: string; bundle: { entrypoint: string } }>>();
  let backoffMs = 0;
  // Woken by a finished task, a signal or a timer.
  let wake: () => void = () => {};
  const wakeUp = () => wake();
  options.stop.addEventListener('abort', wakeUp);
  options.kill.addEventListener('abort', wakeUp);
  await mkdir(options.workDir, { recursive: true });
  await sweepStaleRuns(options.workDir, Date.now());

  const call = (signal?: AbortSignal) => ({ signal: AbortSignal.any([options.kill, AbortSignal.timeout(requestTimeoutMs), ...(signal ? [signal] : [])]) });

  const unreachable = (during: string, error: unknown): number => {
    backoffMs = Math.min(maxBackoffMs, backoffMs === 0 ? 500 : backoffMs * 2);
    emit({ event: 'server_unreachable', during, reason: reasonOf(error), retry_in_ms: backoffMs });
    return backoffMs;
  };

  /** Repeats a call through transient failures until it answers, or the loop is killed. */
  async function persist<T>(during: string, work: () => Promise<T>, signal: AbortSignal = options.kill): Promise<T> {
    for (;;) {
      try {
        const value = await work();
        backoffMs = 0;
        return value;
      } catch (error) {
        if (!isTransient(error) || signal.aborted || options.kill.aborted) throw error;
        await abortableSleep(unreachable(during, error), signal);
        if (signal.aborted) throw error;
      }
    }
  }

  async function release(task: LeasedTask, track: Track, failureReason: string, detail: string): Promise<void> {
    summary.failed += 1;
    let released = false;
    try {
      const text = `${failureReason}: ${detail}`.slice(0, MAX_PROGRESS_DETAIL_LENGTH);
      await persist('progress', () => client.validators.progress(task.task_id, { state: 'failed', detail: text }, call()));
      released = true;
    } catch {
      // The lease lapses on its own (LEASE_MS); nothing else depends on this call.
    }
    emit({ event: 'task_failed', task_id: task.task_id, track, failure_reason: failureReason, detail, released });
  }

  async function runTask(round: ClaimedRound, task: LeasedTask, abort: AbortController): Promise<void> {
    const signal = AbortSignal.any([abort.signal, options.kill]);
    const taskStarted = Date.now();
    // `running` marks the lease as started and extends it; a lost heartbeat only shortens the lease.
    const beat = () => void client.validators.progress(task.task_id, { state: 'running' }, call()).catch(() => {});
    beat();
    const heartbeat = setInterval(beat, heartbeatMs);
    const scratch = join(options.workDir, 'runs', task.task_id.replace(/[^A-Za-z0-9_-]/g, '_'));
    try {
      let artifact: string;
      let agent: { dir: string; bundle: { entrypoint: string } };
      try {
        let a = artifacts.get(task.artifact.sha256);
        if (a === undefined) {
          a = persist('artifact download', () => artifactFile(client, options.workDir, task.artifact.sha256, call(signal).signal), signal);
          artifacts.set(task.artifact.sha256, a);
          a.catch(() => artifacts.delete(task.artifact.sha256));
        }
        artifact = await a;
        let b = bundles.get(task.agent_hash);
        if (b === undefined) {
          b = persist('agent download', () => bundleDir(client, options.workDir, task.agent_hash, call(signal).signal), signal);
          bundles.set(task.agent_hash, b);
          b.catch(() => bundles.delete(task.agent_hash));
        }
        agent = await b;
      } catch (error) {
        if (options.kill.aborted) return;
        if (error instanceof IntegrityError) return await release(task, round.track, 'integrity', error.message);
        return await release(task, round.track, 'download_failed', reasonOf(error));
      }
      await removeTree(scratch);
      let root: string;
      try {
        root = (await unpackArchive(artifact, join(scratch, 'artifact'))).root;
      } catch (error) {
        if (error instanceof UnpackError) return await release(task, round.track, `unpack_refused: ${error.code}`, error.message);
        throw error;
      }
      const runStarted = performance.now();
      const outcome = await runAgent({
        bundleDir: agent.dir,
        entrypoint: agent.bundle.entrypoint,
        artifactDir: root,
        metadata: { track: round.track, sha256: task.artifact.sha256, bundleHash: task.artifact.bundle_hash },
        signal,
        workDir: scratch,
        ...(options.budget ? { budget: options.budget } : {}),
      });
      options.onSandboxRun?.({ track: round.track, failureReason: outcome.ok ? null : outcome.failureReason, seconds: (performance.now() - runStarted) / 1000 });
      if (options.kill.aborted) return;
      if (!outcome.ok) return await release(task, round.track, outcome.failureReason, outcome.detail);
      const envelope = signAttestationSubmission(attestationPayload(round, task, outcome.result, keypair.hotkey, new Date()), keypair.secretKey);
      pending.push({ envelope, since: Date.now() });
      emit({
        event: 'task_done',
        task_id: task.task_id,
        track: round.track,
        verdict: outcome.result.verdict,
        risk_score: outcome.result.risk_score,
        findings: outcome.result.findings.length,
        elapsed_ms: Date.now() - taskStarted,
      });
    } catch (error) {
      if (!options.kill.aborted) await release(task, round.track, 'validator_error', reasonOf(error));
    } finally {
      clearInterval(heartbeat);
      await removeTree(scratch);
    }
  }

  /**
   * Sends one batch: the batch that got no answer last time, exactly as it was, else the oldest
   * `batchSize` signed attestations. False when the server was not reached (the batch is kept).
   */
  async function flushOnce(): Promise<boolean> {
    if (outgoing === null) {
      if (pending.length === 0) return true;
      outgoing = pending.splice(0, options.batchSize);
    }
    const batch = outgoing;
    let receipt: BatchAttestationReceipt;
    try {
      receipt = await client.validators.attestBatch(batch.map((p) => p.envelope), call());
    } catch (error) {
      if (isTransient(error)) {
        unreachable('attestation batch', error);
        return false;
      }
      // A batch refused whole (422) would be refused again: report each envelope and drop it.
      outgoing = null;
      for (const p of batch) {
        summary.refused += 1;
        emit({ event: 'attestation_refused', task_id: p.envelope.payload.task_id, status: (error as { status?: number }).status ?? null, detail: reasonOf(error) });
      }
      return true;
    }
    backoffMs = 0;
    outgoing = null;
    const counts = { created: 0, duplicate: 0, refused: 0 };
    receipt.results.forEach((result) => {
      counts[result.outcome] += 1;
      if (result.outcome === 'refused') emit({ event: 'attestation_refused', task_id: result.task_id, status: result.status ?? null, detail: result.detail ?? '' });
    });
    summary.attested += counts.created;
    summary.duplicate += counts.duplicate;
    summary.refused += counts.refused;
    emit({ event: 'batch_submitted', attestations: batch.length, ...counts });
    return true;
  }

  const queued = () => pending.length + (outgoing?.length ?? 0);
  const flushDue = () =>
    outgoing !== null || (pending.length > 0 && (pending.length >= options.batchSize || running.size === 0 || Date.now() - pending[0]!.since >= flushIntervalMs));

  let idle = false;
  let nextClaimAt = 0;
  while (!options.stop.aborted && !options.kill.aborted) {
    if (flushDue()) {
      if (!(await flushOnce())) {
        await abortableSleep(backoffMs, options.stop);
        continue;
      }
    }
    const free = options.concurrency - running.size;
    if (free > 0 && Date.now() >= nextClaimAt) {
      let claim: TaskClaim | null = null;
      try {
        claim = await client.validators.claim({ ...(options.track ? { track: options.track } : {}), max: free }, call());
        backoffMs = 0;
      } catch (error) {
        if (!isTransient(error)) throw error;
        nextClaimAt = Date.now() + unreachable('claim', error);
      }
      if (claim !== null) {
        idle = claim.tasks.length === 0;
        if (claim.round !== null && claim.tasks.length > 0) {
          summary.claimed += claim.tasks.length;
          emit({ event: 'claimed', round_id: claim.round.round_id, track: claim.round.track, tasks: claim.tasks.length });
          for (const task of claim.tasks) {
            const abort = new AbortController();
            const done = runTask(claim.round, task, abort).finally(() => {
              running.delete(task.task_id);
              // "Idle" needs a claim made after the last task ended: that one may have freed others.
              idle = false;
              nextClaimAt = 0;
              wakeUp();
            });
            running.set(task.task_id, { done, abort });
          }
        } else {
          nextClaimAt = Date.now() + options.pollIntervalMs;
        }
      }
    }
    if (options.exitWhenIdle && idle && running.size === 0 && queued() === 0) break;
    // Sleep until a task ends, a signal, the next claim or the flush deadline.
    const deadlines = [running.size < options.concurrency ? nextClaimAt : Infinity, pending.length > 0 ? pending[0]!.since + flushIntervalMs : Infinity, backoffMs > 0 ? Date.now() + backoffMs : Infinity];
    const until = Math.min(...deadlines) - Date.now();
    if (until > 0) {
      await new Promise<void>((resolve) => {
        const timer = until === Infinity ? undefined : setTimeout(resolve, until);
        wake = () => {
          if (timer) clearTimeout(timer);
          resolve();
        };
      });
      wake = () => {};
    }
  }

  if (!options.kill.aborted && options.stop.aborted) {
    emit({ event: 'stopping', running: running.size, pending: queued() });
    // Running agents get a grace period; then they are aborted and their leases released.
    const all = Promise.all([...running.values()].map((r) => r.done));
    await within(all, graceMs, options.kill);
    for (const r of running.values()) r.abort.abort();
    // Aborted runs end at once; what is left is releasing their leases (bounded by the request timeout).
    await within(all, requestTimeoutMs, options.kill);
    // Flush what is signed; a few attempts if the server is away, never a batch cut in two.
    for (let attempt = 0; queued() > 0 && attempt < 5 && !options.kill.aborted; ) {
      if (await flushOnce()) continue;
      attempt += 1;
      await abortableSleep(backoffMs, options.kill);
    }
  }
  if (options.kill.aborted) {
    summary.killed = true;
    for (const r of running.values()) r.abort.abort();
  }
  options.stop.removeEventListener('abort', wakeUp);
  options.kill.removeEventListener('abort', wakeUp);
  summary.unsent = queued();
  emit({ event: 'summary', claimed: summary.claimed, attested: summary.attested, duplicate: summary.duplicate, refused: summary.refused, failed: summary.failed, unsent: summary.unsent, elapsed_ms: Date.now() - started });
  return summary;
}
