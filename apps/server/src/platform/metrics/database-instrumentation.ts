import type { DatabaseInstrumentation } from '../db/database.js';
import { dbPoolAcquireDuration, dbQueryDuration, watchPool } from './metrics.js';

const KINDS: Record<string, string> = {
  SelectQueryNode: 'select',
  InsertQueryNode: 'insert',
  UpdateQueryNode: 'update',
  DeleteQueryNode: 'delete',
  MergeQueryNode: 'merge',
  // kysely's sql`` template: locks, the dialect's helpers, full-text search.
  RawNode: 'raw',
};

/** `openDatabase`'s hooks feeding vigil_db_query_duration_seconds, vigil_db_pool_acquire_duration_seconds and vigil_db_pool_connections. */
export const databaseInstrumentation: DatabaseInstrumentation = {
  query(nodeKind, failed, seconds) {
    dbQueryDuration.observe({ kind: KINDS[nodeKind] ?? 'schema', outcome: failed ? 'error' : 'ok' }, seconds);
  },
  acquire(seconds) {
    dbPoolAcquireDuration.observe(seconds);
  },
  watchPool,
};
