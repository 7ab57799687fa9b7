import { sql, type Kysely } from 'kysely';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>;

interface Saved {
  table: string;
  name: string;
  def: string;
}

/**
 * Runs `work` (a bulk load) on PostgreSQL with the indexes, primary keys, unique constraints and
 * foreign keys of `tables` dropped, then recreates them exactly as they were (their definitions read
 * back from the catalog, names kept). Why: generateAttestations writes millions of rows, and
 * maintaining a dozen B-trees row by row (random canonical_hash inserts) plus a foreign-key check
 * per row made 1 million rows take 11 minutes; one sort per index after the load halves that
 * (docs/benchmarks.md, "Attestations at scale"). Recreating the constraints validates every row, so the generated data is still checked.
 * `db` should be one connection (Kysely's `connection()`): the catalog reads and drops run on it.
 * Tables that do not exist (attestation_keys before migration 0024) are skipped.
 */
export async function withDeferredIndexes<T>(db: AnyDb, tables: readonly string[], work: () => Promise<T>): Promise<T> {
  const present: string[] = [];
  for (const table of tables) {
    const { rows } = await sql<{ ok: boolean }>`select to_regclass(${table}) is not null as ok`.execute(db);
    if (rows[0]?.ok) present.push(table);
  }
  if (present.length === 0) return work();
  const oids = sql`array(select to_regclass(t)::oid from unnest(${present}::text[]) t)`;
  // Constraints declared on the tables themselves (not those partitions inherit from their parent).
  const { rows: constraints } = await sql<Saved & { type: string }>`
    select conrelid::regclass::text as "table", conname as name, pg_get_constraintdef(oid) as def, contype as type
    from pg_constraint where conrelid = any(${oids}) and contype in ('p', 'u', 'f') and conparentid = 0
    order by contype = 'f', conname`.execute(db);
  // Indexes that back no constraint, on the tables themselves (a partitioned parent's index drops and recreates its partitions').
  const { rows: indexes } = await sql<Saved>`
    select i.indrelid::regclass::text as "table", i.indexrelid::regclass::text as name, pg_get_indexdef(i.indexrelid) as def
    from pg_index i
    where i.indrelid = any(${oids})
      and not exists (select 1 from pg_constraint c where c.conindid = i.indexrelid and c.conrelid = i.indrelid)
    order by 2`.execute(db);

  for (const c of [...constraints].sort((a, b) => Number(b.type === 'f') - Number(a.type === 'f'))) {
    await sql`alter table ${sql.raw(c.table)} drop constraint ${sql.id(c.name)}`.execute(db);
  }
  for (const i of indexes) await sql`drop index ${sql.raw(i.name)}`.execute(db);

  const result = await work();

  // pg_get_indexdef writes a partitioned parent's index as "ON ONLY", which would not build the partitions'.
  for (const i of indexes) await sql.raw(i.def.replace(' ON ONLY ', ' ON ')).execute(db);
  for (const c of constraints) {
    await sql`alter table ${sql.raw(c.table)} add constraint ${sql.id(c.name)} ${sql.raw(c.def)}`.execute(db);
  }
  return result;
}
