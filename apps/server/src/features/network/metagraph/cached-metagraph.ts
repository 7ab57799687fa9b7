import type { MetagraphSnapshot } from '@vigil/core';
import { errorSummary } from './metagraph-error.js';
import type { MetagraphSource } from './metagraph-source.js';
import { lookupHotkey } from './lookup-hotkey.js';

export const METAGRAPH_DEFAULTS = {
  /** VIGIL_METAGRAPH_TTL_S: how long a read is served before the source is asked again. */
  ttlSeconds: 300,
  /** VIGIL_METAGRAPH_MAX_STALENESS_S: how old the last good read may get while refreshes fail. */
  maxStalenessSeconds: 3600,
  /** After a failed refresh, requests are not held up by another attempt for this long. */
  retryIntervalSeconds: 30,
} as const;

export type PermitCheck =
  | { status: 'ok'; uid: number; validatorPermit: boolean }
  | { status: 'not_registered' }
  | { status: 'unavailable'; reason: string };

export interface CachedMetagraphOptions {
  source: MetagraphSource;
  ttlSeconds?: number;
  maxStalenessSeconds?: number;
  retryIntervalSeconds?: number;
  /** Clock in milliseconds since the epoch; tests pass a controllable one. */
  now?: () => number;
  /** Told about every failed refresh, e.g. to log it; the cache itself decides what to serve. */
  onRefreshError?: (error: unknown) => void;
}

function seconds(value: number | undefined, fallback: number, argument: string): number {
  const chosen = value ?? fallback;
  if (typeof chosen !== 'number' || !Number.isFinite(chosen) || chosen < 0) {
    throw new RangeError(`${argument}: expected a number of seconds ≥ 0, got ${String(value)}`);
  }
  return chosen;
}

/**
 * The metagraph as permit checks see it (spec part 5 item 8): reads are cached for `ttlSeconds`;
 * when a refresh fails the last good snapshot keeps serving until it is older than
 * `maxStalenessSeconds`, after which checks answer `unavailable`. Age is measured from the moment a
 * snapshot was successfully obtained from the source, not from its `taken_at`.
 */
export class CachedMetagraph {
  readonly source: MetagraphSource;
  readonly ttlSeconds: number;
  readonly maxStalenessSeconds: number;
  readonly retryIntervalSeconds: number;
  readonly #now: () => number;
  readonly #onRefreshError: ((error: unknown) => void) | undefined;
  #last: { snapshot: MetagraphSnapshot; fetchedAt: number } | null = null;
  #failure: { at: number; error: unknown } | null = null;
  #inFlight: Promise<MetagraphSnapshot> | null = null;
  #timer: ReturnType<typeof setInterval> | null = null;

  constructor(options: CachedMetagraphOptions) {
    if (!options || typeof options.source?.snapshot !== 'function') {
      throw new TypeError('options.source: expected a MetagraphSource');
    }
    this.source = options.source;
    this.ttlSeconds = seconds(options.ttlSeconds, METAGRAPH_DEFAULTS.ttlSeconds, 'options.ttlSeconds');
    this.maxStalenessSeconds = seconds(
      options.maxStalenessSeconds,
      METAGRAPH_DEFAULTS.maxStalenessSeconds,
      'options.maxStalenessSeconds',
    );
    if (this.maxStalenessSeconds < this.ttlSeconds) {
      throw new RangeError(
        `options.maxStalenessSeconds: ${this.maxStalenessSeconds} is below options.ttlSeconds ${this.ttlSeconds}; a snapshot would expire before it is due for refresh`,
      );
    }
    this.retryIntervalSeconds = seconds(
      options.retryIntervalSeconds,
      Math.min(METAGRAPH_DEFAULTS.retryIntervalSeconds, this.ttlSeconds),
      'options.retryIntervalSeconds',
    );
    this.#now = options.now ?? Date.now;
    this.#onRefreshError = options.onRefreshError;
  }

  /** Whether `hotkey` is registered on the netuid and holds a validator permit there. */
  async check(hotkey: string): Promise<PermitCheck> {
    if (typeof hotkey !== 'string' || hotkey.length === 0) throw new TypeError('hotkey: expected an ss58 address string');
    const current = await this.current();
    if ('reason' in current) return { status: 'unavailable', reason: current.reason };
    const found = lookupHotkey(current.snapshot, hotkey);
    if (!found.registered || found.uid === null) return { status: 'not_registered' };
    return { status: 'ok', uid: found.uid, validatorPermit: found.validatorPermit };
  }

  /** The snapshot checks use right now, refreshing first when the cached one is past its ttl. */
  async current(): Promise<{ snapshot: MetagraphSnapshot } | { reason: string }> {
    const last = this.#last;
    if (last && this.#now() - last.fetchedAt < this.ttlSeconds * 1000) return { snapshot: last.snapshot };

    const failure = this.#failure;
    const mayRetry =
      this.#inFlight !== null || !failure || this.#now() - failure.at >= this.retryIntervalSeconds * 1000;
    if (mayRetry) {
      try {
        return { snapshot: await this.refresh() };
      } catch {
        // Recorded by refresh(); fall back to the last good snapshot below.
      }
    }

    const fallback = this.#last;
    const problem = this.#failure ? errorSummary(this.#failure.error) : 'no refresh has succeeded';
    if (!fallback) {
      return { reason: `no metagraph snapshot has been read from ${this.source.description}: ${problem}` };
    }
    const age = (this.#now() - fallback.fetchedAt) / 1000;
    if (age <= this.maxStalenessSeconds) return { snapshot: fallback.snapshot };
    return {
      reason: `last metagraph snapshot (block ${fallback.snapshot.block}) is ${Math.floor(age)} s old, beyond the ${this.maxStalenessSeconds} s staleness limit; refreshing from ${this.source.description} failed: ${problem}`,
    };
  }

  /**
   * Reads the source now (ignoring the ttl) and caches the result. Concurrent callers share one
   * read. Rejects with the source's error, which is also remembered for `lastError()`.
   */
  refresh(): Promise<MetagraphSnapshot> {
    if (this.#inFlight) return this.#inFlight;
    // Starting the read in a later microtask keeps #inFlight set even if the source throws synchronously.
    const attempt = Promise.resolve()
      .then(() => this.source.snapshot())
      .then(
        (snapshot) => {
          this.#last = { snapshot, fetchedAt: this.#now() };
          this.#failure = null;
          return snapshot;
        },
        (error: unknown) => {
          this.#failure = { at: this.#now(), error };
          try {
            this.#onRefreshError?.(error);
          } catch {
            // A failing logger must not turn a served fallback into an error.
          }
          throw error;
        },
      )
      .finally(() => {
        this.#inFlight = null;
      });
    this.#inFlight = attempt;
    return attempt;
  }

  /**
   * Refreshes on a timer at 80% of the ttl (at least every second), so the cached snapshot is
   * renewed before it expires and no request waits on the chain; a failed refresh is recorded (and
   * reported to `onRefreshError`) and the next tick tries again. The timer does not hold the
   * process open. Idempotent; `stopRefreshing` ends it.
   */
  startRefreshing(): void {
    if (this.#timer !== null) return;
    const intervalMs = Math.max(1_000, Math.floor(this.ttlSeconds * 800));
    this.#timer = setInterval(() => {
      this.refresh().catch(() => {
        // Recorded by refresh(); requests fall back to the last good snapshot within the staleness limit.
      });
    }, intervalMs);
    this.#timer.unref();
  }

  stopRefreshing(): void {
    if (this.#timer !== null) clearInterval(this.#timer);
    this.#timer = null;
  }

  /** The last snapshot read successfully, however old, or null before the first success. */
  lastSnapshot(): MetagraphSnapshot | null {
    return this.#last?.snapshot ?? null;
  }

  /** Seconds since the last successful read, or null before the first success. */
  ageSeconds(): number | null {
    return this.#last ? Math.max(0, (this.#now() - this.#last.fetchedAt) / 1000) : null;
  }

  /** The error of the latest refresh if it failed; null once a refresh succeeds. */
  lastError(): unknown {
    return this.#failure?.error ?? null;
  }
}
