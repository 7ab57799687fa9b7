import { sql, type Kysely, type Transaction } from 'kysely';
import { expect, it } from 'vitest';
import { describeEachDialect } from '../../test-support/databases.js';
import {
  addIdColumn,
  byteOrder,
  dialectOf,
  EXACT_MATCH_BOOST,
  rankedTextMatches,
  inTextList,
  jsonTextField,
  lockForUpdate,
  normalizeSearchWords,
  migrationTableSchema,
  shareLock,
  singleRunnerStrategy,
  skipLockedClause,
  takeTurnsOn,
  TRANSACTION_LOCK_NAMESPACE,
  withMigrationLock,
} from './dialect.js';
import type { Database } from './schema.js';
import { SEARCH_INDEX } from '../search-index.js';

const NAMES = ['a', 'b', 'c'];

async function seedLeases(db: Kysely<Database>): Promise<void> {
  await db
    .insertInto('scheduler_leases')
    .values(NAMES.map((name) => ({ name, holder: 'test', expires_at: 0 })))
    .execute();
}

/**
 * What another session sees when it asks for the row's lock without waiting: `free`, or `locked`
 * (PostgreSQL's lock_not_available). Runs on its own pooled connection while the caller's
 * transaction is still open.
 */
async function probeLock(db: Kysely<Database>, name: string, mode: 'update' | 'share'): Promise<'free' | 'locked'> {
  const clause = mode === 'update' ? sql`for update nowait` : sql`for share nowait`;
  try {
    await db.transaction().execute((trx) => sql`select name from scheduler_leases where name = ${name} ${clause}`.execute(trx));
    return 'free';
  } catch (error) {
    if ((error as { code?: unknown }).code === '55P03') return 'locked';
    throw error;
  }
}

function claimOne(trx: Transaction<Database>) {
  return sql<{ name: string }>`select t.name from scheduler_leases t order by t.name limit 1 ${skipLockedClause(trx, 't')}`.execute(trx);
}

describeEachDialect('the dialect seam', ({ dialect, db }) => {
  it('names the dialect the database speaks', () => {
    expect(dialectOf(db())).toBe(dialect);
  });

  it('lockForUpdate returns the rows, and on PostgreSQL keeps other writers off them until commit', async () => {
    await seedLeases(db());
    await db()
      .transaction()
      .execute(async (trx) => {
        const rows = await trx.selectFrom('scheduler_leases').select('name').where('name', '=', 'a').$call(lockForUpdate(trx)).execute();
        expect(rows).toEqual([{ name: 'a' }]);
        if (dialect === 'postgres') {
          expect(await probeLock(db(), 'a', 'share')).toBe('locked');
          expect(await probeLock(db(), 'b', 'update')).toBe('free');
        }
      });
    if (dialect === 'postgres') expect(await probeLock(db(), 'a', 'update')).toBe('free');
  });

  it('shareLock returns the rows, and on PostgreSQL lets readers share them but keeps writers off', async () => {
    await seedLeases(db());
    await db()
      .transaction()
      .execute(async (trx) => {
        const rows = await trx
          .selectFrom('scheduler_leases')
          .select('name')
          .where('name', '=', 'a')
          .$call(shareLock(trx, 'scheduler_leases'))
          .execute();
        expect(rows).toEqual([{ name: 'a' }]);
        if (dialect === 'postgres') {
          expect(await probeLock(db(), 'a', 'share')).toBe('free');
          expect(await probeLock(db(), 'a', 'update')).toBe('locked');
        }
      });
  });

  it('skipLockedClause claims the first row, and on PostgreSQL passes over rows another transaction holds', async () => {
    await seedLeases(db());
    const first = await db()
      .transaction()
      .execute(async (trx) => (await claimOne(trx)).rows);
    expect(first).toEqual([{ name: 'a' }]);
    if (dialect !== 'postgres') return;
    await db()
      .transaction()
      .execute(async (holder) => {
        expect((await claimOne(holder)).rows).toEqual([{ name: 'a' }]);
        await db()
          .transaction()
          .execute(async (other) => {
            expect((await claimOne(other)).rows).toEqual([{ name: 'b' }]);
            expect(await probeLock(db(), 'b', 'update')).toBe('locked');
          });
      });
  });

  it('takeTurnsOn makes transactions with the same key run one after the other, and other keys pass', async () => {
    const order: string[] = [];
    /** Whether a transaction waits for its turn (an advisory lock of this namespace not yet granted). */
    const someoneWaits = async () => {
      const { rows } = await sql<{ n: number }>`select count(*) as n from pg_locks
        where locktype = 'advisory' and classid = ${TRANSACTION_LOCK_NAMESPACE} and not granted`.execute(db());
      return Number(rows[0]!.n) > 0;
    };
    let second: Promise<void> | undefined;
    await db()
      .transaction()
      .execute(async (first) => {
        await takeTurnsOn(first, 'artifact:x');
        // SQLite: nothing to see (and a second transaction would wait for this one's connection).
        if (dialect !== 'postgres') return;
        // Another key is not held up (the test would hang here otherwise).
        await db()
          .transaction()
          .execute((other) => takeTurnsOn(other, 'artifact:y'));
        second = db()
          .transaction()
          .execute(async (trx) => {
            await takeTurnsOn(trx, 'artifact:x');
            order.push('second');
          });
        while (order.length === 0 && !(await someoneWaits())) await new Promise((resolve) => setTimeout(resolve, 5));
        order.push('first');
      });
    await second;
    expect(order).toEqual(dialect === 'postgres' ? ['first', 'second'] : []);
  });

  it('singleRunnerStrategy is an advisory lock on PostgreSQL and a lease row on SQLite', () => {
    expect(singleRunnerStrategy(db())).toBe(dialect === 'postgres' ? 'advisory-lock' : 'lease-row');
  });

  it('migrationTableSchema is the current schema on PostgreSQL and none on SQLite', async () => {
    const schema = await migrationTableSchema(db());
    if (dialect === 'sqlite') {
      expect(schema).toBeUndefined();
      return;
    }
    const { rows } = await sql<{ schema: string }>`select current_schema() as schema`.execute(db());
    expect(schema).toBe(rows[0]!.schema);
    // The test database lives in its own schema, not in public: the answer follows the search path.
    expect(schema).toMatch(/^vigil_t_/);
  });

  it('addIdColumn numbers inserted rows 1, 2, … and refuses a duplicate id', async () => {
    const anyDb = db() as unknown as Kysely<Record<string, { id?: number; seq?: number; label: string }>>;
    await addIdColumn(anyDb, anyDb.schema.createTable('dialect_id_probe'), 'seq')
      .addColumn('label', 'text', (c) => c.notNull())
      .execute();
    try {
      await anyDb.insertInto('dialect_id_probe').values({ label: 'x' }).execute();
      await anyDb.insertInto('dialect_id_probe').values({ label: 'y' }).execute();
      const rows = await anyDb.selectFrom('dialect_id_probe').select(['seq', 'label']).orderBy('seq').execute();
      expect(rows.map((r) => [Number(r.seq), r.label])).toEqual([
        [1, 'x'],
        [2, 'y'],
      ]);
      await expect(anyDb.insertInto('dialect_id_probe').values({ seq: 1, label: 'z' }).execute()).rejects.toThrow();
    } finally {
      await anyDb.schema.dropTable('dialect_id_probe').execute();
    }
  });

  it('the search index (migration 0016) follows inserts, updates and deletes, matches word prefixes, ranks the first column higher, leaves out the last column when restricted, and hands over at most the limit', async () => {
    const index = { table: 'search_entries', columns: ['ident_terms', 'other_terms', 'finding_terms'], restrictedColumns: 2 };
    const entry = (refId: number, ident: string, other: string, finding = '') => ({
      kind: 'artifact' as const,
      ref_id: refId,
      audience: '',
      artifact_id: refId,
      title: String(refId),
      facets: '{}',
      ident_terms: normalizeSearchWords(ident).join(' '),
      other_terms: normalizeSearchWords(other).join(' '),
      finding_terms: normalizeSearchWords(finding).join(' '),
      updated_at: 0,
    });
    await db()
      .insertInto('search_entries')
      .values([entry(1, 'skills/left-pad/npm', 'WARN'), entry(2, 'skills/quiet/gh', 'left pad mentioned', 'exfiltration'), entry(3, 'x', 'y')])
      .execute();
    const idOf = new Map((await db().selectFrom('search_entries').select(['id', 'ref_id']).execute()).map((r) => [Number(r.id), Number(r.ref_id)]));
    const match = async (text: string, options = { restricted: false, limit: 10 }) => {
      const rows = await sql<{ id: number; score: number }>`select * from (${rankedTextMatches(db(), index, normalizeSearchWords(text), options)}) m order by score desc`.execute(db());
      return rows.rows.map((r) => idOf.get(Number(r.id)));
    };
    expect(await match('left-pad')).toEqual([1, 2]);
    expect(await match('LEFT')).toEqual([1, 2]);
    expect(await match('qui')).toEqual([2]);
    expect(await match('lef')).toEqual([1, 2]);
    // One or two characters match whole words only.
    expect(await match('l')).toEqual([]);
    expect(await match('left warn')).toEqual([1]);
    expect(await match('left', { restricted: false, limit: 1 })).toEqual([1]);
    expect(await match('exfil')).toEqual([2]);
    expect(await match('exfil', { restricted: true, limit: 10 })).toEqual([]);
    expect(await match('quiet exfil', { restricted: true, limit: 10 })).toEqual([]);
    expect(await match('quiet', { restricted: true, limit: 10 })).toEqual([2]);
    await db().updateTable('search_entries').set({ other_terms: 'allow' }).where('ref_id', '=', 1).execute();
    expect(await match('warn')).toEqual([]);
    expect(await match('allow')).toEqual([1]);
    await db().deleteFrom('search_entries').where('ref_id', '=', 2).execute();
    expect(await match('left')).toEqual([1]);
    expect(normalizeSearchWords('sha256:E3B0 Ünïcode_left-pad')).toEqual(['sha256', 'e3b0', 'unicode', 'left', 'pad']);
  });

  it('finds a hash whose hex holds a run the PostgreSQL parser reads as a number (3e7…), whole and by prefix', async () => {
    // to_tsvector('simple', '3e7fab12…') is '3e7' and 'fab12…': a query must split the same way.
    const hex = `3e7fab12${'0e5d'.repeat(14)}`;
    await db()
      .insertInto('search_entries')
      .values([hex, 'ab'.repeat(32)].map((h, i) => ({ kind: 'artifact' as const, ref_id: i + 1, audience: '', artifact_id: i + 1, title: h, facets: '{}', ident_terms: normalizeSearchWords(`sha256:${h}`).join(' '), other_terms: '', finding_terms: '', updated_at: 0 })))
      .execute();
    const titles = async (text: string) => {
      const rows = await sql<{ id: number }>`select * from (${rankedTextMatches(db(), SEARCH_INDEX, normalizeSearchWords(text), { restricted: false, limit: 10 })}) m order by score desc, id`.execute(db());
      const byId = new Map((await db().selectFrom('search_entries').select(['id', 'title']).execute()).map((r) => [Number(r.id), r.title]));
      return rows.rows.map((r) => byId.get(Number(r.id)));
    };
    expect(await titles(`sha256:${hex}`)).toEqual([hex]);
    expect(await titles(hex)).toEqual([hex]);
    expect(await titles(hex.slice(0, 12))).toEqual([hex]);
    expect(await titles('3e7f')).toEqual([hex]);
  });

  it('ranks search matches by field weight, occurrences and length, first an exact identifier match, with no prefix expansion of one or two characters', async () => {
    const entry = (refId: number, ident: string, other: string, finding = '') => ({
      kind: 'artifact' as const,
      ref_id: refId,
      audience: '',
      artifact_id: refId,
      title: String(refId),
      facets: '{}',
      ident_terms: normalizeSearchWords(ident).join(' '),
      other_terms: normalizeSearchWords(other).join(' '),
      finding_terms: normalizeSearchWords(finding).join(' '),
      updated_at: 0,
    });
    const hash = `sha256:${'4a'.repeat(32)}`;
    await db()
      .insertInto('search_entries')
      .values([
        // An attestation mentioning the artifact: its purl's words, a round `2…`, a hotkey `4a…`.
        entry(1, `sha256:${'9f'.repeat(32)} task 2b7e`, `pkg npm left pad 1 3 0 round 2024 hotkey 4a1b packages ${hash} attestation`),
        entry(2, `pkg:npm/left-pad@1.3.0 ${hash} packages/pkg:npm/left-pad@1.3.0`, 'packages warn artifact'),
        entry(3, 'pkg:npm/left-pad@1.3.01', 'packages artifact'),
        entry(4, 'quiet', 'packages artifact', 'exfiltration'),
        entry(5, 'quiet', 'packages artifact', 'exfiltration exfiltration exfiltration'),
        entry(6, 'quiet', 'packages artifact more words here and there', 'exfiltration something else entirely different'),
        entry(7, 'zebra', 'a b'),
        entry(8, 'a', 'zebra b'),
        entry(9, 'a', 'b', 'zebra'),
      ])
      .execute();
    const idOf = new Map((await db().selectFrom('search_entries').select(['id', 'ref_id']).execute()).map((r) => [Number(r.id), Number(r.ref_id)]));
    const ranked = async (text: string) => {
      const rows = await sql<{ id: number; score: number }>`select * from (${rankedTextMatches(db(), SEARCH_INDEX, normalizeSearchWords(text), { restricted: false, limit: 10 })}) m order by score desc, id`.execute(db());
      return rows.rows.map((r) => ({ ref: idOf.get(Number(r.id))!, score: Number(r.score) }));
    };

    // A full purl: the artifact it names first, boosted past everything else; `3` matches the word 3 only.
    const purl = await ranked('pkg:npm/left-pad@1.3.0');
    expect(purl.map((r) => r.ref)).toEqual([2, 1]);
    expect(purl[0]!.score).toBeGreaterThan(EXACT_MATCH_BOOST);
    expect(purl[1]!.score).toBeLessThan(EXACT_MATCH_BOOST);
    // A full hash likewise; a hash prefix matches as a prefix, the identifier ahead of the mention.
    expect((await ranked(hash)).map((r) => r.ref)).toEqual([2, 1]);
    expect((await ranked(hash)).map((r) => r.score > EXACT_MATCH_BOOST)).toEqual([true, false]);
    expect((await ranked('4a4a4a')).map((r) => r.ref)).toEqual([2, 1]);
    // One or two characters are whole words: `4a` and `2` do not expand to `4a1b`, `2024`, `2b7e`.
    expect(await ranked('4a')).toEqual([]);
    expect((await ranked('2')).map((r) => r.ref)).toEqual([]);
    expect((await ranked('b')).map((r) => r.ref).sort()).toEqual([7, 8, 9]);
    // One word in findings: more occurrences rank higher, a longer entry lower; no two alike.
    const exfiltration = await ranked('exfiltration');
    expect(exfiltration.map((r) => r.ref)).toEqual([5, 4, 6]);
    expect(new Set(exfiltration.map((r) => r.score)).size).toBe(3);
    // The same word in identifiers, other fields, findings: in that order.
    const zebra = await ranked('zebra');
    expect(zebra.map((r) => r.ref)).toEqual([7, 8, 9]);
    expect(zebra[0]!.score).toBeGreaterThan(zebra[1]!.score);
    expect(zebra[1]!.score).toBeGreaterThan(zebra[2]!.score);
  });

  it('byteOrder sorts in byte order, even a column of a locale collation', async () => {
    const names = ['b', 'B', 'a', '_x', '-y', '0z', 'A'];
    await db().insertInto('scheduler_leases').values(names.map((name) => ({ name, holder: 'test', expires_at: 0 }))).execute();
    // On PostgreSQL the column is given ICU's root collation, where `a` sorts before `B`.
    const source = dialect === 'postgres' ? sql`(select name collate "und-x-icu" as name from scheduler_leases)` : sql`(select name from scheduler_leases)`;
    const ordered = await sql<{ name: string }>`select t.name from ${source} t order by ${byteOrder(db(), 't.name')}`.execute(db());
    expect(ordered.rows.map((r) => r.name)).toEqual(['-y', '0z', 'A', 'B', '_x', 'a', 'b']);
  });

  it('inTextList matches the listed values through the index, one parameter whatever the list length', async () => {
    const rows = Array.from({ length: 40_000 }, (_, i) => ({ name: `lease-${i}`, holder: 'test', expires_at: i }));
    for (let i = 0; i < rows.length; i += 5_000) await db().insertInto('scheduler_leases').values(rows.slice(i, i + 5_000)).execute();
    // 35,000 values: more than either dialect binds as separate parameters in one statement.
    const wanted = [...Array.from({ length: 34_998 }, (_, i) => `absent-${i}`), 'lease-7', "lease-39999'"];
    wanted.push('lease-39999');
    const found = await db().selectFrom('scheduler_leases').select('name').where(inTextList(db(), 'name', wanted)).orderBy('name').execute();
    expect(found.map((r) => r.name)).toEqual(['lease-39999', 'lease-7']);
    expect(await db().selectFrom('scheduler_leases').select('name').where(inTextList(db(), 'name', [])).execute()).toEqual([]);
    const plan =
      dialect === 'postgres'
        ? (await sql<{ 'QUERY PLAN': string }>`explain select name from scheduler_leases where ${inTextList(db(), 'name', ['lease-7'])}`.execute(db())).rows.map((r) => r['QUERY PLAN']).join('\n')
        : (await sql<{ detail: string }>`explain query plan select name from scheduler_leases where ${inTextList(db(), 'name', ['lease-7'])}`.execute(db())).rows.map((r) => r.detail).join('\n');
    expect(plan).toMatch(dialect === 'postgres' ? /Index|Bitmap/ : /USING (COVERING )?INDEX|PRIMARY KEY/);
  });

  it('jsonTextField reads a top-level key of a JSON text column, null when absent, and refuses a key that is not an identifier', async () => {
    const rows = await sql<{ a: string | null; b: string | null }>`select ${jsonTextField(db(), 't.doc', 'hash')} as a, ${jsonTextField(db(), 't.doc', 'missing')} as b
      from (select ${JSON.stringify({ hash: 'sha256:ab', n: 1 })} as doc) t`.execute(db());
    expect(rows.rows).toEqual([{ a: 'sha256:ab', b: null }]);
    expect(() => jsonTextField(db(), 'doc', "x') or 1=1 --")).toThrow(TypeError);
  });

  it('withMigrationLock makes a second caller wait until the first is done, and keeps what the work wrote', async () => {
    const events: string[] = [];
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const first = withMigrationLock(db(), 10_000, async (conn) => {
      events.push('first');
      await conn.insertInto('stat_counters').values({ name: 'first', value: 1 }).execute();
      await gate;
      events.push('first done');
    });
    while (!events.includes('first')) await new Promise((resolve) => setTimeout(resolve, 5));
    const second = withMigrationLock(db(), 10_000, async () => {
      events.push('second');
    });
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(events).toEqual(['first']);
    release();
    await Promise.all([first, second]);
    expect(events).toEqual(['first', 'first done', 'second']);
    expect(await db().selectFrom('stat_counters').select('name').execute()).toEqual([{ name: 'first' }]);
  });

  // kysely's migrator asks the connection it is given for every table; on PostgreSQL the listing
  // is of the migration schema alone, as kysely's own introspector describes its tables.
  /**
   * kysely's own listing of every schema's tables, asked again while other test files' schemas
   * change under it (what the scoped listing spares the migrator: "column … does not exist").
   */
  async function everyTable(on: Kysely<Database>) {
    for (let attempt = 1; ; attempt++) {
      try {
        return await on.introspection.getTables({ withInternalKyselyTables: true });
      } catch (error) {
        if (attempt === 20 || !['3F000', '42P01', '42703'].includes((error as { code?: string }).code ?? '')) throw error;
      }
    }
  }

  it("withMigrationLock's connection lists the tables of the migration schema alone, as kysely's introspector describes them", async () => {
    const other = `vigil_other_${Math.random().toString(16).slice(2, 10)}`;
    if (dialect === 'postgres') await sql`create schema ${sql.id(other)}; create table ${sql.id(other, 't')} (id serial primary key, a text)`.execute(db());
    try {
      const schema = await migrationTableSchema(db());
      const everything = await everyTable(db());
      const mine = everything.filter((t) => schema === undefined || t.schema === schema);
      const [listed, listedWithoutKysely, schemas] = await withMigrationLock(db(), 10_000, (conn) =>
        Promise.all([conn.introspection.getTables({ withInternalKyselyTables: true }), conn.introspection.getTables(), conn.introspection.getSchemas()]),
      );
      expect(mine.length).toBeGreaterThan(20);
      expect(listed).toEqual(mine);
      expect(listedWithoutKysely).toEqual(mine.filter((t) => !t.name.startsWith('kysely_migration')));
      if (dialect === 'postgres') {
        expect(everything.some((t) => t.schema === other)).toBe(true);
        expect(listed.some((t) => t.schema === other)).toBe(false);
        expect(schemas).toEqual([{ name: schema }]);
        // A serial column counts as auto-incrementing, as kysely's introspector says.
        expect(mine.flatMap((t) => t.columns).some((c) => c.isAutoIncrementing)).toBe(true);
      }
    } finally {
      if (dialect === 'postgres') await sql`drop schema ${sql.id(other)} cascade`.execute(db());
    }
  });
});
