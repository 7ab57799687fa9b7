import { randomUUID } from 'node:crypto';
import type { Kysely, Selectable } from 'kysely';
import { chunkRows } from '../../platform/db/chunk-rows.js';
import type { Database, RegistryFetchesTable, TrackName } from '../../platform/db/schema.js';

export type FetchRow = Selectable<RegistryFetchesTable>;

/** How long a worker holds a `running` fetch; a worker that died holding one leaves it to be taken again after this. */
export const FETCH_LEASE_MS = 10 * 60_000;

/** The rows of these purls, by purl. */
export async function fetchRows(db: Kysely<Database>, purls: readonly string[]): Promise<Map<string, FetchRow>> {
  if (purls.length === 0) return new Map();
  // In chunks: a 20,000-entry lockfile names more purls than one statement may bind.
  const found = new Map<string, FetchRow>();
  for (const chunk of chunkRows([...new Set(purls)].map((purl) => ({ purl })), 1)) {
    const rows = await db.selectFrom('registry_fetches').selectAll().where('purl', 'in', chunk.map((c) => c.purl)).execute();
    for (const row of rows) found.set(row.purl, row);
  }
  return found;
}

/** Queues one fetch per purl not queued before (the purl is the key: concurrent requests queue one). */
export async function queueFetches(db: Kysely<Database>, refs: readonly { purl: string; ecosystem: string }[], now: number): Promise<void> {
  if (refs.length === 0) return;
  const rows = refs.map((ref) => ({ purl: ref.purl, ecosystem: ref.ecosystem, state: 'queued' as const, next_attempt_at: now, created_at: now, updated_at: now }));
  // In chunks: a 20,000-entry lockfile queues more rows than one statement may bind (it was a 500 on SQLite).
  for (const chunk of chunkRows(rows, 6)) {
    await db.insertInto('registry_fetches').values(chunk).onConflict((oc) => oc.column('purl').doNothing()).execute();
  }
}

export interface ClaimedFetch {
  row: FetchRow;
  /** This claim's lease owner: finishing is refused once another worker took the row. */
  owner: string;
}

/**
 * Takes the next due fetch: a `queued` one whose time has come, or a `running` one whose lease ran
 * out (its worker died). The update is conditional on the row still being due, so two workers racing
 * for one row take it once.
 */
export async function claimDueFetch(db: Kysely<Database>, now: number): Promise<ClaimedFetch | undefined> {
  for (let tries = 0; tries < 5; tries++) {
    const candidate = await db
      .selectFrom('registry_fetches')
      .select('purl')
      .where((eb) =>
        eb.or([
          eb.and([eb('state', '=', 'queued'), eb('next_attempt_at', '<=', now)]),
          eb.and([eb('state', '=', 'running'), eb('lease_expires_at', '<=', now)]),
        ]),
      )
      .orderBy('next_attempt_at')
      .orderBy('created_at')
      .limit(1)
      .executeTakeFirst();
    if (candidate === undefined) return undefined;
    const owner = randomUUID();
    const claimed = await db
      .updateTable('registry_fetches')
      .set((eb) => ({ state: 'running', lease_owner: owner, lease_expires_at: now + FETCH_LEASE_MS, attempts: eb('attempts', '+', 1), updated_at: now }))
      .where('purl', '=', candidate.purl)
      .where((eb) =>
        eb.or([
          eb.and([eb('state', '=', 'queued'), eb('next_attempt_at', '<=', now)]),
          eb.and([eb('state', '=', 'running'), eb('lease_expires_at', '<=', now)]),
        ]),
      )
      .returningAll()
      .executeTakeFirst();
    if (claimed !== undefined) return { row: claimed, owner };
  }
  return undefined;
}

export type Outcome =
  | { state: 'stored'; artifactId: number; track: TrackName }
  | { state: 'failed'; reason: string }
  | { state: 'retry'; reason: string; at: number };

/** Records how a claimed fetch ended; false when the claim was lost (another worker took the row after the lease). */
export async function finishFetch(db: Kysely<Database>, claim: ClaimedFetch, outcome: Outcome, now: number): Promise<boolean> {
  const released = { lease_owner: null, lease_expires_at: null, updated_at: now };
  const values =
    outcome.state === 'stored'
      ? { ...released, state: 'stored' as const, artifact_id: outcome.artifactId, track: outcome.track, stored_at: now, last_error: null }
      : outcome.state === 'failed'
        ? { ...released, state: 'failed' as const, last_error: outcome.reason }
        : { ...released, state: 'queued' as const, last_error: outcome.reason, next_attempt_at: outcome.at };
  const result = await db
    .updateTable('registry_fetches')
    .set(values)
    .where('purl', '=', claim.row.purl)
    .where('state', '=', 'running')
    .where('lease_owner', '=', claim.owner)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/**
 * Whether the row already holds `outcome` as written by `finishFetch` at `now`: a write that
 * committed though its answer was lost (the connection reset after the commit), so the retry that
 * followed found the lease released. Another worker's outcome differs at least in its time: it could
 * take the row only after this claim's 10-minute lease ran out.
 */
export async function holdsOutcome(db: Kysely<Database>, claim: ClaimedFetch, outcome: Outcome, now: number): Promise<boolean> {
  const row = await db.selectFrom('registry_fetches').selectAll().where('purl', '=', claim.row.purl).executeTakeFirst();
  if (row === undefined || row.lease_owner !== null || Number(row.updated_at) !== now) return false;
  if (outcome.state === 'stored') return row.state === 'stored' && Number(row.artifact_id) === outcome.artifactId;
  if (outcome.state === 'failed') return row.state === 'failed' && row.last_error === outcome.reason;
  return row.state === 'queued' && row.last_error === outcome.reason && Number(row.next_attempt_at) === outcome.at;
}

/**
 * Gives back a fetch this worker holds but will not finish (it is stopping): due again at once, its
 * interrupted attempt not counted. Refused, like finishing, once another worker took the row.
 */
export async function releaseFetch(db: Kysely<Database>, claim: ClaimedFetch, now: number): Promise<boolean> {
  const result = await db
    .updateTable('registry_fetches')
    .set({ state: 'queued', lease_owner: null, lease_expires_at: null, next_attempt_at: now, attempts: Math.max(0, claim.row.attempts - 1), updated_at: now })
    .where('purl', '=', claim.row.purl)
    .where('state', '=', 'running')
    .where('lease_owner', '=', claim.owner)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}
