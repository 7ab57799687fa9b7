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
    // Read once per file (undefined until then; null is an answer: the foreign keys form a cycle).
    let order: readonly string[] | null | undefined;
    beforeEach(async () => {
      if (!current) throw new Error('PostgreSQL test database did not open');
      if (order === undefined) order = await deletionOrder(current.db);
      await emptyPostgres(current.db, order);
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

const TABLES: readonly string[] = [...APPLICATION_TABLES, ...POSTGRES_ONLY_TABLES];

/**
 * Empties the schema for the next test as `TRUNCATE <every table> RESTART IDENTITY CASCADE` did,
 * for a fraction of its cost: TRUNCATE gives each table it names new files, about 230 ms for the
 * 56 tables on an idle machine, for each of the suite's 355 PostgreSQL tests, while a test writes a
 * handful. One statement finds the tables that hold rows; those are emptied with DELETE, the
 * tables that reference others first. Every sequence of the schema, not only those of the tables
 * that held rows, starts again at its start value, as RESTART IDENTITY did: a table a test emptied
 * itself still has an advanced sequence.
 * `order` null (foreign keys in a cycle), or a DELETE refused, falls back to the TRUNCATE.
 */
async function emptyPostgres(db: Kysely<Database>, order: readonly string[] | null): Promise<void> {
  if (order === null) {
    await sql`TRUNCATE ${sql.join(TABLES.map((t) => sql.table(t)))} RESTART IDENTITY CASCADE`.execute(db);
    return;
  }
  const full = await sql<{ t: string }>`${sql.join(
    TABLES.map((t) => sql`SELECT ${t}::text AS t WHERE EXISTS (SELECT 1 FROM ${sql.table(t)})`),
    sql` UNION ALL `,
  )}`.execute(db);
  const holding = new Set(full.rows.map((r) => r.t));
  try {
    for (const t of order) if (holding.has(t)) await sql`DELETE FROM ${sql.table(t)}`.execute(db);
  } catch {
    // A row the list does not know of still references one (a table a test made itself): TRUNCATE's
    // CASCADE empties it too, as before.
    await emptyPostgres(db, null);
    return;
  }
  await sql`SELECT setval(s.seqrelid, s.seqstart, false) FROM pg_sequence s JOIN pg_class c ON c.oid = s.seqrelid
    WHERE c.relnamespace = current_schema()::regnamespace`.execute(db);
}

/** The schema's tables, each after every table whose foreign keys reference it; null when they form a cycle. */
async function deletionOrder(db: Kysely<Database>): Promise<readonly string[] | null> {
  const refs = await sql<{ child: string; parent: string }>`SELECT c.relname AS child, p.relname AS parent FROM pg_constraint k
    JOIN pg_class c ON c.oid = k.conrelid JOIN pg_class p ON p.oid = k.confrelid
    WHERE k.contype = 'f' AND k.connamespace = current_schema()::regnamespace`.execute(db);
  // Children (referencing tables) before their parents; a table's reference to itself is one statement's business.
  const parentsOf = new Map<string, Set<string>>(TABLES.map((t) => [t, new Set<string>()]));
  const childrenLeft = new Map<string, number>(TABLES.map((t) => [t, 0]));
  for (const { child, parent } of refs.rows) {
    if (child === parent || !parentsOf.has(child) || !childrenLeft.has(parent) || parentsOf.get(child)!.has(parent)) continue;
    parentsOf.get(child)!.add(parent);
    childrenLeft.set(parent, childrenLeft.get(parent)! + 1);
  }
  const order: string[] = [];
  const ready = TABLES.filter((t) => childrenLeft.get(t) === 0);
  while (ready.length > 0) {
    const t = ready.shift()!;
    order.push(t);
    for (const parent of parentsOf.get(t)!) {
      const left = childrenLeft.get(parent)! - 1;
      childrenLeft.set(parent, left);
      if (left === 0) ready.push(parent);
    }
  }
  return order.length === TABLES.length ? order : null;
}
