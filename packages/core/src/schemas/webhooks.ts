import * as z from 'zod';
import { WebhookEventKind } from '../enums.js';
import { OffsetTimestamp } from '../timestamps.js';

/** Deliveries go to HTTPS endpoints only (spec part 6). */
export const WebhookUrl = z
  .url({ protocol: /^https$/, hostname: z.regexes.hostname })
  .max(2048);

const Events = z.array(WebhookEventKind).min(1).max(20).refine((e) => new Set(e).size === e.length, 'duplicate event kinds');

export const Webhook = z.object({
  id: z.string().regex(/^wh_[A-Za-z0-9]+$/),
  url: z.string(),
  events: z.array(WebhookEventKind),
  active: z.boolean(),
  created_at: OffsetTimestamp,
  updated_at: OffsetTimestamp,
});
export type Webhook = z.infer<typeof Webhook>;

export const WebhookCreateRequest = z.object({ url: WebhookUrl, events: Events });
export type WebhookCreateRequest = z.infer<typeof WebhookCreateRequest>;

export const WebhookUpdateRequest = z
  .object({ events: Events.optional(), active: z.boolean().optional() })
  .refine((v) => v.events !== undefined || v.active !== undefined, 'nothing to update: give events or active');
export type WebhookUpdateRequest = z.infer<typeof WebhookUpdateRequest>;

/** The creation response: the only time the signing secret is shown (`data.secret`). */
export const WebhookCreated = z.object({
  data: Webhook.extend({ secret: z.string().regex(/^whsec_[A-Za-z0-9]{32,}$/) }),
});
export type WebhookCreated = z.infer<typeof WebhookCreated>;

export const WebhookResponse = z.object({ data: Webhook });
export type WebhookResponse = z.infer<typeof WebhookResponse>;

export const WebhookList = z.object({ data: z.array(Webhook) });
export type WebhookList = z.infer<typeof WebhookList>;
