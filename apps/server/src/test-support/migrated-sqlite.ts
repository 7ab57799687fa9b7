import BetterSqlite3 from 'better-sqlite3';
import { openSqliteHandle, type VigilDatabase } from '../platform/db/database.js';
import { migrateToLatest } from '../platform/db/migrate.js';

// One migrated, empty database per test process, kept as a serialized image: each test opens its
// own in-memory copy (about half a millisecond) instead of running every migration again (tens of
// milliseconds, thousands of times a run). The copy is a whole database of its own: what one
// test writes no other test sees.
let image: Promise<Buffer> | undefined;

async function migratedImage(): Promise<Buffer> {
  const sqlite = new BetterSqlite3(':memory:');
  const template = openSqliteHandle(sqlite);
  try {
    await migrateToLatest(template.db);
    return sqlite.serialize();
  } finally {
    await template.close();
  }
}

/** A fresh in-memory SQLite database, migrated to the latest schema and empty, as `migrate` leaves it. */
export async function openMigratedSqlite(): Promise<VigilDatabase> {
  image ??= migratedImage();
  return openSqliteHandle(new BetterSqlite3(await image));
}
