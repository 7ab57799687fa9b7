import * as z from 'zod';
import { Track, Verdict } from '../enums.js';
import { RoundId } from '../ids.js';
import { OffsetTimestamp } from '../timestamps.js';
import { RepositoryVerifiedEvent } from './repositories.js';

/**
 * Version of the event envelope and payloads below. A breaking change to any of them is a new
 * version; adding a field is not (receivers must ignore fields they do not know).
 */
export const WEBHOOK_EVENT_VERSION = 1;

const Sha256Hash = z.string().regex(/^sha256:[0-9a-f]{64}$/);

/** `verdict.changed`: a live artifact's published verdict changed at a round's close. */
export const VerdictChangedData = z.object({
  bundle_hash: z.string(),
  track: Track,
  verdict: Verdict,
  /** Null on the artifact's first publication. */
  previous_verdict: Verdict.nullable(),
  risk_score: z.number(),
  round_id: RoundId,
  changed_at: OffsetTimestamp,
});
export type VerdictChangedData = z.infer<typeof VerdictChangedData>;

/** `attestation.created`: a validator's signed attestation was recorded. */
export const AttestationCreatedData = z.object({
  canonical_hash: Sha256Hash,
  round_id: RoundId,
  task_id: z.string(),
  track: Track,
  miner_hotkey: z.string(),
  validator_hotkey: z.string(),
  verdict: Verdict,
  risk_score: z.number(),
  bundle_hash: z.string(),
  /** The validator's own time, as signed. */
  created_at: z.string(),
  recorded_at: OffsetTimestamp,
});
export type AttestationCreatedData = z.infer<typeof AttestationCreatedData>;

/** `repository.verified`: a push (or first verification) of a repository was verified. */
export const RepositoryVerifiedData = RepositoryVerifiedEvent;
export type RepositoryVerifiedData = z.infer<typeof RepositoryVerifiedData>;

/** `round.closed`: a round closed and its results were published. */
export const RoundClosedData = z.object({
  round_id: RoundId,
  track: Track,
  round_number: z.int().min(1),
  closed_at: OffsetTimestamp,
  /** Agents with a published score. */
  scored_agents: z.int().min(0),
  /** Hotkey of the winning agent; null when no agent was scored. */
  winner_hotkey: z.string().nullable(),
  /** Published verdicts that changed at this close (each also a `verdict.changed`). */
  verdict_changes: z.int().min(0),
});
export type RoundClosedData = z.infer<typeof RoundClosedData>;

/** `webhook.disabled`: Vigil disabled one of the organization's endpoints. */
export const WebhookDisabledData = z.object({
  webhook: z.string().regex(/^wh_[A-Za-z0-9]+$/),
  url: z.string(),
  /** `gone` (the endpoint answered 410) or `failing` (every delivery failed for 5 days). */
  reason: z.enum(['gone', 'failing']),
  disabled_at: OffsetTimestamp,
});
export type WebhookDisabledData = z.infer<typeof WebhookDisabledData>;

/** `webhook.test`: sent on request to one endpoint (never subscribed to, never in the events feed). */
export const WebhookTestData = z.object({
  webhook: z.string().regex(/^wh_[A-Za-z0-9]+$/),
  message: z.string(),
  requested_at: OffsetTimestamp,
});
export type WebhookTestData = z.infer<typeof WebhookTestData>;

function envelope<K extends string, D extends z.ZodType>(type: K, data: D) {
  return z.object({
    /** Event id (UUID): the same in every delivery of this event and in the events feed. */
    id: z.uuid(),
    type: z.literal(type),
    version: z.literal(WEBHOOK_EVENT_VERSION),
    /** When the change happened (the causing transaction's time): authoritative for ordering. */
    created_at: OffsetTimestamp,
    /**
     * The resource the event is about, `<kind>:<id>`: `artifact:<bundle_hash>`,
     * `attestation:<canonical_hash>`, `repository:<repo_…>`, `round:<round_id>`, `webhook:<wh_…>`.
     */
    resource: z.string(),
    /** 1, 2, 3 … per resource in commit order: a gap tells a receiver an event is missing. */
    sequence: z.int().min(1),
    data,
  });
}

export const VerdictChangedEvent = envelope('verdict.changed', VerdictChangedData);
export const AttestationCreatedEvent = envelope('attestation.created', AttestationCreatedData);
export const RepositoryVerifiedWebhookEvent = envelope('repository.verified', RepositoryVerifiedData);
export const RoundClosedEvent = envelope('round.closed', RoundClosedData);
export const WebhookDisabledEvent = envelope('webhook.disabled', WebhookDisabledData);
export const WebhookTestEvent = envelope('webhook.test', WebhookTestData);

/** Every event body Vigil delivers (and `GET /v1/events` lists, `webhook.test` aside), by `type`. */
export const WebhookEvent = z.discriminatedUnion('type', [
  VerdictChangedEvent,
  AttestationCreatedEvent,
  RepositoryVerifiedWebhookEvent,
  RoundClosedEvent,
  WebhookDisabledEvent,
  WebhookTestEvent,
]);
export type WebhookEvent = z.infer<typeof WebhookEvent>;
export type WebhookEventType = WebhookEvent['type'];
export type WebhookEventOf<T extends WebhookEventType> = Extract<WebhookEvent, { type: T }>;
