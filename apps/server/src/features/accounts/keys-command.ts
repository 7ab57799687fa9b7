import { parseArgs } from 'node:util';
import { AccountName, ApiKeyScope, Plan, type AccountKind } from '@vigil/core';
import type { Kysely } from 'kysely';
import type { Database } from '../../platform/db/schema.js';
import { VigilError } from '../../platform/errors.js';
import { OPERATOR } from '../../platform/audit-log.js';
import { createAccount, createApiKey, findAccount, listAccounts, listApiKeys, revokeApiKey, updateAccount } from './accounts.js';

export const KEYS_USAGE = [
  'keys create (--org <name> | --personal <name>) --scopes <scope,…> [--plan free|paid] [--name <label>]',
  'keys list (--org <name> | --personal <name>)',
  'keys revoke <key_id>',
  'accounts list',
  'accounts (trust | untrust) <name>',
].join(' | ');

export class KeysCommandError extends Error {
  override name = 'KeysCommandError';
  /** True when the arguments themselves are wrong (print the usage, exit 2). */
  constructor(message: string, readonly usage = false) {
    super(message);
  }
}

const usage = (message: string) => new KeysCommandError(message, true);

function accountArg(values: { org?: string | undefined; personal?: string | undefined }): { name: string; kind: AccountKind } {
  if ((values.org === undefined) === (values.personal === undefined)) throw usage('name the account with exactly one of --org or --personal');
  const name = (values.org ?? values.personal)!;
  if (!AccountName.safeParse(name).success) throw usage(`account name ${JSON.stringify(name)}: expected 2-64 lowercase letters, digits or inner hyphens`);
  return { name, kind: values.org !== undefined ? 'organization' : 'personal' };
}

function scopesArg(text: string | undefined): ApiKeyScope[] {
  if (text === undefined) throw usage(`--scopes is required (any of ${ApiKeyScope.options.join(', ')})`);
  const scopes = text.split(',').map((s) => s.trim()).filter(Boolean);
  const unknown = scopes.filter((s) => !ApiKeyScope.safeParse(s).success);
  if (scopes.length === 0 || unknown.length > 0) {
    throw usage(`--scopes: unknown scope ${unknown.map((s) => JSON.stringify(s)).join(', ') || '(none given)'}; scopes are ${ApiKeyScope.options.join(', ')}`);
  }
  return scopes as ApiKeyScope[];
}

/**
 * `vigil-server keys …` and `accounts list`: the operator's way to issue an organization's first
 * key (the admin API needs a key itself), list and revoke keys. Actions are audited as `operator`.
 * Returns the lines to print.
 */
export async function runKeysCommand(db: Kysely<Database>, command: 'keys' | 'accounts', args: readonly string[], now: number): Promise<string[]> {
  if (command === 'accounts') return accountsCommand(db, args, now);
  const [action, ...rest] = args;
  let parsed;
  try {
    parsed = parseArgs({
      args: rest,
      allowPositionals: action === 'revoke',
      strict: true,
      options: { org: { type: 'string' }, personal: { type: 'string' }, scopes: { type: 'string' }, plan: { type: 'string' }, name: { type: 'string' } },
    });
  } catch (error) {
    throw usage(error instanceof Error ? error.message : String(error));
  }
  const { values, positionals } = parsed;
  try {
    switch (action) {
      case 'create':
        return await create(db, values, now);
      case 'list': {
        const { name } = accountArg(values);
        const account = await findAccount(db, { name });
        if (!account) throw new KeysCommandError(`no account named ${name}`);
        const keys = await listApiKeys(db, account.account_id);
        if (keys.length === 0) return [`${name} has no keys`];
        return ['key_id  status  scopes  name  last_used_at  uses', ...keys.map((k) => [k.key_id, k.status, k.scopes.join(','), k.name, k.last_used_at ?? '-', k.use_count].join('  '))];
      }
      case 'revoke': {
        if (positionals.length !== 1) throw usage('revoke: expected one key id');
        const revoked = await revokeApiKey(db, { accountId: null, keyId: positionals[0]!, currentKeyId: null, now, actor: OPERATOR });
        return [`${revoked.key_id}: revoked`];
      }
      default:
        throw usage(`expected ${KEYS_USAGE}`);
    }
  } catch (error) {
    if (error instanceof VigilError) throw new KeysCommandError(error.detail);
    throw error;
  }
}

/** `accounts list`, and `accounts trust|untrust <name>` (whose package references count for everyone, docs/artifacts.md). */
async function accountsCommand(db: Kysely<Database>, args: readonly string[], now: number): Promise<string[]> {
  const [action, ...rest] = args;
  if (action === 'list' && rest.length === 0) {
    const accounts = await listAccounts(db);
    if (accounts.length === 0) return ['no accounts'];
    return ['id  name  kind  plan  trusted', ...accounts.map((a) => [a.account_id, a.name, a.kind, a.plan, Number(a.trusted) === 1 ? 'yes' : 'no'].join('  '))];
  }
  if ((action === 'trust' || action === 'untrust') && rest.length === 1) {
    const name = rest[0]!;
    const account = await findAccount(db, { name });
    if (!account) throw new KeysCommandError(`no account named ${name}`);
    const trusted = action === 'trust';
    await updateAccount(db, { accountId: account.account_id, trusted, now, actor: OPERATOR });
    return [`${name}: ${trusted ? 'trusted: its package references count for every account' : 'not trusted: its package references count for itself only'}`];
  }
  throw usage(`expected ${KEYS_USAGE}`);
}

async function create(
  db: Kysely<Database>,
  values: { org?: string | undefined; personal?: string | undefined; scopes?: string | undefined; plan?: string | undefined; name?: string | undefined },
  now: number,
): Promise<string[]> {
  const { name, kind } = accountArg(values);
  const scopes = scopesArg(values.scopes);
  if (values.plan !== undefined && !Plan.safeParse(values.plan).success) throw usage(`--plan: expected free or paid, got ${JSON.stringify(values.plan)}`);
  const plan = values.plan as Plan | undefined;
  const lines: string[] = [];
  let account = await findAccount(db, { name });
  if (!account) {
    account = await createAccount(db, { name, kind, plan: plan ?? 'free', now, actor: OPERATOR });
    lines.push(`created ${kind} ${name} (${account.account_id}) on the ${account.plan} plan`);
  } else if (account.kind !== kind) {
    throw new KeysCommandError(`${name} is a ${account.kind} account, not ${kind === 'organization' ? 'an organization' : 'a personal one'}`);
  } else if (plan !== undefined && plan !== account.plan) {
    account = await updateAccount(db, { accountId: account.account_id, plan, now, actor: OPERATOR });
    lines.push(`${name}: plan changed to ${plan}`);
  }
  const key = await createApiKey(db, { accountId: account.account_id, name: values.name ?? `${name} key`, scopes, now, actor: OPERATOR });
  lines.push(`key ${key.key_id} for ${name} (scopes: ${key.scopes.join(', ')})`, key.token, 'The token is shown this once: store it now.');
  return lines;
}
