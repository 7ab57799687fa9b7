import * as z from 'zod';
import { TRACKS, WEBHOOK_EVENT_KINDS } from '../enums.js';
import { Hotkey, RoundId } from '../ids.js';
import { OffsetTimestamp } from '../timestamps.js';
import { MAX_ALLOWED_IPS } from './validators.js';

// The operator's side of the admin API (docs/accounts.md, "Admin API") and idempotent requests
// (docs/idempotency.md). Every timestamp here is the offset family.

/** What an admin action can make of a validator, and from which statuses (anything else is 409). */
export const VALIDATOR_ADMIN_ACTIONS = ['approve', 'suspend', 'revoke', 'restore'] as const;
export const ValidatorAdminAction = z.enum(VALIDATOR_ADMIN_ACTIONS);
export type ValidatorAdminAction = z.infer<typeof ValidatorAdminAction>;

export const VALIDATOR_STATUSES = ['pending', 'active', 'suspended', 'revoked'] as const;
export const ValidatorStatusValue = z.enum(VALIDATOR_STATUSES);
export type ValidatorStatusValue = z.infer<typeof ValidatorStatusValue>;

/** A validator record as the operator sees it. */
export const AdminValidator = z.object({
  hotkey: z.string(),
  uid: z.int().min(0),
  status: ValidatorStatusValue,
  allowed_ips: z.array(z.string()),
  registered_at: OffsetTimestamp,
  last_seen_at: OffsetTimestamp.nullable(),
});
export type AdminValidator = z.infer<typeof AdminValidator>;

export const AdminValidatorList = z.object({ validators: z.array(AdminValidator) });
export type AdminValidatorList = z.infer<typeof AdminValidatorList>;

export const ValidatorHotkeyParams = z.object({ hotkey: Hotkey });
export type ValidatorHotkeyParams = z.infer<typeof ValidatorHotkeyParams>;

/** An IPv4 or IPv6 address, written without a prefix length. */
export const IpAddress = z.union([z.ipv4(), z.ipv6()], { error: 'expected an IPv4 or IPv6 address' });

/** `POST /v1/admin/validators/{hotkey}/allowlist`: replaces the allowlist (as many as registration allows). */
export const ValidatorAllowlistRequest = z.strictObject({
  allowed_ips: z.array(IpAddress).min(1).max(MAX_ALLOWED_IPS),
});
export type ValidatorAllowlistRequest = z.infer<typeof ValidatorAllowlistRequest>;

/** The answer to an uploaded metagraph snapshot. */
export const MetagraphUploaded = z.object({
  netuid: z.int().min(0),
  block: z.int().min(0),
  neurons: z.int().min(0),
  validator_permits: z.int().min(0),
});
export type MetagraphUploaded = z.infer<typeof MetagraphUploaded>;

/** The latest round of a track, as the scheduler sees it. */
export const AdminRoundView = z.object({
  round_id: z.string(),
  round_number: z.int().min(1),
  status: z.enum(['open', 'closed']),
  phase: z.enum(['submission', 'evaluation', 'complete']),
  policy_version: z.string(),
  opened_at: OffsetTimestamp,
  submission_closes_at: OffsetTimestamp,
  closes_at: OffsetTimestamp,
  closed_at: OffsetTimestamp.nullable(),
  /** True when a deadline of the current phase has passed and the scheduler has not acted on it yet. */
  overdue: z.boolean(),
});
export type AdminRoundView = z.infer<typeof AdminRoundView>;

export const AdminTrackSchedule = z.object({
  track: z.enum(TRACKS),
  /** The track's latest round; null before its first. */
  current: AdminRoundView.nullable(),
  /**
   * When the track's next round opens: the stored time for a closed round, the planned close plus
   * the gap for an open one, null when it opens at the scheduler's next step (no round yet).
   */
  next_round_opens_at: OffsetTimestamp.nullable(),
});
export type AdminTrackSchedule = z.infer<typeof AdminTrackSchedule>;

export const AdminRoundSchedule = z.object({
  server_time: OffsetTimestamp,
  settings: z.object({
    submission_s: z.int(),
    evaluation_s: z.int(),
    gap_s: z.int(),
    interval_s: z.int(),
    policy_version: z.string(),
  }),
  tracks: z.array(AdminTrackSchedule),
});
export type AdminRoundSchedule = z.infer<typeof AdminRoundSchedule>;

export const AdminRoundParams = z.object({ round_id: RoundId });
export type AdminRoundParams = z.infer<typeof AdminRoundParams>;

/** `POST /v1/admin/rounds/{round_id}/close`; an empty body is `{}`. */
export const AdminRoundCloseRequest = z.strictObject({ force: z.boolean().default(false) }).default({ force: false });
export type AdminRoundCloseRequest = z.output<typeof AdminRoundCloseRequest>;

export const AdminRoundClosed = z.object({
  round_id: z.string(),
  track: z.enum(TRACKS),
  round_number: z.int().min(1),
  status: z.literal('closed'),
  phase: z.literal('complete'),
  closed_at: OffsetTimestamp,
  next_round_opens_at: OffsetTimestamp,
  forced: z.boolean(),
  /** Agents ranked (those a validator could score). */
  scored: z.int().min(0),
  /** Hotkeys of the winners, best first. */
  winners: z.array(z.string()),
  verdict_changes: z.int().min(0),
});
export type AdminRoundClosed = z.infer<typeof AdminRoundClosed>;

/** `GET /v1/admin/outbox`: webhook events not yet fanned out into deliveries, and the deliveries' backlog. */
export const OutboxBacklog = z.object({
  /** Every event retained (VIGIL_EVENT_RETENTION_DAYS), fanned out or not. */
  total: z.int().min(0),
  /** Events not yet fanned out into deliveries. */
  undelivered: z.int().min(0),
  /** Those per kind; every kind is listed, 0 included. */
  undelivered_by_kind: z.record(z.enum(WEBHOOK_EVENT_KINDS), z.int().min(0)),
  oldest_undelivered_at: OffsetTimestamp.nullable(),
  /** Deliveries waiting (due or retrying, paused endpoints' included), being sent, and failed (retained). */
  deliveries: z.object({
    pending: z.int().min(0),
    delivering: z.int().min(0),
    failed: z.int().min(0),
    oldest_pending_at: OffsetTimestamp.nullable(),
  }),
});
export type OutboxBacklog = z.infer<typeof OutboxBacklog>;

/** The counts one `vigil-server advisories import` printed (docs/advisories.md). */
export const AdvisoryImportCounts = z.object({
  files: z.int().min(0),
  read: z.int().min(0),
  imported: z.int().min(0),
  updated: z.int().min(0),
  unchanged: z.int().min(0),
  older: z.int().min(0),
  withdrawn: z.int().min(0),
  other_ecosystems: z.int().min(0),
  invalid: z.int().min(0),
});
export type AdvisoryImportCounts = z.infer<typeof AdvisoryImportCounts>;

/** `GET /v1/admin/advisories`: what the OSV import has stored (docs/advisories.md). */
export const AdminAdvisoryStatus = z.object({
  /** Stored advisories, withdrawn ones included. */
  advisories: z.int().min(0),
  withdrawn: z.int().min(0),
  /** Distinct packages with at least one advisory that is not withdrawn. */
  packages: z.object({ npm: z.int().min(0), pypi: z.int().min(0) }),
  last_import: z
    .object({ source: z.string(), started_at: OffsetTimestamp, finished_at: OffsetTimestamp, counts: AdvisoryImportCounts })
    .nullable(),
});
export type AdminAdvisoryStatus = z.infer<typeof AdminAdvisoryStatus>;

/** Request and response headers of idempotent requests (docs/idempotency.md). */
export const IDEMPOTENCY_HEADERS = {
  key: 'Idempotency-Key',
  replayed: 'Idempotent-Replayed',
} as const;

/** How long a stored result answers repeats of its key. */
export const IDEMPOTENCY_KEY_TTL_MS = 24 * 60 * 60 * 1000;

/** 1–255 printable ASCII characters (space to `~`); a UUID v4 is the usual choice. */
export const IdempotencyKey = z
  .string()
  .min(1)
  .max(255)
  .regex(/^[\x20-\x7e]+$/, 'expected 1-255 printable ASCII characters');
export type IdempotencyKey = z.infer<typeof IdempotencyKey>;
