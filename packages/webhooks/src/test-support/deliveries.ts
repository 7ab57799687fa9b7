import { randomUUID } from 'node:crypto';
import type { WebhookEvent } from '@vigil/core';
import { signWebhookPayload } from '../index.js';

export const SECRET = 'whsec_test_0123456789abcdef0123456789abcdef';

export function verdictChanged(overrides: Partial<Extract<WebhookEvent, { type: 'verdict.changed' }>> = {}): WebhookEvent {
  return {
    id: randomUUID(),
    type: 'verdict.changed',
    version: 1,
    created_at: '2026-11-21T10:00:00.000+00:00',
    resource: 'artifact:sha256:' + 'ab'.repeat(32),
    sequence: 3,
    data: {
      bundle_hash: 'sha256:' + 'ab'.repeat(32),
      track: 'packages',
      verdict: 'BLOCK',
      previous_verdict: 'ALLOW',
      risk_score: 0.93,
      round_id: '0123456789abcdef',
      changed_at: '2026-11-21T10:00:00.000+00:00',
    },
    ...overrides,
  } as WebhookEvent;
}

export function roundClosed(): WebhookEvent {
  return {
    id: randomUUID(),
    type: 'round.closed',
    version: 1,
    created_at: '2026-11-21T10:00:00.000+00:00',
    resource: 'round:0123456789abcdef',
    sequence: 1,
    data: {
      round_id: '0123456789abcdef',
      track: 'skills',
      round_number: 42,
      closed_at: '2026-11-21T10:00:00.000+00:00',
      scored_agents: 7,
      winner_hotkey: null,
      verdict_changes: 2,
    },
  };
}

export interface SignedDelivery {
  headers: Record<string, string>;
  body: string;
  deliveryId: string;
  timestamp: number;
}

/** What Vigil sends for `event`: the four headers and the exact body bytes, signed with `secret` at `timestamp`. */
export function signedDelivery(
  event: unknown,
  options: { secret?: string; timestamp?: number; body?: string; eventHeader?: string } = {},
): SignedDelivery {
  const body = options.body ?? JSON.stringify(event);
  const timestamp = options.timestamp ?? Math.floor(Date.now() / 1000);
  const deliveryId = randomUUID();
  const type = (event as { type?: unknown }).type;
  return {
    body,
    deliveryId,
    timestamp,
    headers: {
      'content-type': 'application/json',
      'x-vigil-event': options.eventHeader ?? (typeof type === 'string' ? type : 'unknown'),
      'x-vigil-delivery': deliveryId,
      'x-vigil-timestamp': String(timestamp),
      'x-vigil-signature': signWebhookPayload(options.secret ?? SECRET, timestamp, body),
    },
  };
}
