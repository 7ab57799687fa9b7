import { PostgresAdapter, type Kysely } from 'kysely';

export type DialectName = 'sqlite' | 'postgres';

/**
 * Which SQL dialect a Kysely instance (or transaction) speaks. Needed where the two differ:
 * identity columns in migrations and row locks (`FOR UPDATE` exists only on PostgreSQL; SQLite
 * serialises writers anyway).
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function dialectOf(db: Kysely<any>): DialectName {
  return db.getExecutor().adapter instanceof PostgresAdapter ? 'postgres' : 'sqlite';
}
