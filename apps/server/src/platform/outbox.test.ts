import { expect, it } from 'vitest';
import { describeEachDialect } from '../test-support/databases.js';
import { enqueueOutboxEvent, webhookEventOf } from './outbox.js';
import { inTransaction } from './db/transaction.js';

describeEachDialect('the outbox', (ctx) => {
  it('numbers each resource’s events 1, 2, 3 … even when many transactions enqueue on it at once', async () => {
    const db = ctx.db();
    const enqueue = (resource: string, n: number) =>
      inTransaction(db, async (trx) => {
        const id = await enqueueOutboxEvent(trx, 'round.closed', { n }, 1_000 + n, { resource, accountId: null });
        // Work after the enqueue keeps the transaction open while the others queue behind it.
        await trx.selectFrom('outbox_events').select('id').execute();
        return id;
      });
    await Promise.all(Array.from({ length: 24 }, (_, n) => enqueue(n % 2 === 0 ? 'round:a' : 'round:b', n)));
    const rows = await db.selectFrom('outbox_events').select(['resource', 'sequence']).orderBy('resource').orderBy('sequence').execute();
    const numbers = (resource: string) => rows.filter((r) => r.resource === resource).map((r) => Number(r.sequence));
    const oneToTwelve = Array.from({ length: 12 }, (_, i) => i + 1);
    expect(numbers('round:a')).toEqual(oneToTwelve);
    expect(numbers('round:b')).toEqual(oneToTwelve);
  });

  it('builds the envelope from the row alone, the same bytes every time', async () => {
    const db = ctx.db();
    const id = await inTransaction(db, (trx) =>
      enqueueOutboxEvent(trx, 'webhook.disabled', { webhook: 'wh_1', url: 'https://h.example/', reason: 'gone', disabled_at: '2026-11-21T10:00:00.000+00:00' }, Date.UTC(2026, 10, 21, 10), {
        resource: 'webhook:wh_1',
        accountId: 'acc_0000000000000001',
      }),
    );
    const row = await db.selectFrom('outbox_events').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    const event = webhookEventOf(row);
    expect(event).toEqual({
      id,
      type: 'webhook.disabled',
      version: 1,
      created_at: '2026-11-21T10:00:00.000+00:00',
      resource: 'webhook:wh_1',
      sequence: 1,
      data: { webhook: 'wh_1', url: 'https://h.example/', reason: 'gone', disabled_at: '2026-11-21T10:00:00.000+00:00' },
    });
    expect(JSON.stringify(webhookEventOf(row))).toBe(JSON.stringify(event));
  });
});
