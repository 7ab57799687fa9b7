import { sql, type Kysely, type Migration } from 'kysely';
import { addIdColumn, jsonTextField } from '../dialect.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>;

async function up(db: AnyDb): Promise<void> {
  // The outbox learns who may see each event (null: every account), the resource it is about with
  // its per-resource sequence, and its place in the events feed (given at fan-out, in commit order).
  await db.schema.alterTable('outbox_events').addColumn('account_id', 'text').execute();
  await db.schema.alterTable('outbox_events').addColumn('resource', 'text').execute();
  await db.schema.alterTable('outbox_events').addColumn('sequence', 'bigint').execute();
  await db.schema.alterTable('outbox_events').addColumn('feed_position', 'bigint').execute();

  // Events written before this migration: their resource from their payload, numbered per resource
  // in insertion order, the repository's account as audience, and already fanned out (no endpoint
  // existed to receive them).
  const field = (key: string) => jsonTextField(db, 'payload', key);
  await sql`update outbox_events set resource = case kind
      when 'verdict.changed' then 'artifact:' || ${field('bundle_hash')}
      when 'attestation.created' then 'attestation:' || ${field('canonical_hash')}
      when 'repository.verified' then 'repository:' || ${field('repository')}
      when 'round.closed' then 'round:' || ${field('round_id')}
      when 'webhook.disabled' then 'webhook:' || ${field('webhook')}
      else 'event:' || id end`.execute(db);
  await sql`update outbox_events set account_id = (select r.account_id from source_repositories r where 'repository:' || r.repository_id = outbox_events.resource)
      where kind = 'repository.verified'`.execute(db);
  await db.schema.createIndex('outbox_resource_seq_idx').on('outbox_events').columns(['resource', 'seq']).execute();
  await sql`update outbox_events set sequence = (select count(*) from outbox_events earlier
      where earlier.resource = outbox_events.resource and earlier.seq <= outbox_events.seq)`.execute(db);
  await sql`update outbox_events set feed_position = seq, delivered_at = coalesce(delivered_at, created_at)`.execute(db);
  await db.schema.dropIndex('outbox_resource_seq_idx').execute();
  // Two events of one resource never share a number (enqueues on one resource take turns).
  await db.schema.createIndex('outbox_resource_sequence_idx').on('outbox_events').columns(['resource', 'sequence']).unique().execute();
  await db.schema.createIndex('outbox_feed_position_idx').on('outbox_events').columns(['feed_position']).unique().execute();
  await db.schema.createIndex('outbox_account_feed_idx').on('outbox_events').columns(['account_id', 'feed_position']).execute();

  await db.schema
    .createTable('webhooks')
    .addColumn('webhook_id', 'text', (c) => c.primaryKey())
    .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.account_id'))
    .addColumn('url', 'text', (c) => c.notNull())
    .addColumn('events', 'text', (c) => c.notNull())
    .addColumn('active', 'integer', (c) => c.notNull())
    .addColumn('disabled_reason', 'text')
    .addColumn('disabled_at', 'bigint')
    .addColumn('failing_since', 'bigint')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('webhooks_account_idx').on('webhooks').columns(['account_id', 'created_at']).execute();

  await db.schema
    .createTable('webhook_secrets')
    .addColumn('secret_id', 'text', (c) => c.primaryKey())
    .addColumn('webhook_id', 'text', (c) => c.notNull())
    .addColumn('sealed', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint')
    .addColumn('revoked_at', 'bigint')
    .execute();
  await db.schema.createIndex('webhook_secrets_webhook_idx').on('webhook_secrets').columns(['webhook_id', 'created_at']).execute();

  await db.schema
    .createTable('webhook_deliveries')
    .addColumn('delivery_id', 'text', (c) => c.primaryKey())
    .addColumn('webhook_id', 'text', (c) => c.notNull())
    .addColumn('event_id', 'text', (c) => c.notNull())
    .addColumn('event_seq', 'bigint', (c) => c.notNull())
    .addColumn('event_type', 'text', (c) => c.notNull())
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('auto_retry', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('next_attempt_at', 'bigint')
    .addColumn('lease_owner', 'text')
    .addColumn('lease_expires_at', 'bigint')
    .addColumn('last_attempt_at', 'bigint')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('webhook_deliveries_event_idx').on('webhook_deliveries').columns(['webhook_id', 'event_id']).unique().execute();
  // The claim: an endpoint's due deliveries in event order.
  await db.schema.createIndex('webhook_deliveries_due_idx').on('webhook_deliveries').columns(['webhook_id', 'state', 'event_seq']).execute();
  await db.schema.createIndex('webhook_deliveries_state_idx').on('webhook_deliveries').columns(['state', 'next_attempt_at']).execute();
  await db.schema.createIndex('webhook_deliveries_list_idx').on('webhook_deliveries').columns(['webhook_id', 'created_at']).execute();

  await addIdColumn(db, db.schema.createTable('webhook_delivery_attempts'))
    .addColumn('delivery_id', 'text', (c) => c.notNull())
    .addColumn('attempt', 'integer', (c) => c.notNull())
    .addColumn('attempted_at', 'bigint', (c) => c.notNull())
    .addColumn('response_status', 'integer')
    .addColumn('error', 'text')
    .addColumn('latency_ms', 'integer', (c) => c.notNull())
    .addColumn('response_excerpt', 'text')
    .addColumn('succeeded', 'integer', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('webhook_delivery_attempts_delivery_idx').on('webhook_delivery_attempts').columns(['delivery_id', 'id']).execute();
}

async function down(db: AnyDb): Promise<void> {
  await db.schema.dropTable('webhook_delivery_attempts').execute();
  await db.schema.dropTable('webhook_deliveries').execute();
  await db.schema.dropTable('webhook_secrets').execute();
  await db.schema.dropTable('webhooks').execute();
  await db.schema.dropIndex('outbox_account_feed_idx').execute();
  await db.schema.dropIndex('outbox_feed_position_idx').execute();
  await db.schema.dropIndex('outbox_resource_sequence_idx').execute();
  for (const column of ['feed_position', 'sequence', 'resource', 'account_id']) {
    await db.schema.alterTable('outbox_events').dropColumn(column).execute();
  }
}

export const webhooksMigration: Migration = { up, down };
