import type { Kysely, Migration } from 'kysely';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>;

/**
 * Following releases (docs/watches.md): who watches which package name, and, once per watched
 * name however many watch it, the watcher's state for it. Names are the registry's spelling
 * (`npm:JSONStream` keeps its capitals; PyPI names PEP 503-normalised), not a lowercased purl.
 */
async function up(db: AnyDb): Promise<void> {
  await db.schema
    .createTable('watches')
    .addColumn('watch_id', 'text', (c) => c.primaryKey())
    // An account id (`acc_…`), or `operator` for the deployment's own list.
    .addColumn('owner', 'text', (c) => c.notNull())
    // `<ecosystem>:<registry name>`: the key of watched_packages.
    .addColumn('package_key', 'text', (c) => c.notNull())
    .addColumn('ecosystem', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    // api | repository | operator: how the watch was made.
    .addColumn('source', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addUniqueConstraint('watches_owner_package_key', ['owner', 'package_key'])
    .execute();
  await db.schema.createIndex('watches_package_idx').on('watches').column('package_key').execute();
  await db.schema
    .createTable('watched_packages')
    .addColumn('package_key', 'text', (c) => c.primaryKey())
    .addColumn('ecosystem', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    // The last answer's ETag, sent as If-None-Match on the next poll.
    .addColumn('etag', 'text')
    // JSON array of the versions the last answer listed; null until the first answer (the baseline).
    .addColumn('versions_seen', 'text')
    .addColumn('latest', 'text')
    .addColumn('next_poll_at', 'bigint', (c) => c.notNull())
    .addColumn('last_polled_at', 'bigint')
    .addColumn('last_changed_at', 'bigint')
    .addColumn('last_error', 'text')
    .addColumn('failures', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('versions_queued', 'integer', (c) => c.notNull().defaultTo(0))
    // The watcher polling it and until when; an expired lease is taken again.
    .addColumn('lease_owner', 'text')
    .addColumn('lease_expires_at', 'bigint')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('watched_packages_due_idx').on('watched_packages').column('next_poll_at').execute();
}

async function down(db: AnyDb): Promise<void> {
  await db.schema.dropTable('watched_packages').execute();
  await db.schema.dropTable('watches').execute();
}

export const watchesMigration: Migration = { up, down };
