import { WEBHOOK_EVENT_KINDS, type WebhookEventKind } from '@vigil/core';
import { UsageError } from '../exit-codes.js';

/** `--events` and `--types`: comma-separated event kinds, each checked here so a typo is a usage error. */
export function kindsArg(name: string): (value: string) => WebhookEventKind[] {
  return (value) => {
    const kinds = value.split(',').map((s) => s.trim()).filter((s) => s !== '');
    const bad = kinds.find((k) => !(WEBHOOK_EVENT_KINDS as readonly string[]).includes(k));
    if (bad !== undefined || kinds.length === 0) {
      throw new UsageError(`${name}: expected a comma-separated list of ${WEBHOOK_EVENT_KINDS.join(', ')}, got ${JSON.stringify(bad ?? value)}`);
    }
    return kinds as WebhookEventKind[];
  };
}
