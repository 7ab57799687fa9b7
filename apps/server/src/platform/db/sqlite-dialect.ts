import { sql, type RawBuilder, type SqlBool } from 'kysely';
import { EXACT_MATCH_BOOST, FIELD_WEIGHTS, MIN_PREFIX_WORD_LENGTH, migrationLockWaiter, type AnyDb, type FullTextIndex, type SqlDialect } from './sql-dialect.js';

// SQLite's side of SqlDialect. Its locks are no-ops: a write transaction already excludes every
// other writer, so a row it read cannot change under it (and SQLite has no FOR UPDATE).

function ftsTableName(index: { table: string }): string {
  return `${index.table}_fts`;
}

const FTS_TRIGGER_SUFFIXES = ['ai', 'ad', 'au'] as const;

/**
 * An FTS5 table over some columns of `index.table` (its external content, rowid the table's `id`),
 * kept in step by an insert, a delete and an update trigger (SQLite's external-content recipe).
 * `options` are more FTS5 table options, each after a comma. One template for both index kinds,
 * so their triggers cannot drift apart.
 */
async function createFts5Index(db: AnyDb, index: FullTextIndex, options: RawBuilder<unknown>): Promise<void> {
  const table = sql.table(index.table);
  const fts = sql.table(ftsTableName(index));
  const columns = sql.join(index.columns.map((c) => sql.ref(c)));
  const newValues = sql.join(index.columns.map((c) => sql`new.${sql.ref(c)}`));
  const oldValues = sql.join(index.columns.map((c) => sql`old.${sql.ref(c)}`));
  await sql`create virtual table ${fts} using fts5(${columns}, content=${sql.lit(index.table)}, content_rowid='id'${options})`.execute(db);
  await sql`create trigger ${sql.ref(`${index.table}_fts_ai`)} after insert on ${table} begin
    insert into ${fts}(rowid, ${columns}) values (new.id, ${newValues}); end`.execute(db);
  await sql`create trigger ${sql.ref(`${index.table}_fts_ad`)} after delete on ${table} begin
    insert into ${fts}(${fts}, rowid, ${columns}) values ('delete', old.id, ${oldValues}); end`.execute(db);
  await sql`create trigger ${sql.ref(`${index.table}_fts_au`)} after update on ${table} begin
    insert into ${fts}(${fts}, rowid, ${columns}) values ('delete', old.id, ${oldValues});
    insert into ${fts}(rowid, ${columns}) values (new.id, ${newValues}); end`.execute(db);
}

/** Undoes createFts5Index. */
async function dropFts5Index(db: AnyDb, index: FullTextIndex): Promise<void> {
  for (const suffix of FTS_TRIGGER_SUFFIXES) await sql`drop trigger ${sql.ref(`${index.table}_fts_${suffix}`)}`.execute(db);
  await sql`drop table ${sql.table(ftsTableName(index))}`.execute(db);
}

export const sqliteDialect: SqlDialect = {
  name: 'sqlite',
  lockForUpdate: (query) => query,
  shareLock: (query) => query,
  skipLockedClause: () => sql``,
  takeTurnsOn: async () => {},
  inTextList: (column, values) => sql<SqlBool>`${sql.ref(column)} in (select value from json_each(${JSON.stringify(values)}))`,
  jsonTextField: (column, key) => sql<string | null>`json_extract(${sql.ref(column)}, ${sql.lit(`$.${key}`)})`,
  byteOrder: (column) => sql<string>`${sql.ref(column)}`,
  singleRunnerStrategy: 'lease-row',
  withMigrationLock(db, timeoutMs, work) {
    const waitOrGiveUp = migrationLockWaiter(timeoutMs);
    return db.connection().execute(async (conn) => {
      const { rows } = await sql<{ timeout: number }>`pragma busy_timeout`.execute(conn);
      const busyTimeout = Number(rows[0]?.timeout ?? 0);
      await sql`pragma busy_timeout = 0`.execute(conn);
      try {
        for (;;) {
          try {
            await sql`begin immediate`.execute(conn);
            break;
          } catch (error) {
            if ((error as { code?: unknown }).code !== 'SQLITE_BUSY') throw error;
            await waitOrGiveUp();
          }
        }
      } finally {
        await sql.raw(`pragma busy_timeout = ${busyTimeout}`).execute(conn);
      }
      let result: Awaited<ReturnType<typeof work>>;
      try {
        result = await work(conn);
      } catch (error) {
        await sql`rollback`.execute(conn).catch(() => undefined);
        throw error;
      }
      await sql`commit`.execute(conn);
      return result;
    });
  },
  migrationTableSchema: async () => undefined,
  addIdColumn: (table, column) => table.addColumn(column, 'integer', (c) => c.primaryKey()),
  createFullTextIndex: (db, index) => createFts5Index(db, index, sql``),
  dropFullTextIndex: dropFts5Index,
  // Prefix indexes of 1 to 3 characters (why: createFieldedTextIndex in dialect.ts).
  createFieldedTextIndex: (db, index) => createFts5Index(db, index, sql`, prefix='1 2 3'`),
  dropFieldedTextIndex: dropFts5Index,
  rankedTextMatches(index, words, options) {
    const prefix = (w: string) => w.length >= MIN_PREFIX_WORD_LENGTH;
    const fts = sql.table(ftsTableName(index));
    const phrases = words.map((w) => (prefix(w) ? `"${w}"*` : `"${w}"`)).join(' AND ');
    const query = options.restricted ? `{${index.columns.slice(0, index.restrictedColumns).join(' ')}} : (${phrases})` : phrases;
    const exact = `{${index.columns[0]!}} : "${words.join(' ')}"`;
    const weights = sql.join(index.columns.map((_, i) => sql.lit(FIELD_WEIGHTS[i]!)));
    return sql<{ id: number; score: number }>`select rowid as id, -bm25(${fts}, ${weights})
        + case when rowid in (select rowid from ${fts} where ${fts} match ${exact}) then ${sql.lit(EXACT_MATCH_BOOST)} else 0 end as score
    from ${fts} where ${fts} match ${query} order by score desc, rowid limit ${sql.lit(options.limit)}`;
  },
};
