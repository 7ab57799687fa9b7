import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { openDatabase, type VigilDatabase } from '../platform/db/database.js';
import { migrateToLatest } from '../platform/db/migrate.js';
import { openMigratedSqlite } from './migrated-sqlite.js';

async function schemaOf(database: VigilDatabase): Promise<unknown[]> {
  const { rows } = await sql`SELECT type, name, tbl_name, sql FROM sqlite_master ORDER BY type, name`.execute(database.db);
  return rows;
}

async function migrationsOf(database: VigilDatabase): Promise<unknown[]> {
  const { rows } = await sql`SELECT name FROM kysely_migration ORDER BY name`.execute(database.db);
  return rows;
}

describe('openMigratedSqlite', () => {
  it('opens what migrating a new in-memory database gives: the same schema, migrations and pragmas', async () => {
    const fresh = await openDatabase({ url: ':memory:' });
    await migrateToLatest(fresh.db);
    const copy = await openMigratedSqlite();
    try {
      expect(await schemaOf(copy)).toEqual(await schemaOf(fresh));
      expect(await migrationsOf(copy)).toEqual(await migrationsOf(fresh));
      expect((await migrationsOf(copy)).length).toBeGreaterThan(10);
      const foreignKeys = await sql<{ foreign_keys: number }>`PRAGMA foreign_keys`.execute(copy.db);
      expect(foreignKeys.rows[0]?.foreign_keys).toBe(1);
      expect(copy.dialect).toBe('sqlite');
    } finally {
      await copy.close();
      await fresh.close();
    }
  });

  it('gives every caller a database of its own', async () => {
    const first = await openMigratedSqlite();
    const second = await openMigratedSqlite();
    try {
      await sql`CREATE TABLE only_in_first (x INTEGER)`.execute(first.db);
      const tables = async (database: VigilDatabase) =>
        (await sql<{ name: string }>`SELECT name FROM sqlite_master WHERE name = 'only_in_first'`.execute(database.db)).rows.length;
      expect(await tables(first)).toBe(1);
      expect(await tables(second)).toBe(0);
      const third = await openMigratedSqlite();
      expect(await tables(third)).toBe(0);
      await third.close();
    } finally {
      await first.close();
      await second.close();
    }
  });
});
