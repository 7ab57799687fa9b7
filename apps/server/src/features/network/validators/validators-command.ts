import { VALIDATOR_ADMIN_ACTIONS, type ValidatorAdminAction } from '@vigil/core';
import type { Kysely } from 'kysely';
import type { Database } from '../../../platform/db/schema.js';
import { VigilError } from '../../../platform/errors.js';
import { OPERATOR } from '../../../platform/audit-log.js';
import { applyValidatorAction, listValidators, type ValidatorRecord } from './validators.js';

export const VALIDATORS_USAGE = 'validators list | validators <approve|suspend|revoke|restore> <hotkey>';

export class ValidatorsCommandError extends Error {
  override name = 'ValidatorsCommandError';
  /** True when the arguments themselves are wrong (print the usage, exit 2), not the validator's state. */
  constructor(message: string, readonly usage = false) {
    super(message);
  }
}

function line(v: ValidatorRecord): string {
  return [v.hotkey, String(v.uid).padStart(4), v.status.padEnd(9), v.allowedIps.join(',') || '-'].join('  ');
}

/**
 * `vigil-server validators …`: the operator's view of validator records and the only way to approve a
 * pending registration (VIGIL_VALIDATOR_REGISTRATION=approval), suspend, revoke or restore one.
 * Returns the lines to print.
 */
export async function runValidatorsCommand(db: Kysely<Database>, args: readonly string[], now: number): Promise<string[]> {
  const [action, hotkey, ...rest] = args;
  if (action === 'list' && hotkey === undefined) {
    const all = await listValidators(db);
    return all.length === 0 ? ['no validators registered'] : ['hotkey  uid  status  allowed_ips', ...all.map(line)];
  }
  if (!isAction(action) || hotkey === undefined || rest.length > 0) throw new ValidatorsCommandError(`expected ${VALIDATORS_USAGE}`, true);
  try {
    // The same rules, transaction and audit entry as the admin API (POST /v1/admin/validators/{hotkey}/<action>).
    const { record, from } = await applyValidatorAction(db, { hotkey, action, now, actor: OPERATOR });
    return [`${hotkey}: ${from} -> ${record.status}`];
  } catch (error) {
    if (error instanceof VigilError && error.code === 'unknown_validator') throw new ValidatorsCommandError(`${action}: no validator ${hotkey}`);
    if (error instanceof VigilError && error.code === 'validator_wrong_status') throw new ValidatorsCommandError(`${action}: ${error.detail}`);
    throw error;
  }
}

function isAction(action: string | undefined): action is ValidatorAdminAction {
  return (VALIDATOR_ADMIN_ACTIONS as readonly (string | undefined)[]).includes(action);
}
