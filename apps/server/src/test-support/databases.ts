import { randomBytes } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, beforeEach, describe } from 'vitest';
import { openDatabase, type VigilDatabase } from '../platform/db/database.js';
import type { DialectName } from '../platform/db/dialect.js';
import { migrateToLatest } from '../platform/db/migrate.js';
import { openMigratedSqlite } from './migrated-sqlite.js';
import { APPLICATION_TABLES, POSTGRES_ONLY_TABLES, type Database } from '../platform/db/schema.js';

export interface DialectContext {
  readonly dialect: DialectName;
  /** The migrated, empty database of the current test. */
  db(): Kysely<Database>;
}

/** Appends `options=-c search_path=<schema>` so every pooled connection lands in the schema. */
export function withSearchPath(url: string, schema: string): string {
  const parsed = new URL(url);
  parsed.searchParams.set('options', `-c search_path=${schema}`);
  return parsed.toString();
}

/**
 * Runs `body` once per dialect: SQLite always (a fresh in-memory database per test), PostgreSQL
 * when TEST_DATABASE_URL is set (one fresh schema per test file, emptied before each test, dropped
 * at the end, so parallel test files never see each other's rows). Without TEST_DATABASE_URL the
 * PostgreSQL block is reported as skipped under a name that says why.
 */
export function describeEachDialect(title: string, body: (ctx: DialectContext) => void): void {
  describe(`${title} [SQLite]`, () => {
    let current: VigilDatabase | undefined;
    beforeEach(async () => {
      current = await openMigratedSqlite();
    });
    afterEach(async () => {
      await current?.close();
      current = undefined;
    });
    body({
      dialect: 'sqlite',
      db: () => {
        if (!current) throw new Error('db(): only available inside a test');
        return current.db;
      },
    });
  });

  const url = process.env.TEST_DATABASE_URL;
  if (url === undefined || url === '') {
    describe.skip(`${title} [PostgreSQL: TEST_DATABASE_URL not set]`, () => {
      body({
        dialect: 'postgres',
        db: () => {
          throw new Error('unreachable: skipped');
        },
      });
    });
    return;
  }

  describe(`${title} [PostgreSQL]`, () => {
    const schema = `vigil_t_${randomBytes(6).toString('hex')}`;
    let current: VigilDatabase | undefined;
    beforeAll(async () => {
      const admin = new pg.Client({ connectionString: url });
      await admin.connect();
      try {
        await admin.query(`CREATE SCHEMA ${schema}`);
      } finally {
        await admin.end();
      }
      current = await openDatabase({ url: withSearchPath(url, schema) });
      await migrateToLatest(current.db);
    });
    beforeEach(async () => {
      if (!current) throw new Error('PostgreSQL test database did not open');
      await sql`TRUNCATE ${sql.join([...APPLICATION_TABLES, ...POSTGRES_ONLY_TABLES].map((t) => sql.table(t)))} RESTART IDENTITY CASCADE`.execute(
        current.db,
      );
    });
    afterAll(async () => {
      await current?.close();
      const admin = new pg.Client({ connectionString: url });
      await admin.connect();
      try {
        await admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
      } finally {
        await admin.end();
      }
    });
    body({
      dialect: 'postgres',
      db: () => {
        if (!current) throw new Error('db(): only available inside a test');
        return current.db;
      },
    });
  });
}
