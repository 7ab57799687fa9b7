import { randomBytes } from 'node:crypto';
import { Kysely, PostgresDialect, sql, type CompiledQuery } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getAttestation, listAttestations } from '../../features/network/attestations/attestations-read.js';
import { createPublicReadService } from '../../features/network/index.js';
import { generateAttestations } from '../../seed/attestations-at-scale.js';
import { describeEachDialect, withSearchPath } from '../../test-support/databases.js';
import {
  addMonths,
  attestationPartitionName,
  attestationPartitionUpkeepAtStart,
  ensureAttestationPartitions,
  monthStartMs,
  partitionKeysOfHashes,
} from './attestation-partitions.js';
import { EmptyListPlugin } from './empty-list-plugin.js';
import { migrateToLatest, migrateUpTo } from './migrate.js';
import type { Database } from './schema.js';

const url = process.env.TEST_DATABASE_URL;
const NOW = Date.UTC(2026, 10, 20, 12, 0, 0);

describe('attestation months', () => {
  it('are UTC calendar months, named by year and month', () => {
    expect(monthStartMs(Date.UTC(2026, 11, 31, 23, 59, 59, 999))).toBe(Date.UTC(2026, 11, 1));
    expect(addMonths(Date.UTC(2026, 11, 1), 1)).toBe(Date.UTC(2027, 0, 1));
    expect(attestationPartitionName(Date.UTC(2027, 0, 1))).toBe('attestations_p2027_01');
  });
});

describeEachDialect('attestation partition upkeep', ({ dialect, db }) => {
  if (dialect === 'sqlite') {
    it('is nothing on SQLite: one table, no partitions, hashes looked up directly', async () => {
      expect(await ensureAttestationPartitions(db(), NOW)).toEqual({ created: [] });
      expect(await partitionKeysOfHashes(db(), ['a'.repeat(64)])).toBeUndefined();
    });
    return;
  }
  it('keeps the current month and the next three created, and creates later ones as time passes', async () => {
    const names = async () =>
      (await sql<{ name: string }>`select c.relname as name from pg_inherits i join pg_class c on c.oid = i.inhrelid
        join pg_class p on p.oid = i.inhparent where p.relname = 'attestations' and p.relnamespace = current_schema()::regnamespace`.execute(db())).rows.map((r) => r.name);
    const now = Date.now();
    for (let i = 0; i <= 3; i++) expect(await names()).toContain(attestationPartitionName(addMonths(monthStartMs(now), i)));
    expect(await names()).toContain('attestations_default');
    expect(await ensureAttestationPartitions(db(), now)).toEqual({ created: [] });
    // A process started five months on: its month and the three after it.
    const later = addMonths(monthStartMs(now), 5);
    const { created } = await ensureAttestationPartitions(db(), later);
    expect(created).toEqual([0, 1, 2, 3].map((i) => attestationPartitionName(addMonths(later, i))));
  });
});

/** A schema of its own on TEST_DATABASE_URL, opened as kysely with every statement recorded. */
async function scratchSchema(): Promise<{ db: Kysely<Database>; statements: CompiledQuery[]; drop(): Promise<void> }> {
  const schema = `vigil_p_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(`CREATE SCHEMA ${schema}`);
  await admin.end();
  const statements: CompiledQuery[] = [];
  const pool = new pg.Pool({
    connectionString: withSearchPath(url!, schema),
    max: 2,
    // As the server's pool does: epoch-millisecond bigints are numbers.
    types: { getTypeParser: (oid: number, format?: 'text' | 'binary') => (oid === 20 || oid === 1700 ? Number : pg.types.getTypeParser(oid, format as 'text')) },
  } as pg.PoolConfig);
  const db = new Kysely<Database>({
    dialect: new PostgresDialect({ pool }),
    plugins: [new EmptyListPlugin()],
    log: (event) => {
      if (event.level === 'query') statements.push(event.query);
    },
  });
  return {
    db,
    statements,
    drop: async () => {
      await db.destroy();
      const end = new pg.Client({ connectionString: url });
      await end.connect();
      await end.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
      await end.end();
    },
  };
}

interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Index Name'?: string;
  'Actual Loops'?: number;
  'Actual Rows'?: number;
  Plans?: PlanNode[];
}

function nodes(plan: PlanNode): PlanNode[] {
  return [plan, ...(plan.Plans ?? []).flatMap(nodes)];
}

/** Every scan of an attestations partition in the statement's executed plan. */
async function partitionScans(db: Kysely<Database>, query: CompiledQuery): Promise<PlanNode[]> {
  const explained = await db.executeQuery<{ 'QUERY PLAN': [{ Plan: PlanNode }] }>({
    ...query,
    sql: `explain (analyze, buffers, format json) ${query.sql}`,
  });
  const plan = explained.rows[0]!['QUERY PLAN'][0].Plan;
  return nodes(plan).filter((n) => n['Relation Name'] !== undefined && /^attestations_(p\d{4}_\d{2}|default)$/.test(n['Relation Name']));
}

const onAttestations = (q: CompiledQuery) => /from "attestations"|join "attestations"/i.test(q.sql);

describe.skipIf(url === undefined || url === '')('attestations partitioned by month [PostgreSQL]', () => {
  describe('migrating a populated database of the previous release', () => {
    let scratch: Awaited<ReturnType<typeof scratchSchema>>;
    beforeAll(async () => {
      scratch = await scratchSchema();
    });
    afterAll(async () => scratch?.drop());

    it('keeps every row and id, puts each in its month, and keeps both keys unique', async () => {
      const { db } = scratch;
      await migrateUpTo(db, '0023-watches');
      await generateAttestations(db, { rows: 3000, months: 4, endMs: NOW, validators: 10, miners: 12, artifacts: 40 });
      const fingerprint = async () =>
        (await sql<{ n: number; digest: string }>`select count(*)::int as n, md5(string_agg(a::text, '|' order by id)) as digest from attestations a`.execute(db)).rows[0]!;
      const before = await fingerprint();
      expect(before.n).toBe(3000);

      // The conversion alone: later migrations add columns (0025's dsse_signature), which change every row's text.
      await migrateUpTo(db, '0024-attestation-partitions');
      expect(await fingerprint()).toEqual(before);
      await migrateToLatest(db);

      const placement = await sql<{ partition: string; first: number; last: number }>`
        select tableoid::regclass::text as partition, min(recorded_at) as first, max(recorded_at) as last from attestations group by 1`.execute(db);
      expect(placement.rows.length).toBeGreaterThanOrEqual(4);
      for (const p of placement.rows) {
        expect(p.partition).toBe(attestationPartitionName(monthStartMs(p.first)));
        expect(monthStartMs(p.last)).toBe(monthStartMs(p.first));
      }
      const keys = await sql<{ n: number }>`select count(*)::int as n from attestation_keys`.execute(db);
      expect(keys.rows[0]!.n).toBe(3000);

      const existing = await db.selectFrom('attestations').selectAll().orderBy('id').limit(1).executeTakeFirstOrThrow();
      const { id: _id, ...copy } = existing;
      // The same hash in another month: refused by the hash's own key, as the unique constraint did.
      // A validator that attested nothing yet: only the key under test repeats.
      const newcomer = '5' + 'N'.repeat(47);
      await db.insertInto('validators').values({ hotkey: newcomer, uid: 999, status: 'active', allowed_ips: '[]', registered_at: NOW, updated_at: NOW }).execute();
      const sameHash = { ...copy, validator_hotkey: newcomer, recorded_at: NOW };
      await expect(db.insertInto('attestations').values(sameHash).execute()).rejects.toMatchObject({ code: '23505', constraint: 'attestations_canonical_hash_key' });
      const sameTaskValidator = { ...copy, canonical_hash: `sha256:${'f'.repeat(64)}`, recorded_at: NOW };
      await expect(db.insertInto('attestations').values(sameTaskValidator).execute()).rejects.toMatchObject({ code: '23505', constraint: 'attestations_task_validator_uq' });

      const max = await db.selectFrom('attestations').select((eb) => eb.fn.max('id').as('id')).executeTakeFirstOrThrow();
      const fresh = await db
        .insertInto('attestations')
        .values({ ...copy, canonical_hash: `sha256:${'e'.repeat(64)}`, validator_hotkey: newcomer, recorded_at: NOW })
        .returning('id')
        .executeTakeFirstOrThrow();
      // The identity continues after the copied ids (the refused inserts above used up a value each).
      expect(Number(fresh.id)).toBeGreaterThan(Number(max.id));
      expect(await partitionKeysOfHashes(db, [`sha256:${'e'.repeat(64)}`])).toEqual([NOW]);
    });
  });

  describe('stragglers in the default partition', () => {
    let scratch: Awaited<ReturnType<typeof scratchSchema>>;
    beforeAll(async () => {
      scratch = await scratchSchema();
      await migrateToLatest(scratch.db);
    });
    afterAll(async () => scratch?.drop());

    it('are moved into their month when its partition is created', async () => {
      const { db } = scratch;
      // Rows received up to 7 months ahead: past the months the migration created.
      const ahead = addMonths(monthStartMs(Date.now()), 7);
      await generateAttestations(db, { rows: 1000, months: 6, endMs: ahead, validators: 10, miners: 10, artifacts: 20, createPartitions: false });
      const inDefault = async () => (await sql<{ n: number }>`select count(*)::int as n from attestations_default`.execute(db)).rows[0]!.n;
      expect(await inDefault()).toBeGreaterThan(0);
      await ensureAttestationPartitions(db, ahead - 1, { since: Date.now() });
      expect(await inDefault()).toBe(0);
      const total = await sql<{ n: number }>`select count(*)::int as n from attestations`.execute(db);
      expect(total.rows[0]!.n).toBe(1000);
    });
  });

  describe('the upkeep at start (migrate, serve, worker)', () => {
    let scratch: Awaited<ReturnType<typeof scratchSchema>>;
    let schema: string;
    beforeAll(async () => {
      scratch = await scratchSchema();
      await migrateToLatest(scratch.db);
      schema = (await sql<{ s: string }>`select current_schema() as s`.execute(scratch.db)).rows[0]!.s;
    });
    afterAll(async () => scratch?.drop());
    const inDefault = async () => (await sql<{ n: number }>`select count(*)::int as n from attestations_default`.execute(scratch.db)).rows[0]!.n;

    it('is not fatal when a reader (pg_dump) holds attestations past the lock timeout: one line, then the next check creates the month', async () => {
      const { db } = scratch;
      const due = attestationPartitionName(addMonths(monthStartMs(Date.now()), 3));
      await sql`drop table ${sql.id(due)}`.execute(db);
      // What pg_dump holds for its whole run: ACCESS SHARE on the table.
      const reader = new pg.Client({ connectionString: withSearchPath(url!, schema) });
      await reader.connect();
      try {
        await reader.query('begin');
        await reader.query('lock table attestations in access share mode');
        const lines = await attestationPartitionUpkeepAtStart(db, Date.now(), { lockTimeoutMs: 200 });
        expect(lines).toEqual([expect.stringMatching(/^attestation partition upkeep skipped, retried at the next check: .*lock timeout/)]);
      } finally {
        await reader.query('rollback');
        await reader.end();
      }
      expect(await attestationPartitionUpkeepAtStart(db, Date.now(), { lockTimeoutMs: 200 })).toEqual([`created attestation partition: ${due}`]);
    });

    it('creates the past months that rows in the default partition fall in (a demo seed) and moves those rows out', async () => {
      const { db } = scratch;
      // Rows received in the months before the current one, whose partitions nothing made.
      const endMs = monthStartMs(Date.now()) - 1;
      await generateAttestations(db, { rows: 300, months: 2, endMs, validators: 10, miners: 40, artifacts: 40, createPartitions: false });
      expect(await inDefault()).toBe(300);
      const months = (
        await sql<{ m: number }>`select distinct recorded_at as m from attestations_default`.execute(db)
      ).rows.map((r) => attestationPartitionName(monthStartMs(Number(r.m))));
      const expected = [...new Set(months)].sort();
      expect(expected.length).toBeGreaterThanOrEqual(1);
      const lines = await attestationPartitionUpkeepAtStart(db, Date.now());
      expect(lines).toEqual(expected.map((name) => `created attestation partition: ${name}`));
      expect(await inDefault()).toBe(0);
      const placed = await sql<{ n: number }>`select count(*)::int as n from attestations where tableoid::regclass::text = any(${expected}::text[])`.execute(db);
      expect(placed.rows[0]!.n).toBe(300);
      // Nothing left to do: the next check creates nothing.
      expect(await attestationPartitionUpkeepAtStart(db, Date.now())).toEqual([]);
    });
  });

  describe('EXPLAIN of the hot queries over six months of rows', () => {
    let scratch: Awaited<ReturnType<typeof scratchSchema>>;
    let monthsWithRows: string[];
    beforeAll(async () => {
      scratch = await scratchSchema();
      await migrateToLatest(scratch.db);
      // The rows end at noon on the 15th of last month, not at now: a run in the first minutes of a
      // month put a handful of rows in the new month's partition, which PostgreSQL rightly reads by a
      // sequential scan of its one page (CI failed that way at 23:59 on the last of November).
      const now = new Date();
      const endMs = Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 15, 12);
      await generateAttestations(scratch.db, { rows: 30_000, months: 6, endMs, validators: 20, miners: 30, artifacts: 200 });
      await ensureAttestationPartitions(scratch.db, Date.now());
      await sql`analyze`.execute(scratch.db);
      const rows = await sql<{ p: string }>`select distinct tableoid::regclass::text as p from attestations`.execute(scratch.db);
      monthsWithRows = rows.rows.map((r) => r.p).sort();
    }, 120_000);
    afterAll(async () => scratch?.drop());

    /** The statements on attestations that `work` ran, with their executed partition scans. */
    async function scansOf(work: () => Promise<unknown>): Promise<PlanNode[][]> {
      scratch.statements.length = 0;
      await work();
      const ran = scratch.statements.filter(onAttestations);
      const out: PlanNode[][] = [];
      for (const q of ran) out.push(await partitionScans(scratch.db, q));
      return out;
    }

    const executed = (scans: PlanNode[]) => scans.filter((s) => (s['Actual Loops'] ?? 0) > 0);
    // An index scan, or a bitmap heap scan fed by one.
    const byIndex = (s: PlanNode) => /Index|Bitmap Heap/.test(s['Node Type']);

    it('spreads the rows over six or more months', () => {
      expect(monthsWithRows.length).toBeGreaterThanOrEqual(6);
    });

    it('a lookup by canonical hash reads one partition, through an index', async () => {
      const hash = await sql<{ h: string }>`select canonical_hash as h from attestations order by id limit 1 offset 7000`.execute(scratch.db);
      const h = hash.rows[0]!.h;
      for (const work of [
        () => getAttestation(scratch.db, { canonicalHash: h, showFindings: true }),
        () => listAttestations(scratch.db, { filters: { canonical_hash: h }, after: null, size: 10, showFindings: true }),
      ]) {
        const plans = await scansOf(work);
        expect(plans).toHaveLength(1);
        expect(plans[0]!).toHaveLength(1);
        expect(plans[0]!.every(byIndex)).toBe(true);
      }
    });

    it('a round read skips the months before the round opened and uses an index', async () => {
      const round = await scratch.db
        .selectFrom('rounds')
        .select(['round_id', 'opened_at'])
        .where('track', '=', 'skills')
        .orderBy('opened_at', 'desc')
        .offset(2)
        .limit(1)
        .executeTakeFirstOrThrow();
      const miner = await scratch.db.selectFrom('tasks').select('hotkey').where('round_id', '=', round.round_id).limit(1).executeTakeFirstOrThrow();
      const reads = createPublicReadService(scratch.db);
      const plans = await scansOf(async () => {
        const shell = await reads.roundAttestations(round.round_id, miner.hotkey);
        expect(shell.tasks.length).toBeGreaterThan(0);
      });
      expect(plans).toHaveLength(1);
      const planned = plans[0]!.map((s) => s['Relation Name']!);
      const before = monthsWithRows.filter((p) => p < attestationPartitionName(monthStartMs(Number(round.opened_at) - 86_400_000)));
      expect(before.length).toBeGreaterThan(2);
      for (const p of before) expect(planned).not.toContain(p);
      // Months holding rows are read through an index; empty ones (the months ahead, the default
      // partition) may be scanned, which reads nothing.
      const withRows = plans[0]!.filter((s) => monthsWithRows.includes(s['Relation Name']!));
      expect(withRows.length).toBeGreaterThan(0);
      expect(withRows.map((s) => [s['Relation Name'], byIndex(s)])).toEqual(withRows.map((s) => [s['Relation Name'], true]));
    });

    it('a validator listing reads about one page from each partition, newest first, through the (validator, recorded_at, id) index', async () => {
      const { hotkey: validator } = await scratch.db.selectFrom('validators').select('hotkey').orderBy('hotkey').limit(1).executeTakeFirstOrThrow();
      const plans = await scansOf(() => listAttestations(scratch.db, { filters: { validator }, after: null, size: 50, showFindings: false }));
      expect(plans).toHaveLength(1);
      const scans = executed(plans[0]!);
      expect(scans.every((s) => s['Index Name']?.endsWith('validator_hotkey_recorded_at_id_idx') || /validator_recorded/.test(s['Index Name'] ?? ''))).toBe(true);
      const rowsRead = scans.reduce((sum, s) => sum + (s['Actual Rows'] ?? 0) * (s['Actual Loops'] ?? 1), 0);
      expect(rowsRead).toBeLessThanOrEqual(51 + plans[0]!.length);

      // A later page: the months after its keyset bound are not planned at all.
      const oldest = await sql<{ r: number; id: number }>`
        select recorded_at as r, id from attestations where validator_hotkey = ${validator} order by recorded_at, id offset 100 limit 1`.execute(scratch.db);
      const after = { recordedAt: Number(oldest.rows[0]!.r), id: Number(oldest.rows[0]!.id) };
      const later = await scansOf(() => listAttestations(scratch.db, { filters: { validator }, after, size: 50, showFindings: false }));
      const planned = later[0]!.map((s) => s['Relation Name']);
      const newer = monthsWithRows.filter((p) => p > attestationPartitionName(monthStartMs(after.recordedAt)));
      expect(newer.length).toBeGreaterThan(2);
      for (const p of newer) expect(planned).not.toContain(p);
    });

    it('the public aggregates (dashboard, threat trends) read no attestation at all', async () => {
      const reads = createPublicReadService(scratch.db);
      scratch.statements.length = 0;
      const dashboard = await reads.networkDashboard(new Date());
      const trends = await reads.threatTrends(30, new Date());
      expect(dashboard.attestations).toBe(30_000);
      expect(trends.attestations).toBeGreaterThan(0);
      expect(scratch.statements.length).toBeGreaterThan(0);
      expect(scratch.statements.filter(onAttestations)).toEqual([]);
    });
  });
});

/**
 * generateAttestations (the benchmarks' generator) drops the indexes and constraints of
 * attestations and attestation_keys while it writes and rebuilds them after: what it leaves must be
 * the schema the migrations made, or the benchmark measures plans the server never runs.
 */
describe.skipIf(url === undefined || url === '')('generated attestations [PostgreSQL]', () => {
  it('leave the indexes and constraints of attestations (every partition) and attestation_keys as the migrations made them', async () => {
    const scratch = await scratchSchema();
    try {
      const { db } = scratch;
      await migrateToLatest(db);
      const months = 3;
      const since = NOW - months * 30 * 86_400_000;
      // The partitions the generator makes, made first, so both catalogs have the same tables.
      await ensureAttestationPartitions(db, NOW, { since, monthsAhead: 0 });
      const catalog = async () =>
        (
          await sql<{ line: string }>`
            select c.relname || ' index ' || pg_get_indexdef(i.indexrelid) || ' valid=' || i.indisvalid as line
            from pg_index i join pg_class c on c.oid = i.indrelid
            where c.relnamespace = current_schema()::regnamespace and c.relname like 'attestation%'
            union all
            select conrelid::regclass::text || ' constraint ' || conname || ' ' || pg_get_constraintdef(oid) || ' validated=' || convalidated
            from pg_constraint
            where connamespace = current_schema()::regnamespace and conrelid::regclass::text like 'attestation%'
            order by 1`.execute(db)
        ).rows.map((r) => r.line);
      const before = await catalog();
      // Every month's partition carries the parent's ten indexes and its primary key.
      expect(before.filter((l) => l.startsWith(`${attestationPartitionName(monthStartMs(NOW))} index `))).toHaveLength(11);
      expect(before.filter((l) => l.startsWith('attestation_keys '))).toHaveLength(4);
      await generateAttestations(db, { rows: 2000, months, endMs: NOW, validators: 10, miners: 12, artifacts: 40 });
      expect(await catalog()).toEqual(before);
      // The keys are unique again: a second copy of a stored attestation is refused.
      const copy = sql`insert into attestations (canonical_hash, task_id, round_id, track, miner_hotkey, validator_hotkey, artifact_id, agent_hash,
          verdict, risk_score, findings, payload, signature, created_at, recorded_at, is_rerun)
        select canonical_hash, task_id, round_id, track, miner_hotkey, validator_hotkey, artifact_id, agent_hash,
          verdict, risk_score, findings, payload, signature, created_at, recorded_at, is_rerun from attestations limit 1`;
      await expect(copy.execute(db)).rejects.toMatchObject({ code: '23505' });
    } finally {
      await scratch.drop();
    }
  });
});
