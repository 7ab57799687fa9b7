import { Vigil } from '@vigil/client';
import type { FirewallDecisionReport } from '@vigil/core';
import type { DecisionLogEntry } from './firewall-options.js';

/** Decisions per report call: the endpoint's maximum. */
const BATCH = 500;
/** A decision waits at most this long before it is reported. */
const FLUSH_MS = 1_000;

/**
 * Reports one key's decisions to `POST /v1/firewall/decisions` (docs/firewall.md "Decision
 * counts"), batched: a report a second at most (or at once at 500), so an install's thousand
 * decisions cost a few calls. A report Vigil does not take (down, refusing) is dropped after the
 * client's one retry: the counts are a summary, and the decision log has every line.
 */
export class DecisionReporter {
  private readonly client: Vigil;
  private queue: FirewallDecisionReport[] = [];
  private timer: NodeJS.Timeout | null = null;
  private readonly sending = new Set<Promise<void>>();
  /** Decisions Vigil took, and decisions dropped (for the tests and the operator's log). */
  reported = 0;
  dropped = 0;

  constructor(options: { vigilUrl: string; apiKey: string; timeoutMs: number }, private readonly onDrop: (why: string, count: number) => void = () => {}) {
    this.client = new Vigil({ baseUrl: options.vigilUrl, apiKey: options.apiKey, timeout: options.timeoutMs, maxRetries: 1, retryBudget: options.timeoutMs * 2 });
  }

  add(entry: DecisionLogEntry): void {
    // The client's address stays in the local log; `hidden` and the caller are not part of the report.
    this.queue.push({ time: entry.time, ecosystem: entry.ecosystem, package: entry.package, version: entry.version, decision: entry.decision, reason: entry.reason, verdict: entry.verdict, policy: entry.policy, mode: entry.mode, request_id: entry.request_id });
    if (this.queue.length >= BATCH) this.flush();
    else if (this.timer === null) {
      this.timer = setTimeout(() => this.flush(), FLUSH_MS);
      this.timer.unref();
    }
  }

  private flush(): void {
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
    while (this.queue.length > 0) {
      const batch = this.queue.splice(0, BATCH);
      const sent = this.client.firewall
        .report(batch)
        .then(
          () => {
            this.reported += batch.length;
          },
          (error: unknown) => {
            this.dropped += batch.length;
            this.onDrop(error instanceof Error ? error.message : String(error), batch.length);
          },
        )
        .finally(() => this.sending.delete(sent));
      this.sending.add(sent);
    }
  }

  /** Sends what is queued and waits for every report under way (the firewall closing). */
  async close(): Promise<void> {
    this.flush();
    await Promise.all([...this.sending]);
  }
}
