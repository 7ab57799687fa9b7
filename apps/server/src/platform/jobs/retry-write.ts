/**
 * Retries a database write that a dropped connection can fail (a PostgreSQL connection reset, a
 * failover), waiting `delaysMs[i]` before retry i + 1, so a worker does not leave a row locked or
 * leased for the whole lease over one lost connection. The write must be safe to run again after an
 * attempt that committed but whose answer was lost: the caller guards it (for example with a
 * `where` the first commit no longer matches). An aborted signal ends the wait at once and rethrows
 * the last error, so stop() never waits out a backoff.
 */
export interface RetryWriteOptions {
  /** The waits before each retry; its length is the number of retries. */
  delaysMs: readonly number[];
  /** Told of every failed attempt, before the wait (or before giving up: `willRetry` false). */
  onFailure(error: unknown, attempt: number, willRetry: boolean): void;
  signal?: AbortSignal;
}

export async function retryWrite<T>(write: () => Promise<T>, options: RetryWriteOptions): Promise<T> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await write();
    } catch (error) {
      const delay = options.delaysMs[attempt - 1];
      const willRetry = delay !== undefined && options.signal?.aborted !== true;
      options.onFailure(error, attempt, willRetry);
      if (!willRetry) throw error;
      if (!(await wait(delay, options.signal))) throw error;
    }
  }
}

/** Resolves true after `ms`, or false as soon as the signal aborts. */
function wait(ms: number, signal: AbortSignal | undefined): Promise<boolean> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => finish(true), ms);
    // A retry wait never keeps the process alive on its own.
    timer.unref();
    const onAbort = () => finish(false);
    signal?.addEventListener('abort', onAbort, { once: true });
    function finish(elapsed: boolean) {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      resolve(elapsed);
    }
  });
}

/**
 * A restartable worker's stop state and the signal its retryWrite calls take: stop() aborts the
 * signal, so a retry waiting out a backoff gives up at once, and start() after a stop arms a fresh
 * one (an aborted signal stays aborted). `stopped` is true from stop() until the next start().
 */
export interface StopSwitch {
  readonly stopped: boolean;
  /** Read when a retryWrite starts: a later start() does not revive a wait stop() ended. */
  readonly signal: AbortSignal;
  start(): void;
  stop(): void;
}

export function createStopSwitch(): StopSwitch {
  let controller = new AbortController();
  return {
    get stopped() {
      return controller.signal.aborted;
    },
    get signal() {
      return controller.signal;
    },
    start() {
      if (controller.signal.aborted) controller = new AbortController();
    },
    stop() {
      controller.abort();
    },
  };
}
