import * as z from 'zod';
import { WEBHOOK_EVENT_KINDS, WebhookEventKind } from '../enums.js';
import { OffsetTimestamp } from '../timestamps.js';
import { WebhookEvent } from './webhook-events.js';

/**
 * Where deliveries go (spec part 6: HTTPS). `http://` passes this schema so a development server
 * can allow it (VIGIL_WEBHOOK_ALLOW_HTTP); without that setting the server refuses it with a 422
 * naming `body.url` (docs/webhooks.md, "Which URLs are accepted").
 */
export const WebhookUrl = z
  .url({ protocol: /^https?$/, hostname: z.regexes.hostname })
  .max(2048);

const Events = z.array(WebhookEventKind).min(1).max(20).refine((e) => new Set(e).size === e.length, 'duplicate event kinds');

export const WebhookId = z.string().regex(/^wh_[A-Za-z0-9]{1,64}$/, 'expected wh_<letters and digits>');
export type WebhookId = z.infer<typeof WebhookId>;

export const WebhookIdParams = z.object({ id: WebhookId });
export type WebhookIdParams = z.infer<typeof WebhookIdParams>;

/** Why Vigil disabled an endpoint: it answered 410 Gone, or every delivery failed for 5 days. */
export const WEBHOOK_DISABLED_REASONS = ['gone', 'failing'] as const;
export const WebhookDisabledReason = z.enum(WEBHOOK_DISABLED_REASONS);
export type WebhookDisabledReason = z.infer<typeof WebhookDisabledReason>;

export const Webhook = z.object({
  id: WebhookId,
  url: z.string(),
  events: z.array(WebhookEventKind),
  /** False while paused by the owner or disabled by Vigil (`disabled_reason` tells which). */
  active: z.boolean(),
  /** Set while Vigil keeps the endpoint disabled; `active: true` in an update clears it. */
  disabled_reason: WebhookDisabledReason.nullable(),
  disabled_at: OffsetTimestamp.nullable(),
  /** During a rotation overlap: until when deliveries are still signed with the previous secret. */
  secret_rotation: z.object({ previous_secret_expires_at: OffsetTimestamp }).nullable(),
  created_at: OffsetTimestamp,
  updated_at: OffsetTimestamp,
});
export type Webhook = z.infer<typeof Webhook>;

export const WebhookCreateRequest = z.strictObject({ url: WebhookUrl, events: Events });
export type WebhookCreateRequest = z.infer<typeof WebhookCreateRequest>;

export const WebhookUpdateRequest = z
  .strictObject({ url: WebhookUrl.optional(), events: Events.optional(), active: z.boolean().optional() })
  .refine((v) => v.url !== undefined || v.events !== undefined || v.active !== undefined, 'nothing to update: give url, events or active');
export type WebhookUpdateRequest = z.infer<typeof WebhookUpdateRequest>;

const Secret = z.string().regex(/^whsec_[A-Za-z0-9]{32,}$/);

/** The creation response: the only time the signing secret is shown (`data.secret`). */
export const WebhookCreated = z.object({
  data: Webhook.extend({ secret: Secret }),
});
export type WebhookCreated = z.infer<typeof WebhookCreated>;

export const WebhookResponse = z.object({ data: Webhook });
export type WebhookResponse = z.infer<typeof WebhookResponse>;

export const WebhookList = z.object({ data: z.array(Webhook) });
export type WebhookList = z.infer<typeof WebhookList>;

/** Longest rotation overlap: 7 days. */
export const WEBHOOK_MAX_ROTATION_OVERLAP_SECONDS = 7 * 24 * 3600;
export const WEBHOOK_DEFAULT_ROTATION_OVERLAP_SECONDS = 24 * 3600;

export const WebhookRotateSecretRequest = z.strictObject({
  /** How long deliveries stay signed with the previous secret; 0 switches at once. */
  overlap_seconds: z.int().min(0).max(WEBHOOK_MAX_ROTATION_OVERLAP_SECONDS).default(WEBHOOK_DEFAULT_ROTATION_OVERLAP_SECONDS),
});
export type WebhookRotateSecretRequest = z.input<typeof WebhookRotateSecretRequest>;

/**
 * The body of the webhook actions that take no arguments (`test`, `revoke-previous-secret`,
 * `redeliver`): none (`Content-Length: 0`, no Content-Type) or an empty JSON object; any field is
 * refused (422), as on the other webhook routes.
 */
export const WebhookNoArgumentsRequest = z.strictObject({}).optional();
export type WebhookNoArgumentsRequest = z.infer<typeof WebhookNoArgumentsRequest>;

/** `POST /v1/webhooks/{id}/rotate-secret`: the new secret, shown this once. */
export const WebhookSecretRotated = z.object({
  data: Webhook.extend({ secret: Secret }),
});
export type WebhookSecretRotated = z.infer<typeof WebhookSecretRotated>;

export const WEBHOOK_DELIVERY_STATES = ['pending', 'delivering', 'succeeded', 'failed'] as const;
export const WebhookDeliveryState = z.enum(WEBHOOK_DELIVERY_STATES);
export type WebhookDeliveryState = z.infer<typeof WebhookDeliveryState>;

export const WebhookDeliveryId = z.uuid();

export const WebhookDeliveryParams = z.object({ id: WebhookId, delivery_id: WebhookDeliveryId });
export type WebhookDeliveryParams = z.infer<typeof WebhookDeliveryParams>;

/** One delivery: one event to one endpoint, under one id (`X-Vigil-Delivery`) across its attempts. */
export const WebhookDelivery = z.object({
  id: z.uuid(),
  webhook: WebhookId,
  event_id: z.uuid(),
  event_type: z.string(),
  state: WebhookDeliveryState,
  attempts: z.int().min(0),
  /** When the next attempt is due (pending only). */
  next_attempt_at: OffsetTimestamp.nullable(),
  last_attempt_at: OffsetTimestamp.nullable(),
  created_at: OffsetTimestamp,
});
export type WebhookDelivery = z.infer<typeof WebhookDelivery>;

/** One HTTP attempt of a delivery. */
export const WebhookDeliveryAttempt = z.object({
  attempt: z.int().min(1),
  attempted_at: OffsetTimestamp,
  /** The endpoint's HTTP status; null when no answer came (refused, unreachable, timed out). */
  response_status: z.int().nullable(),
  /** Why the attempt failed without a status, or null. */
  error: z.string().nullable(),
  latency_ms: z.int().min(0),
  /** The first 1 KiB (at most) of the answer's body, cut on a character boundary. */
  response_excerpt: z.string().nullable(),
  succeeded: z.boolean(),
});
export type WebhookDeliveryAttempt = z.infer<typeof WebhookDeliveryAttempt>;

export const WebhookDeliveryList = z.object({ data: z.array(WebhookDelivery) });
export type WebhookDeliveryList = z.infer<typeof WebhookDeliveryList>;

export const WebhookDeliveryListQuery = z.strictObject({ state: WebhookDeliveryState.optional() });
export type WebhookDeliveryListQuery = z.infer<typeof WebhookDeliveryListQuery>;

export const WebhookDeliveryDetail = z.object({
  data: WebhookDelivery.extend({ attempts_list: z.array(WebhookDeliveryAttempt) }),
});
export type WebhookDeliveryDetail = z.infer<typeof WebhookDeliveryDetail>;

export const WebhookDeliveryResponse = z.object({ data: WebhookDelivery });
export type WebhookDeliveryResponse = z.infer<typeof WebhookDeliveryResponse>;

export const WebhookRecoverRequest = z.strictObject({ since: OffsetTimestamp });
export type WebhookRecoverRequest = z.infer<typeof WebhookRecoverRequest>;

export const WebhookRecovered = z.object({ data: z.object({ requeued: z.int().min(0) }) });
export type WebhookRecovered = z.infer<typeof WebhookRecovered>;

/**
 * The kinds `types` takes: every documented kind, `webhook.test` included. Test events are never
 * in the feed, so a filter naming only `webhook.test` answers no events (rather than a 422 for a
 * kind the documentation lists).
 */
const FeedKind = z.enum([...WEBHOOK_EVENT_KINDS, 'webhook.test']);

/**
 * `GET /v1/events`: `after` is the `next_cursor` of a previous answer (opaque); `from=newest` asks
 * for no events, only a cursor after the newest (start watching now without reading the feed).
 */
export const EventFeedQuery = z
  .strictObject({
  after: z.string().regex(/^evc_[A-Za-z0-9_-]{1,200}$/, 'expected a next_cursor value of a previous answer').optional(),
  from: z.literal('newest', 'expected newest').optional(),
  /** Comma-separated event kinds. */
  types: z
    .string()
    .max(200)
    .transform((text, ctx) => {
      const kinds = text.split(',').map((s) => s.trim()).filter((s) => s !== '');
      // `types=` (or only commas) names no kind: refused like an unknown one, not read as "every kind".
      if (kinds.length === 0) {
        ctx.addIssue({ code: 'custom', message: 'expected at least one event kind' });
        return z.NEVER;
      }
      for (const kind of kinds) {
        if (!FeedKind.safeParse(kind).success) {
          ctx.addIssue({ code: 'custom', message: `unknown event kind ${JSON.stringify(kind)}` });
          return z.NEVER;
        }
      }
      return kinds as z.infer<typeof FeedKind>[];
    })
    .optional(),
  limit: z.coerce.number().int().min(1).max(100).optional(),
  })
  .refine((q) => q.from === undefined || q.after === undefined, { path: ['from'], message: 'not with after (both say where to start)' });
export type EventFeedQuery = z.infer<typeof EventFeedQuery>;

export const EventFeed = z.object({
  data: z.array(WebhookEvent),
  /** Pass as `after` to read on from the last item (also when `data` is empty: poll with it). */
  next_cursor: z.string(),
});
export type EventFeed = z.infer<typeof EventFeed>;
