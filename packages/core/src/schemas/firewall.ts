import * as z from 'zod';
import { OffsetTimestamp } from '../timestamps.js';

// The registry firewall's decisions, counted per account (docs/firewall.md "Decision counts"): a
// firewall (`vigil firewall`, `vigil-server firewall`) reports each decision it made with the key
// that decided it, and the account reads them back as counts per day and recent refusals.

export const FIREWALL_DECISIONS = ['allow', 'block', 'filter'] as const;
export const FirewallDecisionKind = z.enum(FIREWALL_DECISIONS);
export type FirewallDecisionKind = z.infer<typeof FirewallDecisionKind>;

/**
 * What a decision's reason says, as a class the counts group by: the log's `reason` text carries
 * details (failed checks, hidden versions, the error) that would make every reason its own group.
 */
export const FIREWALL_REASON_KINDS = ['verdict', 'policy', 'undecided', 'vigil_unavailable', 'hidden', 'filtered'] as const;
export const FirewallReasonKind = z.enum(FIREWALL_REASON_KINDS);
export type FirewallReasonKind = z.infer<typeof FirewallReasonKind>;

/** The class of a decision log `reason` (docs/firewall.md "The decision log"). */
export function firewallReasonKind(reason: string): FirewallReasonKind {
  if (reason.startsWith('verdict ')) return 'verdict';
  if (reason.startsWith('policy ')) return 'policy';
  if (reason.startsWith('Vigil unavailable')) return 'vigil_unavailable';
  if (reason.startsWith('every version is hidden') || reason.startsWith('every file is hidden')) return 'hidden';
  if (/^\d+ of \d+ (versions|files) hidden$/.test(reason)) return 'filtered';
  return 'undecided';
}

/** One line of the decision log, as a firewall reports it (the `client` address is not sent). */
export const FirewallDecisionReport = z.strictObject({
  time: OffsetTimestamp,
  ecosystem: z.enum(['npm', 'pypi']),
  package: z.string().min(1).max(300),
  version: z.string().min(1).max(300).nullable(),
  decision: FirewallDecisionKind,
  reason: z.string().min(1).max(2000),
  verdict: z.enum(['ALLOW', 'WARN', 'BLOCK']).nullable(),
  policy: z.string().min(1).max(100),
  mode: z.enum(['fail-open', 'fail-closed', 'wait']),
  request_id: z.string().regex(/^fw_[A-Za-z0-9_-]{1,64}$/, 'expected fw_ and up to 64 URL-safe base64 characters'),
});
export type FirewallDecisionReport = z.infer<typeof FirewallDecisionReport>;

/** `POST /v1/firewall/decisions`: up to 500 decisions a call. */
export const FirewallDecisionsRequest = z.strictObject({ decisions: z.array(FirewallDecisionReport).min(1).max(500) });
export type FirewallDecisionsRequest = z.infer<typeof FirewallDecisionsRequest>;

export const FirewallDecisionsRecorded = z.object({
  data: z.object({
    /** Decisions stored by this call. */
    recorded: z.int().min(0),
    /** Decisions whose `request_id` the account had already reported (a retried call): counted once. */
    duplicates: z.int().min(0),
  }),
});
export type FirewallDecisionsRecorded = z.infer<typeof FirewallDecisionsRecorded>;

/** `GET /v1/firewall/stats?days=`: the last `days` UTC days, today included (default 30, at most 90). */
export const FirewallStatsQuery = z.strictObject({ days: z.coerce.number().int().min(1).max(90).default(30) });
export type FirewallStatsQuery = z.infer<typeof FirewallStatsQuery>;

const Counts = z.object({ allow: z.int().min(0), block: z.int().min(0), filter: z.int().min(0) });

export const FirewallStats = z.object({
  data: z.object({
    /** The first day counted (UTC, `YYYY-MM-DD`). */
    since: z.string(),
    totals: Counts,
    /** One entry per day with at least one decision, oldest first. */
    days: z.array(Counts.extend({ day: z.string() })),
    /** Decisions by decision and reason class, most first. */
    reasons: z.array(z.object({ decision: FirewallDecisionKind, reason_kind: FirewallReasonKind, count: z.int().min(1) })),
    /** The 20 packages with the most refusals (`block`), most first. */
    packages: z.array(z.object({ ecosystem: z.enum(['npm', 'pypi']), package: z.string(), block: z.int().min(0), allow: z.int().min(0), filter: z.int().min(0) })),
    /** The 20 newest refusals. */
    recent_refusals: z.array(
      z.object({
        time: OffsetTimestamp,
        ecosystem: z.enum(['npm', 'pypi']),
        package: z.string(),
        version: z.string().nullable(),
        reason: z.string(),
        reason_kind: FirewallReasonKind,
        verdict: z.enum(['ALLOW', 'WARN', 'BLOCK']).nullable(),
        policy: z.string(),
        request_id: z.string(),
      }),
    ),
  }),
});
export type FirewallStats = z.infer<typeof FirewallStats>;
