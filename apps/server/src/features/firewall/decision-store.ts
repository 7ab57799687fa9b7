import { firewallReasonKind, formatOffsetTimestamp, type FirewallDecisionReport, type FirewallStats } from '@vigil/core';
import { sql, type Kysely } from 'kysely';
import type { Database } from '../../platform/db/schema.js';

// The firewall's decisions per account (docs/firewall.md "Decision counts"): stored as reported,
// counted by day, decision and reason class on read.

/** Decisions are kept this many days: the longest `GET /v1/firewall/stats?days=` reads. */
export const RETENTION_DAYS = 90;
const DAY_MS = 86_400_000;

export const utcDay = (ms: number): string => new Date(ms).toISOString().slice(0, 10);

/** Stores `decisions` for the account; a `request_id` it already has is a duplicate (a retried report), not stored again. */
export async function recordDecisions(db: Kysely<Database>, accountId: string, decisions: readonly FirewallDecisionReport[], now: number): Promise<{ recorded: number; duplicates: number }> {
  // One report may name a request twice (a firewall retrying inside one batch): the first counts.
  const unique = [...new Map(decisions.map((d) => [d.request_id, d])).values()];
  const rows = unique.map((d) => {
    const decidedAt = Date.parse(d.time);
    return {
      account_id: accountId,
      request_id: d.request_id,
      decided_at: decidedAt,
      day: utcDay(decidedAt),
      ecosystem: d.ecosystem,
      package: d.package,
      version: d.version,
      decision: d.decision,
      reason: d.reason,
      reason_kind: firewallReasonKind(d.reason),
      verdict: d.verdict,
      policy: d.policy,
      mode: d.mode,
      created_at: now,
    };
  });
  const before = await countOf(db, accountId, unique.map((d) => d.request_id));
  await db.insertInto('firewall_decisions').values(rows).onConflict((oc) => oc.columns(['account_id', 'request_id']).doNothing()).execute();
  // Retention: the account's rows older than the longest window anyone can read.
  await db.deleteFrom('firewall_decisions').where('account_id', '=', accountId).where('decided_at', '<', now - RETENTION_DAYS * DAY_MS).execute();
  return { recorded: unique.length - before, duplicates: decisions.length - (unique.length - before) };
}

async function countOf(db: Kysely<Database>, accountId: string, requestIds: string[]): Promise<number> {
  const row = await db
    .selectFrom('firewall_decisions')
    .select(sql<number>`count(*)`.as('n'))
    .where('account_id', '=', accountId)
    .where('request_id', 'in', requestIds)
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

type Counts = { allow: number; block: number; filter: number };
const zero = (): Counts => ({ allow: 0, block: 0, filter: 0 });

/** The account's counts over the last `days` UTC days, today included. */
export async function decisionStats(db: Kysely<Database>, accountId: string, days: number, now: number): Promise<FirewallStats['data']> {
  const since = utcDay(now - (days - 1) * DAY_MS);
  const scoped = db.selectFrom('firewall_decisions').where('account_id', '=', accountId).where('day', '>=', since);
  const byDay = await scoped.select(['day', 'decision', sql<number>`count(*)`.as('n')]).groupBy(['day', 'decision']).orderBy('day').execute();
  const byReason = await scoped.select(['decision', 'reason_kind', sql<number>`count(*)`.as('n')]).groupBy(['decision', 'reason_kind']).execute();
  const byPackage = await scoped.select(['ecosystem', 'package', 'decision', sql<number>`count(*)`.as('n')]).groupBy(['ecosystem', 'package', 'decision']).execute();
  const recent = await scoped.selectAll().where('decision', '=', 'block').orderBy('decided_at', 'desc').orderBy('request_id').limit(20).execute();

  const totals = zero();
  const dayMap = new Map<string, Counts>();
  for (const row of byDay) {
    const n = Number(row.n);
    const counts = dayMap.get(row.day) ?? zero();
    counts[row.decision] += n;
    totals[row.decision] += n;
    dayMap.set(row.day, counts);
  }
  const packages = new Map<string, { ecosystem: 'npm' | 'pypi'; package: string } & Counts>();
  for (const row of byPackage) {
    const key = `${row.ecosystem}:${row.package}`;
    const entry = packages.get(key) ?? { ecosystem: row.ecosystem, package: row.package, ...zero() };
    entry[row.decision] += Number(row.n);
    packages.set(key, entry);
  }
  return {
    since,
    totals,
    days: [...dayMap].map(([day, counts]) => ({ day, ...counts })),
    reasons: byReason
      .map((r) => ({ decision: r.decision, reason_kind: r.reason_kind as FirewallStats['data']['reasons'][number]['reason_kind'], count: Number(r.n) }))
      .sort((a, b) => b.count - a.count || a.decision.localeCompare(b.decision) || a.reason_kind.localeCompare(b.reason_kind)),
    packages: [...packages.values()]
      .filter((p) => p.block > 0)
      .sort((a, b) => b.block - a.block || a.package.localeCompare(b.package))
      .slice(0, 20),
    recent_refusals: recent.map((r) => ({
      time: formatOffsetTimestamp(Number(r.decided_at)),
      ecosystem: r.ecosystem,
      package: r.package,
      version: r.version,
      reason: r.reason,
      reason_kind: r.reason_kind as FirewallStats['data']['reasons'][number]['reason_kind'],
      verdict: r.verdict,
      policy: r.policy,
      request_id: r.request_id,
    })),
  };
}
