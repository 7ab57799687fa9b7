/**
 * A signed event this version of the library has no schema for: a `type` added to Vigil after it
 * was published, or a known `type` at a `version` other than 1. Returned rather than refused, so a
 * receiver keeps answering 202 (and Vigil keeps the endpoint enabled) while it ignores or logs
 * what it does not understand yet. Test with `instanceof UnknownWebhookEvent`; everything else
 * `verifyWebhook` returns is a typed `WebhookEvent`.
 */
export class UnknownWebhookEvent {
  readonly type: string;
  /** The body's `id`, `version`, `resource` and `sequence` when they have the envelope's types, else undefined. */
  readonly id: string | undefined;
  readonly version: number | undefined;
  readonly resource: string | undefined;
  readonly sequence: number | undefined;
  /** The whole parsed body, unvalidated apart from `type` being a string. */
  readonly raw: Readonly<Record<string, unknown>>;

  constructor(raw: Readonly<Record<string, unknown>> & { type: string }) {
    this.type = raw.type;
    this.id = typeof raw.id === 'string' ? raw.id : undefined;
    this.version = typeof raw.version === 'number' ? raw.version : undefined;
    this.resource = typeof raw.resource === 'string' ? raw.resource : undefined;
    this.sequence = Number.isSafeInteger(raw.sequence) ? (raw.sequence as number) : undefined;
    this.raw = raw;
  }
}
