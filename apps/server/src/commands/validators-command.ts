import type { Kysely } from 'kysely';
import type { Database, ValidatorsTable } from '../db/schema.js';
import { findValidator, listValidators, setValidatorStatus, type ValidatorRecord } from '../services/validators.js';

/** What each action sets, and from which statuses (anything else is refused, so a typo cannot undo a revocation). */
const ACTIONS: Record<string, { to: ValidatorsTable['status']; from: readonly ValidatorsTable['status'][] }> = {
  approve: { to: 'active', from: ['pending'] },
  suspend: { to: 'suspended', from: ['pending', 'active'] },
  revoke: { to: 'revoked', from: ['pending', 'active', 'suspended'] },
  restore: { to: 'active', from: ['suspended', 'revoked'] },
};

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
  const rule = action === undefined ? undefined : ACTIONS[action];
  if (rule === undefined || hotkey === undefined || rest.length > 0) throw new ValidatorsCommandError(`expected ${VALIDATORS_USAGE}`, true);
  const current = await findValidator(db, hotkey);
  if (current === undefined) throw new ValidatorsCommandError(`${action}: no validator ${hotkey}`);
  if (!rule.from.includes(current.status)) {
    throw new ValidatorsCommandError(`${action}: ${hotkey} is ${current.status}; ${action} applies to ${rule.from.join(' or ')} validators`);
  }
  await setValidatorStatus(db, { hotkey, status: rule.to, now });
  return [`${hotkey}: ${current.status} -> ${rule.to}`];
}
