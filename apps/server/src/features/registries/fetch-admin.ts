import { formatOffsetTimestamp, REGISTRY_FETCH_STATES, type RegistryFetch, type RegistryFetchListQuery, type RegistryFetchState, type RegistryFetchSummary } from '@vigil/core';
import type { Kysely } from 'kysely';
import { recordAudit, type AuditActor } from '../../platform/audit-log.js';
import { lockForUpdate } from '../../platform/db/dialect.js';
import type { Database } from '../../platform/db/schema.js';
import { inTransaction } from '../../platform/db/transaction.js';
import { VigilError } from '../../platform/errors.js';
import type { FetchRow } from './fetch-queue.js';

// The operator's view of the fetch queue and the retry of failed fetches (docs/registries.md,
// "Operating the fetch queue"): the admin API and `vigil-server registries` call these.

/** A page's position in the list, newest first: the last row's `[created_at, purl]`. */
export interface FetchListKey {
  createdAt: number;
  purl: string;
}

/** The wire form of one row. `next_attempt_at` only means something while a worker may take the row. */
export function fetchBody(row: FetchRow): RegistryFetch {
  const next = row.state === 'queued' ? Number(row.next_attempt_at) : row.state === 'running' && row.lease_expires_at !== null ? Number(row.lease_expires_at) : null;
  return {
    purl: row.purl,
    ecosystem: row.ecosystem as RegistryFetch['ecosystem'],
    state: row.state,
    attempts: Number(row.attempts),
    last_error: row.last_error,
    next_attempt_at: next === null ? null : formatOffsetTimestamp(next),
    artifact_id: row.artifact_id === null ? null : `art_${Number(row.artifact_id)}`,
    track: row.track,
    created_at: formatOffsetTimestamp(Number(row.created_at)),
    updated_at: formatOffsetTimestamp(Number(row.updated_at)),
    stored_at: row.stored_at === null ? null : formatOffsetTimestamp(Number(row.stored_at)),
  };
}

/** Counts by state over the whole queue, and the fetches a worker could take now. */
export async function fetchSummary(db: Kysely<Database>, now: number): Promise<RegistryFetchSummary> {
  const byState = await db
    .selectFrom('registry_fetches')
    .select(['state', (eb) => eb.fn.countAll<number | string>().as('n')])
    .groupBy('state')
    .execute();
  const counts = Object.fromEntries(REGISTRY_FETCH_STATES.map((state) => [state, 0])) as Record<RegistryFetchState, number>;
  for (const row of byState) counts[row.state] = Number(row.n);
  // Due since: a queued row's next attempt time, a running row's lease end (its worker died).
  const [queued, running] = await Promise.all([
    db
      .selectFrom('registry_fetches')
      .select([(eb) => eb.fn.countAll<number | string>().as('n'), (eb) => eb.fn.min('next_attempt_at').as('oldest')])
      .where('state', '=', 'queued')
      .where('next_attempt_at', '<=', now)
      .executeTakeFirstOrThrow(),
    db
      .selectFrom('registry_fetches')
      .select([(eb) => eb.fn.countAll<number | string>().as('n'), (eb) => eb.fn.min('lease_expires_at').as('oldest')])
      .where('state', '=', 'running')
      .where('lease_expires_at', '<=', now)
      .executeTakeFirstOrThrow(),
  ]);
  const oldest = [queued.oldest, running.oldest].filter((v) => v !== null && v !== undefined).map(Number);
  return {
    server_time: formatOffsetTimestamp(now),
    counts,
    due: Number(queued.n) + Number(running.n),
    oldest_due_at: oldest.length === 0 ? null : formatOffsetTimestamp(Math.min(...oldest)),
  };
}

/** One page of fetches, newest first (then by purl), after `after`; `next` is the key of the page after it, or null. */
export async function listFetches(
  db: Kysely<Database>,
  options: { filters: RegistryFetchListQuery; after: FetchListKey | null; size: number },
): Promise<{ rows: FetchRow[]; next: FetchListKey | null }> {
  const { filters, after, size } = options;
  let query = db.selectFrom('registry_fetches').selectAll();
  if (filters.state !== undefined) query = query.where('state', '=', filters.state);
  if (filters.ecosystem !== undefined) query = query.where('ecosystem', '=', filters.ecosystem);
  if (after !== null) {
    query = query.where((eb) => eb.or([eb('created_at', '<', after.createdAt), eb.and([eb('created_at', '=', after.createdAt), eb('purl', '<', after.purl)])]));
  }
  const rows = await query
    .orderBy('created_at', 'desc')
    .orderBy('purl', 'desc')
    .limit(size + 1)
    .execute();
  const page = rows.slice(0, size);
  const last = page[page.length - 1];
  return { rows: page, next: rows.length > size && last !== undefined ? { createdAt: Number(last.created_at), purl: last.purl } : null };
}

/** What an operator asks to retry: one fetch by its canonical purl, or every failed one. */
export type RetryTarget = { purl: string } | { state: 'failed' };

/** The fields that put a fetch back to be taken at once, as if newly queued. */
const requeued = (now: number) => ({ state: 'queued' as const, attempts: 0, last_error: null, next_attempt_at: now, lease_owner: null, lease_expires_at: null, updated_at: now });

/**
 * Puts fetches back to be fetched now, attempts reset and the last error cleared, audited
 * (`registry_fetch.retry`) in the same transaction. A purl names a `failed` or `queued` fetch (a
 * queued one waiting out a backoff is made due now); `registry_fetch_not_found` (404) when no fetch
 * has that purl, `registry_fetch_not_retryable` (409) when it is `running` or `stored`. `{state:
 * "failed"}` retries every failed fetch, none included. Returns the purls retried, sorted.
 */
export async function retryFetches(db: Kysely<Database>, target: RetryTarget, writer: { now: number; actor: AuditActor }): Promise<string[]> {
  return inTransaction(db, async (trx) => {
    if ('purl' in target) {
      const row = await trx.selectFrom('registry_fetches').selectAll().where('purl', '=', target.purl).$call(lockForUpdate(trx)).executeTakeFirst();
      if (row === undefined) throw new VigilError('registry_fetch_not_found');
      if (row.state !== 'failed' && row.state !== 'queued') {
        throw new VigilError('registry_fetch_not_retryable', `purl: ${row.purl} is ${row.state}; only failed or queued fetches are retried`);
      }
      // Conditional on the state read: on SQLite (no row lock) a worker may have claimed it since.
      const updated = await trx.updateTable('registry_fetches').set(requeued(writer.now)).where('purl', '=', row.purl).where('state', '=', row.state).executeTakeFirst();
      if (Number(updated.numUpdatedRows) !== 1) throw new VigilError('registry_fetch_not_retryable', `purl: ${row.purl} is running; only failed or queued fetches are retried`);
      await recordAudit(trx, writer.actor, {
        action: 'registry_fetch.retry',
        target: row.purl,
        detail: { from: row.state, attempts: Number(row.attempts), last_error: row.last_error },
        at: writer.now,
      });
      return [row.purl];
    }
    const rows = await trx.updateTable('registry_fetches').set(requeued(writer.now)).where('state', '=', 'failed').returning('purl').execute();
    const purls = rows.map((row) => row.purl).sort();
    await recordAudit(trx, writer.actor, { action: 'registry_fetch.retry', target: 'state:failed', detail: { retried: purls.length }, at: writer.now });
    return purls;
  });
}
