import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import type { MetagraphSnapshot } from '@vigil/core';
import { verifyAttestation } from '@vigil/crypto';
import { checkSubmission, type SubmissionVerification } from './submission-check.js';
import type { VerifyRequest, VerifyResponse } from './messages.js';

/** Batches up to this many envelopes are verified on the calling thread: a worker round trip costs more. */
export const INLINE_VERIFY_MAX = 32;

export interface VerifyPoolOptions {
  /** Worker threads; default max(1, availableParallelism() - 1), leaving a core to the event loop. */
  size?: number | undefined;
  /** The worker entry; default the compiled verify-worker.js next to this module. */
  workerUrl?: URL | undefined;
}

export interface VerifyPool {
  readonly size: number;
  /** The offline checks (hash, signature, permit, then a sent dsse_signature) of each envelope against the snapshot, in input order. */
  verify(envelopes: readonly unknown[], snapshot: MetagraphSnapshot): Promise<SubmissionVerification[]>;
  /** Terminates the threads; pending and later calls are rejected. */
  close(): Promise<void>;
}

interface Pending {
  resolve: (results: SubmissionVerification[]) => void;
  reject: (error: Error) => void;
}

interface Slot {
  worker: Worker;
  /** The snapshot this thread holds, so each snapshot crosses to it once. */
  snapshotKey: string | null;
  pending: Map<number, Pending>;
}

/**
 * A small pool of node:worker_threads threads that verify attestation envelopes, so a large batch
 * submission does not hold the event loop for its ed25519 work. Threads start on first use, hold
 * the process open only while they have work, and split each call into one contiguous share each.
 */
export function createVerifyPool(options: VerifyPoolOptions = {}): VerifyPool {
  const size = options.size ?? Math.max(1, availableParallelism() - 1);
  if (!Number.isInteger(size) || size < 1) throw new RangeError(`options.size: expected a positive integer, got ${String(size)}`);
  const workerUrl = options.workerUrl ?? new URL('./verify-worker.js', import.meta.url);
  const slots: Array<Slot | undefined> = new Array(size);
  let nextId = 1;
  let closed = false;
  // A snapshot is named by the object it is, not by its block: a file edited in place (new neurons,
  // same block and taken_at) is a new snapshot the threads must be sent (the metagraph cache hands
  // out a new frozen object on every refresh, the same object between refreshes).
  const snapshotKeys = new WeakMap<MetagraphSnapshot, string>();
  let nextSnapshot = 1;
  const snapshotKey = (snapshot: MetagraphSnapshot): string => {
    let key = snapshotKeys.get(snapshot);
    if (key === undefined) {
      key = `snapshot-${nextSnapshot++}`;
      snapshotKeys.set(snapshot, key);
    }
    return key;
  };

  function fail(index: number, slot: Slot, error: Error): void {
    // A thread that died is replaced on the next call; its calls in flight cannot be answered.
    if (slots[index] === slot) slots[index] = undefined;
    for (const p of slot.pending.values()) p.reject(error);
    slot.pending.clear();
  }

  function slotAt(index: number): Slot {
    const existing = slots[index];
    if (existing !== undefined) return existing;
    const worker = new Worker(workerUrl);
    worker.unref();
    const slot: Slot = { worker, snapshotKey: null, pending: new Map() };
    worker.on('message', (response: VerifyResponse) => {
      const p = slot.pending.get(response.id);
      if (p === undefined) return;
      slot.pending.delete(response.id);
      if (slot.pending.size === 0) worker.unref();
      if ('error' in response) p.reject(new Error(`verify worker: ${response.error}`));
      else p.resolve(response.results);
    });
    worker.on('error', (error) => fail(index, slot, error));
    worker.on('exit', (code) => fail(index, slot, new Error(`verify worker exited with code ${code}`)));
    slots[index] = slot;
    return slot;
  }

  function post(index: number, key: string, snapshot: MetagraphSnapshot, envelopes: unknown[]): Promise<SubmissionVerification[]> {
    const slot = slotAt(index);
    if (slot.snapshotKey !== key) {
      slot.worker.postMessage({ kind: 'snapshot', key, snapshot } satisfies VerifyRequest);
      slot.snapshotKey = key;
    }
    const id = nextId++;
    return new Promise((resolve, reject) => {
      if (slot.pending.size === 0) slot.worker.ref();
      slot.pending.set(id, { resolve, reject });
      slot.worker.postMessage({ kind: 'verify', id, key, envelopes } satisfies VerifyRequest);
    });
  }

  return {
    size,
    async verify(envelopes, snapshot) {
      if (closed) throw new Error('the verify pool is closed');
      if (!Array.isArray(envelopes)) throw new TypeError('envelopes: expected an array');
      if (envelopes.length === 0) return [];
      const key = snapshotKey(snapshot);
      const shares = Math.min(size, envelopes.length);
      const per = Math.ceil(envelopes.length / shares);
      const calls: Promise<SubmissionVerification[]>[] = [];
      for (let i = 0, start = 0; start < envelopes.length; i++, start += per) {
        calls.push(post(i, key, snapshot, envelopes.slice(start, start + per)));
      }
      return (await Promise.all(calls)).flat();
    },
    async close() {
      closed = true;
      const running = slots.splice(0, slots.length).filter((s): s is Slot => s !== undefined);
      await Promise.all(
        running.map(async (slot) => {
          for (const p of slot.pending.values()) p.reject(new Error('the verify pool is closed'));
          slot.pending.clear();
          slot.worker.removeAllListeners('exit');
          await slot.worker.terminate();
        }),
      );
    },
  };
}

/**
 * Verifies a batch: on the calling thread when it has at most `inlineMax` envelopes, on the pool
 * otherwise. Both give the same answers (verify-pool.test.ts).
 */
export async function verifyEnvelopes(
  pool: VerifyPool,
  envelopes: readonly unknown[],
  snapshot: MetagraphSnapshot,
  inlineMax = INLINE_VERIFY_MAX,
): Promise<SubmissionVerification[]> {
  if (envelopes.length <= inlineMax) return envelopes.map((envelope) => checkSubmission((e) => verifyAttestation(e, snapshot), envelope));
  return pool.verify(envelopes, snapshot);
}
