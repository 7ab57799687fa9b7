import { FirewallDecisionsRecorded, FirewallStats, type FirewallDecisionReport } from '@vigil/core';
import type { Dated } from '../dates.js';
import type { CallOptions, Transport } from '../transport.js';
import { call } from './shared.js';

type StatsData = typeof FirewallStats.shape.data;
type RecordedData = typeof FirewallDecisionsRecorded.shape.data;

/** `/v1/firewall/*` (docs/firewall.md "Decision counts"): the registry firewall's decisions per account. */
export class FirewallResource {
  constructor(private readonly transport: Transport) {}

  /**
   * Reports decision log lines (up to 500 a call; scope `verify`, `paid` plan). Safe to repeat: a
   * `request_id` the account already reported is counted once (`duplicates`).
   */
  async report(decisions: FirewallDecisionReport[], options?: CallOptions): Promise<Dated<RecordedData>> {
    return (await call(this.transport, { method: 'POST', path: '/v1/firewall/decisions', body: { json: { decisions } }, schema: FirewallDecisionsRecorded, repeatable: 'safe' }, options)).data;
  }

  /** Counts over the last `days` UTC days (default 30, at most 90): per day, per reason class, the most refused packages, the newest refusals (scope `read`). */
  async stats(params: { days?: number } = {}, options?: CallOptions): Promise<Dated<StatsData>> {
    const query = params.days === undefined ? {} : { days: String(params.days) };
    return (await call(this.transport, { method: 'GET', path: '/v1/firewall/stats', query, schema: FirewallStats, repeatable: 'safe' }, options)).data;
  }
}
