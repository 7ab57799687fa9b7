import { Vigil, VigilApiError, VigilError, VigilValidationError } from '@vigil/client';

/** What Vigil answered for one reference, the fields the firewall decides on. */
export interface Verdict {
  reference: string;
  purl: string;
  state: 'decided' | 'pending';
  verdict: 'ALLOW' | 'WARN' | 'BLOCK' | null;
  riskScore: number | null;
  findings: { total: number; bySeverity: Record<string, number>; byCategory: { category: string; count: number }[] } | null;
  fetch: { state: string; reason: string | null } | null;
  /** Set when Vigil refused the reference itself (422: a version it cannot name): undecided, with why. */
  refused?: string;
}

/** Vigil could not be asked (down, timing out, refusing the key): the firewall applies its mode. */
export class VigilUnavailable extends Error {}

export type Lookup = Verdict | VigilUnavailable;

/** References per call: the batch endpoint's maximum (docs/artifacts.md). */
const BATCH = 100;
/**
 * Batch calls in flight at once. Lookups that arrive while these are answered wait and go together
 * in the next call: under a big install's burst of packuments the calls grow instead of multiplying,
 * and a lone lookup still goes at once.
 */
const MAX_IN_FLIGHT = 2;

interface Cached {
  value: Verdict;
  until: number;
}

/**
 * Verdicts from `POST /v1/artifacts/verify/batch`, batched and cached. Every `lookup` made while a
 * call is being prepared (the same tick, or while two calls are already being answered; up to 100
 * references a call) joins one batch call, so an
 * install of many packages costs a few calls, never one sequential call per package; a reference
 * already being asked about waits for that call instead of asking again; answers are reused for
 * `cacheSeconds` (undecided ones for `pendingCacheSeconds`, 2 s by default).
 */
export class VerdictSource {
  private readonly client: Vigil;
  private readonly cache = new Map<string, Cached>();
  private readonly inFlight = new Map<string, Promise<Lookup>>();
  private queue: { reference: string; resolve: (value: Lookup) => void }[] = [];
  private scheduled = false;
  private inFlightCalls = 0;
  /** Calls made to Vigil, for the tests and the bench. */
  calls = 0;

  constructor(
    options: { vigilUrl: string; apiKey: string; timeoutMs: number },
    private readonly ttlMs: number,
    private readonly now: () => number,
    /** Undecided answers are reused this long: short, a verdict is published between rounds in seconds. */
    private readonly pendingTtlMs = 2_000,
  ) {
    // One retry: a package manager waits on this, and the firewall's mode decides what a failure means.
    this.client = new Vigil({ baseUrl: options.vigilUrl, apiKey: options.apiKey, timeout: options.timeoutMs, maxRetries: 1, retryBudget: options.timeoutMs * 2 });
  }

  /** Answers for `references` (short-form npm references), in order. `fresh` skips the cache (waiting for a verdict). */
  lookup(references: string[], fresh = false): Promise<Lookup[]> {
    return Promise.all(references.map((reference) => this.one(reference, fresh)));
  }

  private one(reference: string, fresh: boolean): Promise<Lookup> {
    if (!fresh) {
      const hit = this.cache.get(reference);
      if (hit && hit.until > this.now()) return Promise.resolve(hit.value);
      const pending = this.inFlight.get(reference);
      if (pending) return pending;
    }
    const promise = new Promise<Lookup>((resolve) => {
      this.queue.push({ reference, resolve });
      if (this.queue.length >= BATCH) this.flush();
      else if (!this.scheduled) {
        this.scheduled = true;
        setImmediate(() => this.flush());
      }
    });
    this.inFlight.set(reference, promise);
    void promise.then(() => {
      if (this.inFlight.get(reference) === promise) this.inFlight.delete(reference);
    });
    return promise;
  }

  private flush(): void {
    this.scheduled = false;
    while (this.queue.length > 0 && this.inFlightCalls < MAX_IN_FLIGHT) {
      const batch = this.queue.splice(0, BATCH);
      this.inFlightCalls++;
      void this.ask(batch).finally(() => {
        this.inFlightCalls--;
        if (this.queue.length > 0 && !this.scheduled) {
          this.scheduled = true;
          setImmediate(() => this.flush());
        }
      });
    }
  }

  private async ask(batch: { reference: string; resolve: (value: Lookup) => void }[]): Promise<void> {
    this.calls++;
    try {
      const { results } = await this.client.artifacts.verifyBatch(batch.map((b) => b.reference));
      batch.forEach((entry, i) => {
        const r = results[i]!;
        const value: Verdict = {
          reference: entry.reference,
          purl: r.artifact,
          state: r.state,
          verdict: r.verdict,
          riskScore: r.risk_score,
          findings: r.findings_summary ? { total: r.findings_summary.total, bySeverity: { ...r.findings_summary.by_severity }, byCategory: r.findings_summary.by_category } : null,
          fetch: r.fetch ? { state: r.fetch.state, reason: r.fetch.reason } : null,
        };
        const ttl = value.state === 'decided' ? this.ttlMs : this.pendingTtlMs;
        if (ttl > 0) this.cache.set(entry.reference, { value, until: this.now() + ttl });
        entry.resolve(value);
      });
      this.prune();
    } catch (error) {
      // One reference Vigil cannot name (a version a purl cannot hold) fails its whole batch: halve
      // the batch until the refused reference stands alone, and answer it as undecided.
      if (error instanceof VigilValidationError) {
        if (batch.length > 1) {
          const half = Math.ceil(batch.length / 2);
          await Promise.all([this.ask(batch.slice(0, half)), this.ask(batch.slice(half))]);
          return;
        }
        const entry = batch[0]!;
        entry.resolve({ reference: entry.reference, purl: entry.reference, state: 'pending', verdict: null, riskScore: null, findings: null, fetch: null, refused: error.detail });
        return;
      }
      const why = unavailableReason(error);
      for (const entry of batch) entry.resolve(new VigilUnavailable(why));
    }
  }

  /** Drops expired answers once the cache is large, so a long-running firewall does not grow without bound. */
  private prune(): void {
    if (this.cache.size < 50_000) return;
    const now = this.now();
    for (const [key, entry] of this.cache) if (entry.until <= now) this.cache.delete(key);
  }
}

function unavailableReason(error: unknown): string {
  if (error instanceof VigilApiError) return `Vigil answered ${error.status}: ${error.detail}`;
  if (error instanceof VigilError) return error.message;
  return error instanceof Error ? error.message : String(error);
}
