import type { Kysely, Transaction } from 'kysely';
import type { Database } from './schema.js';

/**
 * Runs `fn` in one transaction. When `db` already is a transaction, `fn` joins it, so services can
 * be composed into a larger unit of work without nesting (which Kysely does not support).
 */
export function inTransaction<T>(db: Kysely<Database>, fn: (trx: Transaction<Database>) => Promise<T>): Promise<T> {
  if (db.isTransaction) return fn(db as Transaction<Database>);
  return db.transaction().execute(fn);
}
