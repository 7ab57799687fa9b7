import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { describeEachDialect } from '../../test-support/databases.js';
import { openDatabase, type VigilDatabase } from './database.js';
import { MIGRATIONS, migrateToLatest } from './migrate.js';
import { APPLICATION_TABLES } from './schema.js';

const require = createRequire(import.meta.url);

describe('openDatabase (SQLite file)', () => {
  const dirs: string[] = [];
  const opened: VigilDatabase[] = [];
  afterEach(async () => {
    for (const d of opened.splice(0)) await d.close();
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  it('creates <dataDir>/vigil.db, the directory included, in WAL mode with foreign keys on', async () => {
    const root = mkdtempSync(join(tmpdir(), 'vigil-db-'));
    dirs.push(root);
    const dataDir = join(root, 'nested', 'data');
    const database = await openDatabase({ dataDir });
    opened.push(database);
    expect(database.dialect).toBe('sqlite');
    await migrateToLatest(database.db);
    expect(existsSync(join(dataDir, 'vigil.db'))).toBe(true);
    const journal = await sql<{ journal_mode: string }>`PRAGMA journal_mode`.execute(database.db);
    expect(journal.rows[0]?.journal_mode).toBe('wal');
    const fk = await sql<{ foreign_keys: number }>`PRAGMA foreign_keys`.execute(database.db);
    expect(fk.rows[0]?.foreign_keys).toBe(1);
  });

  it('creates the directory of a sqlite:<file> url when it is missing (probe finding: startup exited 1)', async () => {
    const root = mkdtempSync(join(tmpdir(), 'vigil-db-'));
    dirs.push(root);
    const file = join(root, 'not', 'yet', 'there', 'vigil.db');
    const database = await openDatabase({ url: `sqlite:${file}` });
    opened.push(database);
    await migrateToLatest(database.db);
    expect(existsSync(file)).toBe(true);
  });

  it('keeps data across reopen of the same file', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'vigil-db-'));
    dirs.push(dataDir);
    const first = await openDatabase({ dataDir });
    await migrateToLatest(first.db);
    await first.db.insertInto('stat_counters').values({ name: 'attestations', value: 7 }).execute();
    await first.close();
    const second = await openDatabase({ dataDir });
    opened.push(second);
    expect(await migrateToLatest(second.db)).toEqual([]);
    const row = await second.db.selectFrom('stat_counters').select('value').executeTakeFirstOrThrow();
    expect(row.value).toBe(7);
  });

  it('lets a second process write while a read-then-write transaction is open, instead of failing it with "database is locked"', async () => {
    // A deferred SQLite transaction that read before another process committed cannot upgrade to a
    // writer (SQLITE_BUSY_SNAPSHOT, returned at once whatever busy_timeout says): `serve` and a
    // `vigil-server keys create` on one file used to fail that way. Write transactions begin
    // IMMEDIATE, so the other process waits its turn instead.
    const dataDir = mkdtempSync(join(tmpdir(), 'vigil-db-'));
    dirs.push(dataDir);
    const database = await openDatabase({ dataDir });
    opened.push(database);
    await migrateToLatest(database.db);
    let child: ChildProcess | undefined;
    await database.db.transaction().execute(async (trx) => {
      await trx.selectFrom('stat_counters').selectAll().execute();
      child = spawn(
        process.execPath,
        [
          '-e',
          `const D=require(${JSON.stringify(require.resolve('better-sqlite3'))});const d=new D(${JSON.stringify(join(dataDir, 'vigil.db'))});d.pragma('busy_timeout = 10000');d.prepare("insert into stat_counters (name, value) values ('other', 1)").run();`,
        ],
        { stdio: 'inherit' },
      );
      // The other process now either waits for this transaction (IMMEDIATE) or commits first (deferred).
      await new Promise((resolve) => setTimeout(resolve, 500));
      await trx.insertInto('stat_counters').values({ name: 'ours', value: 2 }).execute();
    });
    const code = await new Promise<number | null>((resolve) => child!.on('exit', resolve));
    expect(code).toBe(0);
    const names = (await database.db.selectFrom('stat_counters').select('name').orderBy('name').execute()).map((r) => r.name);
    expect(names).toEqual(['other', 'ours']);
  });

  it('refuses a url it does not understand, naming the argument', async () => {
    await expect(openDatabase({ url: 'mysql://localhost/vigil' })).rejects.toThrow(/^options\.url: unsupported/);
    await expect(openDatabase({})).rejects.toThrow(/^options\.dataDir/);
  });

  it('reports an unreachable PostgreSQL server at open time', async () => {
    await expect(openDatabase({ url: 'postgres://nobody@127.0.0.1:1/none' })).rejects.toThrow(/^options\.url: cannot connect/);
  });
});

describeEachDialect('migrations', (ctx) => {
  it('creates every application table and is idempotent', async () => {
    const db = ctx.db();
    const tables = (await db.introspection.getTables()).map((t) => t.name);
    for (const table of APPLICATION_TABLES) expect(tables).toContain(table);
    expect(await migrateToLatest(db)).toEqual([]);
    const applied = await sql<{ name: string }>`SELECT name FROM kysely_migration ORDER BY name`.execute(db);
    expect(applied.rows.map((r) => r.name)).toEqual(Object.keys(MIGRATIONS));
  });

  it('returns epoch-millisecond bigints and counts as JS numbers', async () => {
    const db = ctx.db();
    const big = Date.UTC(2100, 0, 1);
    await db.insertInto('stat_counters').values({ name: 'x', value: big }).execute();
    const row = await db.selectFrom('stat_counters').select('value').executeTakeFirstOrThrow();
    expect(row.value).toBe(big);
    const count = await db
      .selectFrom('stat_counters')
      .select((eb) => [eb.fn.countAll<number>().as('n'), eb.fn.sum<number>('value').as('s')])
      .executeTakeFirstOrThrow();
    expect(count.n).toBe(1);
    expect(count.s).toBe(big);
  });
});
