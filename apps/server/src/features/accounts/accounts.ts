import { randomBytes } from 'node:crypto';
import {
  formatOffsetTimestamp,
  type Account,
  type AccountKind,
  type ApiKey,
  type ApiKeyCreated,
  type ApiKeyScope,
  type Plan,
} from '@vigil/core';
import { generateApiKey, hashApiKeySecret } from '@vigil/crypto';
import { sql, type Kysely, type Transaction } from 'kysely';
import type { AccountsTable, ApiKeysTable, Database } from '../../platform/db/schema.js';
import { isUniqueViolation } from '../../platform/unique-violation.js';
import { VigilError } from '../../platform/errors.js';
import { recordAudit, type AuditActor } from '../../platform/audit-log.js';
import { inTransaction } from '../../platform/db/transaction.js';

/** The account and key an authenticated request acts as. */
export interface KeyPrincipal {
  keyId: string;
  accountId: string;
  accountKind: AccountKind;
  plan: Plan;
  scopes: readonly ApiKeyScope[];
  /** The operator vouches for the account: its package-reference claims count for everyone (docs/artifacts.md). */
  trusted: boolean;
}

export function accountBody(row: AccountsTable): Account {
  return {
    id: row.account_id,
    name: row.name,
    kind: row.kind,
    plan: row.plan,
    trusted: Number(row.trusted) === 1,
    created_at: formatOffsetTimestamp(Number(row.created_at)),
  };
}

export function apiKeyBody(row: ApiKeysTable): ApiKey {
  return {
    key_id: row.key_id,
    account_id: row.account_id,
    name: row.name,
    scopes: JSON.parse(row.scopes) as ApiKeyScope[],
    status: row.revoked_at === null ? 'active' : 'revoked',
    created_at: formatOffsetTimestamp(Number(row.created_at)),
    last_used_at: row.last_used_at === null ? null : formatOffsetTimestamp(Number(row.last_used_at)),
    use_count: Number(row.use_count),
    revoked_at: row.revoked_at === null ? null : formatOffsetTimestamp(Number(row.revoked_at)),
  };
}

function newAccountId(): string {
  return `acc_${randomBytes(8).toString('hex')}`;
}

/** Scopes in the catalogue's order, each once: what a key lists does not depend on how it was asked. */
function normalizeScopes(scopes: readonly ApiKeyScope[]): ApiKeyScope[] {
  return [...new Set(scopes)].sort();
}

export async function createAccount(
  db: Kysely<Database>,
  input: { name: string; kind: AccountKind; plan: Plan; now: number; actor: AuditActor },
): Promise<AccountsTable> {
  return inTransaction(db, async (trx) => {
    const taken = await trx.selectFrom('accounts').select('account_id').where('name', '=', input.name).executeTakeFirst();
    if (taken) throw new VigilError('account_name_taken');
    const row: AccountsTable = { account_id: newAccountId(), name: input.name, kind: input.kind, plan: input.plan, created_at: input.now, trusted: 0 };
    try {
      await trx.insertInto('accounts').values(row).execute();
    } catch (error) {
      // Two creations of one name raced: the unique index refused the second.
      if (isUniqueViolation(error)) throw new VigilError('account_name_taken');
      throw error;
    }
    await recordAudit(trx, input.actor, { action: 'account.create', target: row.account_id, detail: { name: row.name, kind: row.kind, plan: row.plan }, at: input.now });
    return row;
  });
}

export async function findAccount(db: Kysely<Database>, by: { id: string } | { name: string }): Promise<AccountsTable | undefined> {
  const query = db.selectFrom('accounts').selectAll();
  return ('id' in by ? query.where('account_id', '=', by.id) : query.where('name', '=', by.name)).executeTakeFirst();
}

export async function requireAccount(db: Kysely<Database>, accountId: string): Promise<AccountsTable> {
  const account = await findAccount(db, { id: accountId });
  if (!account) throw new VigilError('account_not_found');
  return account;
}

export async function listAccounts(db: Kysely<Database>): Promise<AccountsTable[]> {
  return db.selectFrom('accounts').selectAll().orderBy('created_at').orderBy('account_id').execute();
}

/**
 * Changes an account's plan and/or whether the operator trusts it, in one transaction; each field
 * given is audited (`account.plan`, `account.trusted`, detail `{from, to}`), changed or not.
 */
export async function updateAccount(
  db: Kysely<Database>,
  input: { accountId: string; plan?: Plan | undefined; trusted?: boolean | undefined; now: number; actor: AuditActor },
): Promise<AccountsTable> {
  return inTransaction(db, async (trx) => {
    const account = await requireAccount(trx, input.accountId);
    const updated = { ...account };
    if (input.plan !== undefined) {
      await trx.updateTable('accounts').set({ plan: input.plan }).where('account_id', '=', input.accountId).execute();
      await recordAudit(trx, input.actor, { action: 'account.plan', target: input.accountId, detail: { from: account.plan, to: input.plan }, at: input.now });
      updated.plan = input.plan;
    }
    if (input.trusted !== undefined) {
      const trusted = input.trusted ? 1 : 0;
      await trx.updateTable('accounts').set({ trusted }).where('account_id', '=', input.accountId).execute();
      await recordAudit(trx, input.actor, {
        action: 'account.trusted',
        target: input.accountId,
        detail: { from: Number(account.trusted) === 1, to: input.trusted },
        at: input.now,
      });
      updated.trusted = trusted;
    }
    return updated;
  });
}

/**
 * Issues a key for an account. The token (and so the secret) exists only in the answer: what is
 * stored is the secret's SHA-256.
 */
export async function createApiKey(
  db: Kysely<Database>,
  input: { accountId: string; name: string; scopes: readonly ApiKeyScope[]; now: number; actor: AuditActor },
): Promise<ApiKeyCreated> {
  return inTransaction(db, async (trx) => {
    await requireAccount(trx, input.accountId);
    const generated = await insertUniqueKey(trx, input);
    await recordAudit(trx, input.actor, {
      action: 'key.create',
      target: generated.row.key_id,
      detail: { account_id: input.accountId, name: input.name, scopes: JSON.parse(generated.row.scopes) as unknown },
      at: input.now,
    });
    return { ...apiKeyBody(generated.row), token: generated.token };
  });
}

async function insertUniqueKey(
  trx: Transaction<Database>,
  input: { accountId: string; name: string; scopes: readonly ApiKeyScope[]; now: number; actor: AuditActor },
): Promise<{ row: ApiKeysTable; token: string }> {
  // 2^32 key ids: a collision is rare but possible, so a taken id draws again.
  for (let attempt = 0; attempt < 5; attempt += 1) {
    const { token, keyId, secret } = generateApiKey();
    const taken = await trx.selectFrom('api_keys').select('key_id').where('key_id', '=', keyId).executeTakeFirst();
    if (taken) continue;
    const row: ApiKeysTable = {
      key_id: keyId,
      account_id: input.accountId,
      name: input.name,
      secret_hash: hashApiKeySecret(secret),
      scopes: JSON.stringify(normalizeScopes(input.scopes)),
      created_at: input.now,
      created_by: input.actor.name,
      last_used_at: null,
      use_count: 0,
      revoked_at: null,
    };
    await trx.insertInto('api_keys').values(row).execute();
    return { row, token };
  }
  throw new Error('could not draw an unused API key id');
}

/** An account's keys, newest first, revoked ones included (they say so). */
export async function listApiKeys(db: Kysely<Database>, accountId: string): Promise<ApiKey[]> {
  const rows = await db
    .selectFrom('api_keys')
    .selectAll()
    .where('account_id', '=', accountId)
    .orderBy('created_at', 'desc')
    .orderBy('key_id')
    .execute();
  return rows.map(apiKeyBody);
}

/**
 * Revokes a key of an account. Unknown, already revoked and other accounts' keys are all
 * `key not found` (404): a caller learns nothing about keys that are not its own.
 */
export async function revokeApiKey(
  db: Kysely<Database>,
  input: { accountId: string | null; keyId: string; currentKeyId: string | null; now: number; actor: AuditActor },
): Promise<ApiKey> {
  if (input.currentKeyId !== null && input.keyId === input.currentKeyId) throw new VigilError('cannot_revoke_current_key');
  return inTransaction(db, async (trx) => {
    let query = trx.selectFrom('api_keys').selectAll().where('key_id', '=', input.keyId).where('revoked_at', 'is', null);
    if (input.accountId !== null) query = query.where('account_id', '=', input.accountId);
    const row = await query.executeTakeFirst();
    if (!row) throw new VigilError('key_not_found');
    // Conditional: of concurrent revocations of one key exactly one changes it (the others: 404).
    const changed = await trx
      .updateTable('api_keys')
      .set({ revoked_at: input.now })
      .where('key_id', '=', input.keyId)
      .where('revoked_at', 'is', null)
      .executeTakeFirst();
    if (changed.numUpdatedRows === 0n) throw new VigilError('key_not_found');
    await recordAudit(trx, input.actor, { action: 'key.revoke', target: input.keyId, detail: { account_id: row.account_id }, at: input.now });
    return apiKeyBody({ ...row, revoked_at: input.now });
  });
}

/** What the key check needs in one indexed read: the key row and its account. */
export async function findKeyForAuth(
  db: Kysely<Database>,
  keyId: string,
): Promise<{ key: ApiKeysTable; account: AccountsTable } | undefined> {
  const row = await db
    .selectFrom('api_keys')
    .innerJoin('accounts', 'accounts.account_id', 'api_keys.account_id')
    .select([
      'api_keys.key_id',
      'api_keys.account_id',
      'api_keys.name',
      'api_keys.secret_hash',
      'api_keys.scopes',
      'api_keys.created_at',
      'api_keys.created_by',
      'api_keys.last_used_at',
      'api_keys.use_count',
      'api_keys.revoked_at',
      'accounts.name as account_name',
      'accounts.kind',
      'accounts.plan',
      'accounts.trusted',
      'accounts.created_at as account_created_at',
    ])
    .where('api_keys.key_id', '=', keyId)
    .executeTakeFirst();
  if (!row) return undefined;
  const { account_name, kind, plan, trusted, account_created_at, ...key } = row;
  return {
    key,
    account: { account_id: key.account_id, name: account_name, kind, plan, trusted, created_at: account_created_at },
  };
}

/**
 * Adds batched uses to the keys' counters: one statement per key, all in one transaction, so a
 * flush costs one round trip per key however many requests it stands for.
 */
export async function recordKeyUses(db: Kysely<Database>, uses: ReadonlyMap<string, { count: number; lastUsedAt: number }>): Promise<void> {
  if (uses.size === 0) return;
  await inTransaction(db, async (trx) => {
    for (const [keyId, use] of uses) {
      await trx
        .updateTable('api_keys')
        .set((eb) => ({
          use_count: eb('use_count', '+', use.count),
          // Instances flush independently: the latest use wins, whichever flush lands last.
          last_used_at: sql<number>`case when last_used_at is null or last_used_at < ${use.lastUsedAt} then ${use.lastUsedAt} else last_used_at end`,
        }))
        .where('key_id', '=', keyId)
        .execute();
    }
  });
}
