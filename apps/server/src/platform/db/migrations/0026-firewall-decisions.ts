import type { Kysely, Migration } from 'kysely';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>;

/**
 * The registry firewall's decisions, per account (docs/firewall.md "Decision counts"): one row per
 * decision a firewall reported with the account's key, kept 90 days. `day` (UTC `YYYY-MM-DD`) is
 * stored rather than computed so both dialects group by it the same way.
 */
async function up(db: AnyDb): Promise<void> {
  await db.schema
    .createTable('firewall_decisions')
    .addColumn('account_id', 'text', (c) => c.notNull())
    // The firewall's `fw_…` id: a retried report is stored once.
    .addColumn('request_id', 'text', (c) => c.notNull())
    .addColumn('decided_at', 'bigint', (c) => c.notNull())
    .addColumn('day', 'text', (c) => c.notNull())
    .addColumn('ecosystem', 'text', (c) => c.notNull())
    .addColumn('package', 'text', (c) => c.notNull())
    .addColumn('version', 'text')
    // allow | block | filter
    .addColumn('decision', 'text', (c) => c.notNull())
    .addColumn('reason', 'text', (c) => c.notNull())
    .addColumn('reason_kind', 'text', (c) => c.notNull())
    .addColumn('verdict', 'text')
    .addColumn('policy', 'text', (c) => c.notNull())
    .addColumn('mode', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('firewall_decisions_pk', ['account_id', 'request_id'])
    .execute();
  await db.schema.createIndex('firewall_decisions_account_day_idx').on('firewall_decisions').columns(['account_id', 'day']).execute();
  await db.schema.createIndex('firewall_decisions_account_time_idx').on('firewall_decisions').columns(['account_id', 'decided_at']).execute();
}

async function down(db: AnyDb): Promise<void> {
  await db.schema.dropTable('firewall_decisions').execute();
}

export const firewallDecisionsMigration: Migration = { up, down };
