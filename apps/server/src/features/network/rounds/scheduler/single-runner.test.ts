import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { Migrator, type Kysely } from 'kysely';
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase, type VigilDatabase } from '../../../../platform/db/database.js';
import type { DialectName } from '../../../../platform/db/dialect.js';
import { MIGRATIONS, migrateToLatest } from '../../../../platform/db/migrate.js';
import type { Database } from '../../../../platform/db/schema.js';
import { submitAgent } from '../../miners/agents.js';
import { registerArtifact } from '../../../artifacts/register-artifact.js';
import { registerMiner } from '../../miners/miners.js';
import { withSearchPath } from '../../../../test-support/databases.js';
import { HOUR, T0, codeHash, newKey } from '../../../../test-support/fixtures.js';
import { contentHash } from '@vigil/core';
import { ROUND_SCHEDULER_LOCK, createScheduler, type SchedulerStep } from './create-scheduler.js';
import type { SchedulerSettings } from './settings.js';
import { runExclusively } from './single-runner.js';

const SETTINGS: SchedulerSettings = {
  submissionMs: HOUR,
  evaluationMs: 2 * HOUR,
  gapMs: HOUR / 2,
  intervalMs: 20,
  policyVersion: 'policy-test-1',
  labeledArtifacts: 5,
  liveArtifacts: 5,
};

/** Two independent connections (pools) to one database, as two processes would have. */
interface Pair {
  a: Kysely<Database>;
  b: Kysely<Database>;
  close(): Promise<void>;
}

async function openSqlitePair(): Promise<Pair> {
  const dir = mkdtempSync(join(tmpdir(), 'vigil-scheduler-'));
  const url = `sqlite:${join(dir, 'vigil.db')}`;
  const a = await openDatabase({ url });
  await migrateToLatest(a.db);
  const b = await openDatabase({ url });
  return {
    a: a.db,
    b: b.db,
    async close() {
      await a.close();
      await b.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

async function openPostgresPair(url: string): Promise<Pair> {
  const schema = `vigil_s_${randomBytes(6).toString('hex')}`;
  const admin = async (query: string) => {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      await client.query(query);
    } finally {
      await client.end();
    }
  };
  await admin(`CREATE SCHEMA ${schema}`);
  const opened: VigilDatabase[] = [];
  try {
    opened.push(await openDatabase({ url: withSearchPath(url, schema) }));
    // Kysely's migrator looks for its own tables in every schema unless told which one; another
    // test file's schema would make it skip creating them here.
    const migrator = new Migrator({
      db: opened[0]!.db,
      provider: { getMigrations: () => Promise.resolve({ ...MIGRATIONS }) },
      migrationTableSchema: schema,
    });
    const { error } = await migrator.migrateToLatest();
    if (error !== undefined) throw error;
    opened.push(await openDatabase({ url: withSearchPath(url, schema) }));
  } catch (error) {
    for (const d of opened) await d.close();
    await admin(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
    throw error;
  }
  return {
    a: opened[0]!.db,
    b: opened[1]!.db,
    async close() {
      for (const d of opened) await d.close();
      await admin(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
    },
  };
}

async function seed(db: Kysely<Database>) {
  const miner = newKey();
  await registerMiner(db, { hotkey: miner.hotkey, track: 'skills', now: T0 - HOUR });
  await submitAgent(db, { hotkey: miner.hotkey, track: 'skills', name: 'a', provider: 'p', codeHash: codeHash('x'), now: T0 - HOUR });
  for (const id of ['l1', 'l2']) {
    await registerArtifact(db, {
      track: 'skills',
      label: 'bench',
      sourceId: id,
      contentHash: contentHash(id),
      kind: 'labeled',
      groundTruth: 'ALLOW',
      now: T0 - HOUR,
    });
  }
}

const pgUrl = process.env.TEST_DATABASE_URL;
const dialects: { name: DialectName; open: () => Promise<Pair> }[] = [{ name: 'sqlite', open: openSqlitePair }];
if (pgUrl !== undefined && pgUrl !== '') dialects.push({ name: 'postgres', open: () => openPostgresPair(pgUrl) });
else describe.skip('single runner [PostgreSQL: TEST_DATABASE_URL not set]', () => it('skipped', () => undefined));

for (const dialect of dialects) {
  describe(`single runner [${dialect.name}]`, () => {
    let pair: Pair | undefined;
    afterEach(async () => {
      await pair?.close();
      pair = undefined;
    });

    it('two schedulers on separate connections perform each due transition exactly once', async () => {
      pair = await dialect.open();
      await seed(pair.a);
      let clock = T0;
      const steps: SchedulerStep[] = [];
      const options = { settings: SETTINGS, now: () => clock, onStep: (s: SchedulerStep) => steps.push(s) };
      const one = createScheduler({ db: pair.a, ...options });
      const two = createScheduler({ db: pair.b, ...options });
      const instants = [T0, T0 + HOUR, T0 + 3 * HOUR, T0 + 3.5 * HOUR, T0 + 4.5 * HOUR, T0 + 6.5 * HOUR, T0 + 7 * HOUR];
      for (const at of instants) {
        clock = at;
        for (let i = 0; i < 3; i += 1) await Promise.all([one.step(), two.step(), one.step(), two.step()]);
      }
      expect(steps.flatMap((s) => s.failures)).toEqual([]);
      // 4 tracks × (open, evaluate, close) × 2 rounds + the third opening, each done once.
      const transitions = steps.flatMap((s) => s.transitions);
      expect(transitions).toHaveLength(4 * 3 * 2 + 4);
      const rounds = await pair.b
        .selectFrom('rounds')
        .select(['track', 'round_number', 'status'])
        .orderBy('track')
        .orderBy('round_number')
        .execute();
      for (const track of ['mcp_servers', 'packages', 'repositories', 'skills']) {
        const mine = rounds.filter((r) => r.track === track);
        expect(mine.map((r) => r.round_number)).toEqual([1, 2, 3]);
        expect(mine.filter((r) => r.status === 'open')).toHaveLength(1);
      }
      const tasks = await pair.a.selectFrom('tasks').select('task_id').execute();
      expect(tasks).toHaveLength(4); // 1 agent × 2 labeled artifacts × 2 rounds
    });

    it('skips a tick while another process holds the lock, and runs once it is released', async () => {
      pair = await dialect.open();
      const b = createScheduler({ db: pair.b, settings: SETTINGS, now: () => T0 });
      const lockOptions = { name: ROUND_SCHEDULER_LOCK, holderId: 'other-process', now: T0, leaseMs: 60_000 };
      const held = await runExclusively(pair.a, lockOptions, async () => b.step());
      expect(held).toEqual({ acquired: true, value: { ran: false, transitions: [], failures: [] } });
      const free = await b.step();
      expect(free.ran).toBe(true);
      expect(free.transitions).toHaveLength(4);
    });

    if (dialect.name === 'sqlite') {
      it('takes over a lease whose holder died once it expires, and frees it after the step', async () => {
        pair = await dialect.open();
        await pair.a
          .insertInto('scheduler_leases')
          .values({ name: ROUND_SCHEDULER_LOCK, holder: 'crashed-process', expires_at: T0 + 1000 })
          .execute();
        let clock = T0;
        const scheduler = createScheduler({ db: pair.b, settings: SETTINGS, now: () => clock, holderId: 'me' });
        expect((await scheduler.step()).ran).toBe(false);
        clock = T0 + 1000;
        const step = await scheduler.step();
        expect(step.ran).toBe(true);
        expect(step.transitions).toHaveLength(4);
        expect(await pair.a.selectFrom('scheduler_leases').selectAll().execute()).toEqual([]);
      });
    }
  });
}
