import { isIP } from 'node:net';
import type { ValidatorAdminAction } from '@vigil/core';
import type { Kysely } from 'kysely';
import { lockForUpdate } from '../../../platform/db/dialect.js';
import type { Database, ValidatorsTable } from '../../../platform/db/schema.js';
import { recordAudit, type AuditActor } from '../../../platform/audit-log.js';
import { inTransaction } from '../../../platform/db/transaction.js';
import { VigilError } from '../../../platform/errors.js';

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

/**
 * What each operator action sets, and from which statuses. Anything else is refused, so a typo
 * cannot undo a revocation. The command line (`vigil-server validators …`) and the admin API share it.
 */
export const VALIDATOR_ACTIONS: Readonly<
  Record<ValidatorAdminAction, { to: ValidatorsTable['status']; from: readonly ValidatorsTable['status'][] }>
> = {
  approve: { to: 'active', from: ['pending'] },
  suspend: { to: 'suspended', from: ['pending', 'active'] },
  revoke: { to: 'revoked', from: ['pending', 'active', 'suspended'] },
  restore: { to: 'active', from: ['suspended', 'revoked'] },
};

async function lockedValidator(trx: Kysely<Database>, hotkey: string): Promise<ValidatorsTable> {
  const row = await trx.selectFrom('validators').selectAll().where('hotkey', '=', hotkey).$call(lockForUpdate(trx)).executeTakeFirst();
  if (row === undefined) throw new VigilError('unknown_validator');
  return row;
}

/**
 * Applies an operator action to a validator (approve a pending registration, suspend, revoke,
 * restore), audited in the same transaction. Refusals: `unknown_validator` (404) and
 * `validator_wrong_status` (409) when the action does not apply to the current status.
 */
export async function applyValidatorAction(
  db: Kysely<Database>,
  input: { hotkey: string; action: ValidatorAdminAction; now: number; actor: AuditActor },
): Promise<{ record: ValidatorRecord; from: ValidatorsTable['status'] }> {
  const rule = VALIDATOR_ACTIONS[input.action];
  return inTransaction(db, async (trx) => {
    const row = await lockedValidator(trx, input.hotkey);
    if (!rule.from.includes(row.status)) {
      throw new VigilError(
        'validator_wrong_status',
        `hotkey: ${input.hotkey} is ${row.status}; ${input.action} applies to ${rule.from.join(' or ')} validators`,
      );
    }
    await trx.updateTable('validators').set({ status: rule.to, updated_at: input.now }).where('hotkey', '=', input.hotkey).execute();
    await recordAudit(trx, input.actor, {
      action: `validator.${input.action}`,
      target: input.hotkey,
      detail: { from: row.status, to: rule.to },
      at: input.now,
    });
    return { record: toRecord({ ...row, status: rule.to, updated_at: input.now }), from: row.status };
  });
}

/**
 * Replaces a validator's IP allowlist (each a valid address, duplicates dropped), audited in the
 * same transaction. The status is untouched.
 */
export async function setValidatorAllowlist(
  db: Kysely<Database>,
  input: { hotkey: string; allowedIps: readonly string[]; now: number; actor: AuditActor },
): Promise<ValidatorRecord> {
  for (const ip of input.allowedIps) {
    if (isIP(ip) === 0) throw new VigilError('invalid_argument', `allowedIps: ${JSON.stringify(ip)} is not an IP address`);
  }
  const allowed = [...new Set(input.allowedIps)];
  return inTransaction(db, async (trx) => {
    const row = await lockedValidator(trx, input.hotkey);
    const updated = { ...row, allowed_ips: JSON.stringify(allowed), updated_at: input.now };
    await trx.updateTable('validators').set({ allowed_ips: updated.allowed_ips, updated_at: input.now }).where('hotkey', '=', input.hotkey).execute();
    await recordAudit(trx, input.actor, {
      action: 'validator.allowlist',
      target: input.hotkey,
      detail: { from: JSON.parse(row.allowed_ips) as unknown, to: allowed },
      at: input.now,
    });
    return toRecord(updated);
  });
}
