import { Vigil, VigilApiError, VigilError } from '@vigil/client';
import { VigilUnavailable } from './verdict-source.js';

/** What `POST /v1/policies/evaluate` answered for one reference, the fields a decision reads. */
export interface PolicyAnswer {
  reference: string;
  purl: string;
  state: 'decided' | 'pending';
  verdict: 'allow' | 'warn' | 'block';
  score: number;
  failed: string[];
  warnings: string[];
  fetch: { state: string; reason: string | null } | null;
}

/**
 * Downloads judged by a named policy of the key's organization (docs/policies.md): one evaluation
 * per reference, concurrent requests for one reference sharing it, answers reused like verdicts
 * (`cacheSeconds` decided, `pendingCacheSeconds` pending).
 */
export class PolicySource {
  private readonly client: Vigil;
  private readonly cache = new Map<string, { value: PolicyAnswer; until: number }>();
  private readonly inFlight = new Map<string, Promise<PolicyAnswer | VigilUnavailable>>();

  constructor(
    options: { vigilUrl: string; apiKey: string; timeoutMs: number },
    readonly policy: string,
    private readonly ttlMs: number,
    private readonly pendingTtlMs: number,
    private readonly now: () => number,
  ) {
    this.client = new Vigil({ baseUrl: options.vigilUrl, apiKey: options.apiKey, timeout: options.timeoutMs, maxRetries: 1, retryBudget: options.timeoutMs * 2 });
  }

  evaluate(reference: string, fresh = false): Promise<PolicyAnswer | VigilUnavailable> {
    if (!fresh) {
      const hit = this.cache.get(reference);
      if (hit && hit.until > this.now()) return Promise.resolve(hit.value);
      const pending = this.inFlight.get(reference);
      if (pending) return pending;
    }
    const promise = this.ask(reference);
    this.inFlight.set(reference, promise);
    void promise.then(() => {
      if (this.inFlight.get(reference) === promise) this.inFlight.delete(reference);
    });
    return promise;
  }

  private async ask(reference: string): Promise<PolicyAnswer | VigilUnavailable> {
    try {
      const e = await this.client.policies.evaluate({ artifact: reference, policy: this.policy });
      const value: PolicyAnswer = {
        reference,
        purl: e.purl,
        state: e.state,
        verdict: e.verdict,
        score: e.score,
        failed: e.details.failed,
        warnings: e.details.warnings,
        fetch: e.fetch ? { state: e.fetch.state, reason: e.fetch.reason } : null,
      };
      const ttl = value.state === 'decided' ? this.ttlMs : this.pendingTtlMs;
      if (ttl > 0) this.cache.set(reference, { value, until: this.now() + ttl });
      if (this.cache.size > 50_000) for (const [key, entry] of this.cache) if (entry.until <= this.now()) this.cache.delete(key);
      return value;
    } catch (error) {
      if (error instanceof VigilApiError) return new VigilUnavailable(`Vigil answered ${error.status}: ${error.detail}`);
      return new VigilUnavailable(error instanceof VigilError || error instanceof Error ? error.message : String(error));
    }
  }
}
