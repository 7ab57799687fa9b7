import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PostgresAdapter, sql } from 'kysely';
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { withSearchPath } from '../../test-support/databases.js';
import { openDatabase, type VigilDatabase } from './database.js';
import { MIGRATIONS, MigrationError, migrateToLatest, pendingMigrations } from './migrate.js';

const require = createRequire(import.meta.url);
const ALL = Object.keys(MIGRATIONS);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

// Separate processes run the compiled modules (turbo builds before testing).
const DIST = fileURLToPath(new URL('../../../dist/platform/db/', import.meta.url));
const built = existsSync(join(DIST, 'migrate.js'));
if (!built) console.warn(`SKIPPED: multi-process migration tests (${DIST} not built; run npx tsc -b)`);

/**
 * Starts `count` processes that each open the database at `url`, then, all at once, migrate it.
 * Resolves with each one's exit code, stderr and the migrations it applied.
 */
async function migrateInProcesses(
  count: number,
  url: string,
  options: { statementTimeoutMs?: number; /** Runs once every process is ready, before they are told to go. */ beforeGo?: () => Promise<void> } = {},
): Promise<{ code: number | null; stderr: string; applied: string[] }[]> {
  const statementTimeoutMs = options.statementTimeoutMs;
  const script = `
    const { openDatabase } = await import(${JSON.stringify(join(DIST, 'database.js'))});
    const { migrateToLatest } = await import(${JSON.stringify(join(DIST, 'migrate.js'))});
    const database = await openDatabase({ url: ${JSON.stringify(url)}, statementTimeoutMs: ${statementTimeoutMs ?? 30_000} });
    process.stdout.write('ready\\n');
    await new Promise((resolve) => process.stdin.once('data', resolve));
    try {
      const results = await migrateToLatest(database.db);
      process.stdout.write(JSON.stringify(results.filter((r) => r.status === 'Success').map((r) => r.migrationName)) + '\\n');
    } finally {
      process.stdin.destroy();
      await database.close();
    }`;
  const children = Array.from({ length: count }, () => {
    const child = spawn(process.execPath, ['--input-type=module', '-e', script], { stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    // Ready once it says so, or once it exited without (its exit code then tells why).
    const ready = new Promise<void>((resolve) => {
      child.stdout.on('data', (chunk: Buffer) => {
        stdout += chunk.toString();
        if (stdout.startsWith('ready\n')) resolve();
      });
      child.on('exit', () => resolve());
    });
    const exited = new Promise<{ code: number | null; stderr: string; applied: string[] }>((resolve) =>
      child.on('exit', (code) => {
        const line = stdout.split('\n')[1] ?? '';
        resolve({ code, stderr, applied: line.startsWith('[') ? (JSON.parse(line) as string[]) : [] });
      }),
    );
    return { child, ready, exited };
  });
  await Promise.all(children.map((c) => c.ready));
  await options.beforeGo?.();
  for (const { child } of children) if (child.exitCode === null) child.stdin.write('go\n');
  return Promise.all(children.map((c) => c.exited));
}

/** What each of several concurrent migrations applied: together every migration exactly once. */
function appliedNames(results: Awaited<ReturnType<typeof migrateToLatest>>[]): string[][] {
  return results.map((r) => r.filter((m) => m.status === 'Success').map((m) => m.migrationName));
}

/** Another process holding the file's write lock for `ms` (as one migrating it would); resolves once it holds it. */
async function holdWriteLock(file: string, ms: number): Promise<{ exited: Promise<number | null> }> {
  const holder = spawn(
    process.execPath,
    [
      '-e',
      `const D=require(${JSON.stringify(require.resolve('better-sqlite3'))});const d=new D(${JSON.stringify(file)});d.exec('begin immediate');process.stdout.write('locked\\n');Atomics.wait(new Int32Array(new SharedArrayBuffer(4)),0,0,${ms});d.exec('commit');`,
    ],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const exited = new Promise<number | null>((resolve) => holder.on('exit', resolve));
  await Promise.race([new Promise((resolve) => holder.stdout.once('data', resolve)), exited]);
  return { exited };
}

describe('migrations of one fresh SQLite file by several connections at once', () => {
  const dirs: string[] = [];
  const opened: VigilDatabase[] = [];
  afterEach(async () => {
    for (const d of opened.splice(0)) await d.close();
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  async function openFresh(count: number): Promise<{ file: string; databases: VigilDatabase[] }> {
    const dir = mkdtempSync(join(tmpdir(), 'vigil-migrate-'));
    dirs.push(dir);
    const file = join(dir, 'vigil.db');
    const databases: VigilDatabase[] = [];
    for (let i = 0; i < count; i++) databases.push(await openDatabase({ url: `sqlite:${file}` }));
    opened.push(...databases);
    return { file, databases };
  }

  it('all succeed, and together apply each migration once (probe finding: "table already exists")', async () => {
    const { databases } = await openFresh(4);
    const results = await Promise.all(databases.map((d) => migrateToLatest(d.db)));
    const applied = appliedNames(results);
    expect(applied.flat().sort()).toEqual(ALL);
    expect(applied.filter((names) => names.length > 0)).toEqual([ALL]);
  });

  it.skipIf(!built)('many processes migrating one fresh file at once all succeed, and together apply each migration once', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'vigil-migrate-'));
    dirs.push(dir);
    const runs = await migrateInProcesses(6, `sqlite:${join(dir, 'vigil.db')}`);
    expect(runs.map((r) => [r.code, r.stderr])).toEqual(Array(6).fill([0, '']));
    expect(runs.flatMap((r) => r.applied).sort()).toEqual(ALL);
  });

  it('wait for another process writing to the file, then migrate', async () => {
    const { file, databases } = await openFresh(2);
    // Another process holds the write lock for 1.5 s (as a process migrating the file would).
    const holder = await holdWriteLock(file, 1_500);
    const results = await Promise.all(databases.map((d) => migrateToLatest(d.db, { lockTimeoutMs: 30_000 })));
    expect(appliedNames(results).flat().sort()).toEqual(ALL);
    expect(await holder.exited).toBe(0);
  });

  it('give up after the migration lock timeout with a MigrationError naming VIGIL_MIGRATION_LOCK_TIMEOUT_MS', async () => {
    const { file, databases } = await openFresh(1);
    const holder = await holdWriteLock(file, 3_000);
    const refused = await migrateToLatest(databases[0]!.db, { lockTimeoutMs: 300 }).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(MigrationError);
    expect((refused as Error).message).toMatch(/VIGIL_MIGRATION_LOCK_TIMEOUT_MS/);
    expect(await holder.exited).toBe(0);
    // Nothing was half-applied: the next attempt applies everything.
    expect(appliedNames([await migrateToLatest(databases[0]!.db)])).toEqual([ALL]);
  });
});

const url = process.env.TEST_DATABASE_URL;
const describePostgres = url ? describe : describe.skip;

describePostgres('migrations of one fresh PostgreSQL schema by several connections at once', () => {
  const schemas: string[] = [];
  const opened: VigilDatabase[] = [];
  const admin = async (query: string) => {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      await client.query(query);
    } finally {
      await client.end();
    }
  };
  afterEach(async () => {
    for (const d of opened.splice(0)) await d.close();
    for (const schema of schemas.splice(0)) await admin(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
  });

  async function openFresh(count: number, statementTimeoutMs: number): Promise<VigilDatabase[]> {
    const schema = `vigil_t_${randomBytes(6).toString('hex')}`;
    await admin(`CREATE SCHEMA ${schema}`);
    schemas.push(schema);
    const databases: VigilDatabase[] = [];
    for (let i = 0; i < count; i++) databases.push(await openDatabase({ url: withSearchPath(url!, schema), statementTimeoutMs }));
    opened.push(...databases);
    return databases;
  }

  /**
   * Holds the migration lock the way an instance that is migrating does (kysely's own lock, which
   * older Vigil versions take) for `ms`, on a connection of its own.
   */
  async function holdMigrationLock(ms: number): Promise<{ released: Promise<void> }> {
    const [holder] = await openFresh(1, 60_000);
    const adapter = new PostgresAdapter();
    const options = { lockTable: 'kysely_migration_lock', lockRowId: 'migration_lock' };
    let locked!: () => void;
    const isLocked = new Promise<void>((resolve) => (locked = resolve));
    const released = holder!.db.connection().execute(async (conn) => {
      await adapter.acquireMigrationLock(conn, options);
      locked();
      await sleep(ms);
      await adapter.releaseMigrationLock(conn, options);
    });
    await isLocked;
    return { released };
  }

  /**
   * Eight whole migrations of fresh schemas while another session runs `step` over and over (until
   * told to stop) on a client of its own; kysely's migrator lists every schema's tables first.
   */
  async function migrateEightTimesBeside(setUp: (client: pg.Client) => Promise<void>, step: (client: pg.Client, i: number) => Promise<void>, tearDown: (client: pg.Client) => Promise<void>): Promise<void> {
    let churning = true;
    const churn = (async () => {
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      try {
        await setUp(client);
        for (let i = 0; churning; i++) await step(client, i);
      } finally {
        await tearDown(client);
        await client.end();
      }
    })();
    try {
      for (let round = 0; round < 8; round++) {
        const [database] = await openFresh(1, 30_000);
        await migrateToLatest(database!.db);
        expect(await pendingMigrations(database!.db)).toEqual([]);
      }
    } finally {
      churning = false;
      await churn;
    }
  }
  const nothing = async () => {};

  // 35 s beside a whole `pnpm test` on two cores.
  it('succeeds while other schemas of the database are created and dropped (found by test files running in parallel: "schema vigil_t_… does not exist")', { timeout: 120_000 }, async () => {
    // Another session keeps creating a schema with tables and dropping it, as the afterAll of a
    // test file running beside this one does.
    await migrateEightTimesBeside(nothing, async (client, i) => {
      const other = `vigil_churn_${randomBytes(4).toString('hex')}_${i}`;
      await client.query(`CREATE SCHEMA ${other}; ${Array.from({ length: 20 }, (_, t) => `CREATE TABLE ${other}.t${t} (id int, a text, b text)`).join('; ')}`);
      await client.query(`DROP SCHEMA ${other} CASCADE`);
    }, nothing);
  });

  // Found with two test files migrating fresh schemas at once: `column "purl" of relation
  // "artifact_packages" does not exist` while the other schema's migration 0015 altered that table.
  it('succeeds while tables and columns of another schema are renamed and dropped', { timeout: 120_000 }, async () => {
    const other = `vigil_alter_${randomBytes(4).toString('hex')}`;
    await migrateEightTimesBeside(
      (client) => client.query(`CREATE SCHEMA ${other}; ${Array.from({ length: 20 }, (_, t) => `CREATE TABLE ${other}.t${t} (id serial, purl text, b text)`).join('; ')}`).then(nothing),
      async (client, i) => {
        const t = `${other}.t${i % 20}`;
        // One statement per query: each commits, so a listing can see any step between them.
        for (const ddl of [
          `ALTER TABLE ${t} RENAME COLUMN purl TO purl_v2`,
          `ALTER TABLE ${t} RENAME COLUMN purl_v2 TO purl`,
          `ALTER TABLE ${t} DROP COLUMN b`,
          `ALTER TABLE ${t} ADD COLUMN b text`,
          `ALTER TABLE ${t} RENAME TO t_v2`,
          `ALTER TABLE ${other}.t_v2 RENAME TO t${i % 20}`,
        ])
          await client.query(ddl);
        // Bursts of DDL with pauses, as another schema's migrations are: some listings overlap a
        // burst (without the retry the first such overlap failed the migration, in every run
        // tried), and the retry, a little later each time, finds a pause.
        await new Promise((resolve) => setTimeout(resolve, 100));
      },
      (client) => client.query(`DROP SCHEMA IF EXISTS ${other} CASCADE`).then(nothing),
    );
  });

  it('a migration waiting for the lock longer than VIGIL_DB_STATEMENT_TIMEOUT_MS still succeeds (probe finding: "canceling statement due to statement timeout")', async () => {
    const databases = await openFresh(2, 1_000);
    const { released } = await holdMigrationLock(2_500);
    const results = await Promise.all(databases.map((d) => migrateToLatest(d.db)));
    await released;
    const applied = appliedNames(results);
    expect(applied.flat().sort()).toEqual(ALL);
    expect(applied.filter((names) => names.length > 0)).toEqual([ALL]);
    const tables = await sql<{ n: number }>`select count(*)::int as n from kysely_migration`.execute(databases[0]!.db);
    expect(tables.rows[0]?.n).toBe(ALL.length);
  });

  it.skipIf(!built)('many processes migrating one fresh schema at once all succeed, waiting longer than their statement timeout', async () => {
    const [database] = await openFresh(1, 30_000);
    const schema = (await sql<{ schema: string }>`select current_schema() as schema`.execute(database!.db)).rows[0]!.schema;
    // Each process waits at least 2.5 s (the lock is held when they start), longer than its 1 s statement timeout.
    let held: Promise<void> | undefined;
    const runs = await migrateInProcesses(4, withSearchPath(url!, schema), {
      statementTimeoutMs: 1_000,
      beforeGo: async () => {
        held = (await holdMigrationLock(2_500)).released;
      },
    });
    await held;
    expect(runs.map((r) => [r.code, r.stderr])).toEqual(Array(4).fill([0, '']));
    expect(runs.flatMap((r) => r.applied).sort()).toEqual(ALL);
  });

  it('gives up after the migration lock timeout with a MigrationError naming VIGIL_MIGRATION_LOCK_TIMEOUT_MS', async () => {
    const [database] = await openFresh(1, 30_000);
    const { released } = await holdMigrationLock(2_000);
    const refused = await migrateToLatest(database!.db, { lockTimeoutMs: 300 }).catch((error: unknown) => error);
    await released;
    expect(refused).toBeInstanceOf(MigrationError);
    expect((refused as Error).message).toMatch(/VIGIL_MIGRATION_LOCK_TIMEOUT_MS/);
    expect(appliedNames([await migrateToLatest(database!.db)])).toEqual([ALL]);
  });
});
