import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import type { AttestationPayload, AttestationSubmission } from '@vigil/core';
import { signAttestationSubmission } from '@vigil/crypto';

/** A payload and the secret key of the validator it names. */
export interface SignItem {
  payload: AttestationPayload;
  secretKey: Uint8Array;
}

/** What the signer posts to its thread, and the answer, matched by id. */
export interface SignRequest {
  id: number;
  items: SignItem[];
}
export type SignResponse = { id: number; envelopes: AttestationSubmission[] } | { id: number; error: string };

export interface DemoSigner {
  /**
   * The envelopes of `items`, in order, each with its DSSE signature as every Vigil validator sends it:
   * exactly what signAttestationSubmission returns for each (ed25519 signatures are deterministic).
   */
  sign(items: readonly SignItem[]): Promise<AttestationSubmission[]>;
  /** Ends the thread, if one was started. */
  close(): Promise<void>;
}

/** Below this many payloads a round trip to the thread costs more than it saves. */
const INLINE_MAX = 64;

/**
 * Signs the demo's attestations on two cores: a thread signs the first half of each batch while the
 * calling thread signs the rest (signing is a seventh of the seed's CPU time). One core, or the
 * seed running from its TypeScript sources (vitest: a thread cannot load them), signs inline: the
 * same function, the same envelopes.
 */
export function createDemoSigner(options: { workerUrl?: URL; threaded?: boolean } = {}): DemoSigner {
  const workerUrl = options.workerUrl ?? new URL('./demo-sign-worker.js', import.meta.url);
  const threaded = options.threaded ?? (availableParallelism() > 1 && !import.meta.url.endsWith('.ts'));
  let worker: Worker | undefined;
  let failure: Error | undefined;
  let nextId = 1;
  const pending = new Map<number, { resolve: (envelopes: AttestationSubmission[]) => void; reject: (error: Error) => void }>();

  function fail(error: Error): void {
    failure ??= error;
    for (const p of pending.values()) p.reject(error);
    pending.clear();
  }

  function thread(): Worker {
    if (worker !== undefined) return worker;
    worker = new Worker(workerUrl);
    worker.on('message', (response: SignResponse) => {
      const p = pending.get(response.id);
      if (p === undefined) return;
      pending.delete(response.id);
      if ('error' in response) p.reject(new Error(`demo signer: ${response.error}`));
      else p.resolve(response.envelopes);
    });
    worker.on('error', fail);
    worker.on('exit', (code) => fail(new Error(`demo signer thread exited with code ${code}`)));
    return worker;
  }

  function post(items: SignItem[]): Promise<AttestationSubmission[]> {
    if (failure !== undefined) return Promise.reject(failure);
    const id = nextId++;
    return new Promise((resolve, reject) => {
      pending.set(id, { resolve, reject });
      thread().postMessage({ id, items } satisfies SignRequest);
    });
  }

  const inline = (items: readonly SignItem[]) => items.map((item) => signAttestationSubmission(item.payload, item.secretKey));

  return {
    async sign(items) {
      if (!threaded || items.length <= INLINE_MAX) return inline(items);
      const half = Math.floor(items.length / 2);
      const first = post(items.slice(0, half));
      // A rejection while this thread signs its half is taken when awaited below, not reported as unhandled.
      first.catch(() => {});
      const second = inline(items.slice(half));
      return [...(await first), ...second];
    },
    async close() {
      const running = worker;
      worker = undefined;
      if (running === undefined) return;
      running.removeAllListeners('exit');
      await running.terminate();
    },
  };
}
