import { randomUUID } from 'node:crypto';
import { IDEMPOTENCY_KEY_TTL_MS } from '@vigil/core';
import type { Kysely } from 'kysely';
import type { Database, IdempotencyKeysTable } from '../../../platform/db/schema.js';
import { VigilError } from '../../../platform/errors.js';

/** A request's identity under one key: what a repeat must match to be answered from the store. */
export interface IdempotentRequest {
  accountId: string;
  key: string;
  method: string;
  path: string;
  fingerprint: string;
}

export interface StoredResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

export type Claim = { kind: 'owner'; token: string } | { kind: 'replay'; response: StoredResponse };

function keyOf(db: Kysely<Database>, request: Pick<IdempotentRequest, 'accountId' | 'key'>) {
  return db
    .updateTable('idempotency_keys')
    .where('account_id', '=', request.accountId)
    .where('idempotency_key', '=', request.key);
}

/**
 * Claims an idempotency key for a request, or answers what an earlier request with that key got.
 * Every transition is one conditional statement, so of several instances racing for a key exactly
 * one becomes its owner, whichever dialect:
 * - no row: insert (a concurrent insert loses on the primary key and reads the winner's row);
 * - an expired row (older than 24 h): replaced by whoever's update still sees it expired;
 * - another method, path or body: 422 `idempotency_key_mismatch`;
 * - completed: the stored answer (replay);
 * - running, claimed less than `takeoverAfterMs` ago: 409 `idempotency_key_in_progress`;
 * - running and older (its request died, e.g. the server crashed, or answered 504 and its handler
 *   had the time to finish): taken over by whoever's update still sees the old claim.
 */
export async function claimIdempotencyKey(
  db: Kysely<Database>,
  request: IdempotentRequest,
  options: { now: number; takeoverAfterMs: number },
): Promise<Claim> {
  const { now } = options;
  const token = randomUUID();
  const fresh: IdempotencyKeysTable = {
    account_id: request.accountId,
    idempotency_key: request.key,
    method: request.method,
    path: request.path,
    fingerprint: request.fingerprint,
    state: 'running',
    claim_token: token,
    claimed_at: now,
    created_at: now,
    expires_at: now + IDEMPOTENCY_KEY_TTL_MS,
    status: null,
    headers: null,
    body: null,
  };
  // Two rounds at most: a row that vanished (released after a 5xx) between the insert and the read
  // is retried once; anything still unsettled after that is in progress.
  for (let attempt = 0; attempt < 2; attempt += 1) {
    const inserted = await db
      .insertInto('idempotency_keys')
      .values(fresh)
      .onConflict((oc) => oc.columns(['account_id', 'idempotency_key']).doNothing())
      .executeTakeFirst();
    if (Number(inserted.numInsertedOrUpdatedRows ?? 0) > 0) return { kind: 'owner', token };

    const row = await db
      .selectFrom('idempotency_keys')
      .selectAll()
      .where('account_id', '=', request.accountId)
      .where('idempotency_key', '=', request.key)
      .executeTakeFirst();
    if (row === undefined) continue;

    if (Number(row.expires_at) <= now) {
      const { account_id: _a, idempotency_key: _k, ...replacement } = fresh;
      const replaced = await keyOf(db, request).set(replacement).where('expires_at', '<=', now).executeTakeFirst();
      if (replaced.numUpdatedRows > 0n) return { kind: 'owner', token };
      continue;
    }
    if (row.fingerprint !== request.fingerprint) throw new VigilError('idempotency_key_mismatch');
    if (row.state === 'completed' && row.status !== null && row.body !== null) {
      return {
        kind: 'replay',
        response: { status: Number(row.status), headers: JSON.parse(row.headers ?? '{}') as Record<string, string>, body: row.body },
      };
    }
    if (Number(row.claimed_at) + options.takeoverAfterMs <= now) {
      const taken = await keyOf(db, request)
        .set({ claim_token: token, claimed_at: now })
        .where('state', '=', 'running')
        .where('claim_token', '=', row.claim_token)
        .executeTakeFirst();
      if (taken.numUpdatedRows > 0n) return { kind: 'owner', token };
    }
    throw new VigilError('idempotency_key_in_progress');
  }
  throw new VigilError('idempotency_key_in_progress');
}

/** Stores the owner's answer; a claim taken over meanwhile (token changed) is left to its new owner. */
export async function completeIdempotencyKey(
  db: Kysely<Database>,
  request: Pick<IdempotentRequest, 'accountId' | 'key'>,
  token: string,
  response: StoredResponse,
): Promise<void> {
  await keyOf(db, request)
    .set({ state: 'completed', status: response.status, headers: JSON.stringify(response.headers), body: response.body })
    .where('claim_token', '=', token)
    .where('state', '=', 'running')
    .execute();
}

/** Frees the key (after a 5xx): the client may send the request again and it runs again. */
export async function releaseIdempotencyKey(
  db: Kysely<Database>,
  request: Pick<IdempotentRequest, 'accountId' | 'key'>,
  token: string,
): Promise<void> {
  await db
    .deleteFrom('idempotency_keys')
    .where('account_id', '=', request.accountId)
    .where('idempotency_key', '=', request.key)
    .where('claim_token', '=', token)
    .where('state', '=', 'running')
    .execute();
}

/** Deletes keys past their 24 h; returns how many. */
export async function purgeExpiredIdempotencyKeys(db: Kysely<Database>, now: number): Promise<number> {
  const result = await db.deleteFrom('idempotency_keys').where('expires_at', '<=', now).executeTakeFirst();
  return Number(result.numDeletedRows);
}
