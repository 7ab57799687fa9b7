import { isIP } from 'node:net';
import type { Kysely } from 'kysely';
import type { Database, ValidatorsTable } from '../db/schema.js';
import { inTransaction } from '../repositories/transaction.js';
import { VigilError } from '../errors.js';

export interface ValidatorRecord {
  hotkey: string;
  uid: number;
  status: ValidatorsTable['status'];
  allowedIps: string[];
  registeredAt: number;
  lastSeenAt: number | null;
}

function toRecord(row: ValidatorsTable): ValidatorRecord {
  return {
    hotkey: row.hotkey,
    uid: row.uid,
    status: row.status,
    allowedIps: JSON.parse(row.allowed_ips) as string[],
    registeredAt: row.registered_at,
    lastSeenAt: row.last_seen_at,
  };
}

/**
 * Registers a validator (or updates its uid and allowlist). A new validator starts `active`; an
 * existing one keeps its status, so re-registering never lifts a suspension or revocation.
 */
export async function registerValidator(
  db: Kysely<Database>,
  input: {
    hotkey: string;
    uid: number;
    allowedIps: readonly string[];
    now: number;
    /**
     * Create only: a record that appeared meanwhile is a unique violation, never overwritten. For a
     * caller admitted because it had no record yet, whose allowlist was therefore never checked.
     */
    mustBeNew?: boolean;
    /** The status of a new record (default `active`); `pending` where registrations need approval. */
    initialStatus?: 'active' | 'pending';
  },
): Promise<ValidatorRecord> {
  if (!Number.isInteger(input.uid) || input.uid < 0) throw new VigilError('invalid_argument', 'uid: expected a non-negative integer');
  for (const ip of input.allowedIps) {
    if (isIP(ip) === 0) throw new VigilError('invalid_argument', `allowedIps: ${JSON.stringify(ip)} is not an IP address`);
  }
  const allowed = JSON.stringify([...new Set(input.allowedIps)]);
  return inTransaction(db, async (trx) => {
    const insert = trx.insertInto('validators').values({
      hotkey: input.hotkey,
      uid: input.uid,
      status: input.initialStatus ?? 'active',
      allowed_ips: allowed,
      registered_at: input.now,
      updated_at: input.now,
      last_seen_at: null,
    });
    await (input.mustBeNew
      ? insert
      : insert.onConflict((oc) => oc.column('hotkey').doUpdateSet({ uid: input.uid, allowed_ips: allowed, updated_at: input.now }))
    ).execute();
    const row = await trx.selectFrom('validators').selectAll().where('hotkey', '=', input.hotkey).executeTakeFirstOrThrow();
    return toRecord(row);
  });
}

/** Every validator record, oldest registration first: for operators. */
export async function listValidators(db: Kysely<Database>): Promise<ValidatorRecord[]> {
  const rows = await db.selectFrom('validators').selectAll().orderBy('registered_at').orderBy('hotkey').execute();
  return rows.map(toRecord);
}

/** Suspends, revokes, approves or reinstates a validator. */
export async function setValidatorStatus(
  db: Kysely<Database>,
  input: { hotkey: string; status: ValidatorsTable['status']; now: number },
): Promise<void> {
  const result = await db
    .updateTable('validators')
    .set({ status: input.status, updated_at: input.now })
    .where('hotkey', '=', input.hotkey)
    .executeTakeFirst();
  if (result.numUpdatedRows === 0n) throw new VigilError('validator_not_found', `hotkey: no validator ${input.hotkey}`);
}

export async function findValidator(db: Kysely<Database>, hotkey: string): Promise<ValidatorRecord | undefined> {
  const row = await db.selectFrom('validators').selectAll().where('hotkey', '=', hotkey).executeTakeFirst();
  return row === undefined ? undefined : toRecord(row);
}
