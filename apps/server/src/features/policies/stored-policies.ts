import { randomBytes } from 'node:crypto';
import {
  DEFAULT_POLICY_ID,
  DEFAULT_POLICY_NAME,
  formatOffsetTimestamp,
  type Policy,
  type PolicyCreateRequestParsed,
  type PolicyRule,
  type PolicyUpdateRequestParsed,
} from '@vigil/core';
import type { Kysely, Selectable } from 'kysely';
import { byteOrder, lockForUpdate } from '../../platform/db/dialect.js';
import type { Database, PoliciesTable, PolicyVersionsTable } from '../../platform/db/schema.js';
import { VigilError } from '../../platform/errors.js';
import { assertRulesCompile, type PolicyDefinition } from './cel/compile-policy.js';
import { DEFAULT_POLICY, defaultPolicyBody } from './default-policy.js';
import { recordAudit, type AuditActor } from '../../platform/audit-log.js';
import { inTransaction } from '../../platform/db/transaction.js';
import type { KeyPrincipal } from '../accounts/index.js';
import { isUniqueViolation } from '../../platform/unique-violation.js';

type PolicyRow = Selectable<PoliciesTable>;
type VersionRow = Selectable<PolicyVersionsTable>;

function newPolicyId(): string {
  return `pol_${randomBytes(8).toString('hex')}`;
}

function parseRules(text: string): PolicyRule[] {
  return JSON.parse(text) as PolicyRule[];
}

function policyBody(policy: PolicyRow, version: VersionRow): Policy {
  return {
    id: policy.policy_id,
    name: version.name,
    description: version.description,
    version: Number(version.version),
    builtin: false,
    rules: parseRules(version.rules),
    created_at: formatOffsetTimestamp(Number(policy.created_at)),
    updated_at: formatOffsetTimestamp(Number(version.created_at)),
  };
}

/** An organization's live policy by id; another account's, a deleted or an unknown one is 404. */
async function livePolicy(db: Kysely<Database>, accountId: string, policyId: string, options: { lock?: boolean } = {}): Promise<PolicyRow> {
  const row = await db
    .selectFrom('policies')
    .selectAll()
    .where('policy_id', '=', policyId)
    .where('account_id', '=', accountId)
    .where('deleted_at', 'is', null)
    .$call(options.lock ? lockForUpdate(db) : (q) => q)
    .executeTakeFirst();
  if (row === undefined) throw new VigilError('policy_not_found');
  return row;
}

async function versionOf(db: Kysely<Database>, policyId: string, version: number): Promise<VersionRow | undefined> {
  return db.selectFrom('policy_versions').selectAll().where('policy_id', '=', policyId).where('version', '=', version).executeTakeFirst();
}

function assertNameFree(name: string): void {
  // The built-in policy owns its name for every account: `default` always means the public policy.
  if (name === DEFAULT_POLICY_NAME) throw new VigilError('policy_name_taken');
}

async function withNameConflicts<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    // Two requests naming one policy at once: the loser's insert meets the partial unique index.
    if (isUniqueViolation(error)) throw new VigilError('policy_name_taken', { cause: error });
    throw error;
  }
}

export interface PolicyWriter {
  principal: KeyPrincipal;
  /** Who the audit log names (`key:<key id>` and the caller's address). */
  actor: AuditActor;
  now: number;
}

/** `POST /v1/policies`: version 1 of a new policy of the caller's organization. */
export async function createPolicy(db: Kysely<Database>, body: PolicyCreateRequestParsed, writer: PolicyWriter): Promise<Policy> {
  if (writer.principal.accountKind === 'personal') throw new VigilError('personal_account_policies');
  assertNameFree(body.name);
  assertRulesCompile(body.rules);
  return withNameConflicts(() =>
    inTransaction(db, async (trx) => {
      const taken = await trx
        .selectFrom('policies')
        .select('policy_id')
        .where('account_id', '=', writer.principal.accountId)
        .where('name', '=', body.name)
        .where('deleted_at', 'is', null)
        .executeTakeFirst();
      if (taken !== undefined) throw new VigilError('policy_name_taken');
      const policy: PolicyRow = {
        policy_id: newPolicyId(),
        account_id: writer.principal.accountId,
        name: body.name,
        version: 1,
        created_at: writer.now,
        updated_at: writer.now,
        deleted_at: null,
      };
      const version: VersionRow = {
        policy_id: policy.policy_id,
        version: 1,
        name: body.name,
        description: body.description,
        rules: JSON.stringify(body.rules),
        created_at: writer.now,
        created_by: `key:${writer.principal.keyId}`,
      };
      await trx.insertInto('policies').values(policy).execute();
      await trx.insertInto('policy_versions').values(version).execute();
      await recordAudit(trx, writer.actor, { action: 'policy.create', target: policy.policy_id, detail: { name: body.name, version: 1 }, at: writer.now });
      return policyBody(policy, version);
    }),
  );
}

/** `GET /v1/policies`: the organization's live policies by name in byte order, one page (plus a row to tell if more exist). */
export async function listPolicies(db: Kysely<Database>, accountId: string, page: { offset: number; limit: number }): Promise<Policy[]> {
  const rows = await db
    .selectFrom('policies')
    .innerJoin('policy_versions', (join) =>
      join.onRef('policy_versions.policy_id', '=', 'policies.policy_id').onRef('policy_versions.version', '=', 'policies.version'),
    )
    .select([
      'policies.policy_id',
      'policies.account_id',
      'policies.name',
      'policies.version',
      'policies.created_at',
      'policies.updated_at',
      'policies.deleted_at',
      'policy_versions.description',
      'policy_versions.rules',
      'policy_versions.created_at as version_created_at',
      'policy_versions.created_by',
    ])
    .where('policies.account_id', '=', accountId)
    .where('policies.deleted_at', 'is', null)
    .orderBy(byteOrder(db, 'policies.name'))
    .orderBy('policies.policy_id')
    .offset(page.offset)
    .limit(page.limit)
    .execute();
  return rows.map((row) =>
    policyBody(row, {
      policy_id: row.policy_id,
      version: row.version,
      name: row.name,
      description: row.description,
      rules: row.rules,
      created_at: row.version_created_at,
      created_by: row.created_by,
    }),
  );
}

/** `GET /v1/policies/{policy_id}[/versions/{version}]`: the current or a given version; `pol_default` for anyone. */
export async function getPolicy(db: Kysely<Database>, accountId: string, policyId: string, version?: number): Promise<Policy> {
  if (policyId === DEFAULT_POLICY_ID) {
    const body = defaultPolicyBody();
    if (version !== undefined && version !== body.version) throw new VigilError('policy_not_found');
    return body;
  }
  const policy = await livePolicy(db, accountId, policyId);
  const row = await versionOf(db, policyId, version ?? Number(policy.version));
  if (row === undefined) throw new VigilError('policy_not_found');
  return policyBody(policy, row);
}

/** `POST /v1/policies/{policy_id}`: the next version, with what the body changes and the rest as it was. */
export async function updatePolicy(db: Kysely<Database>, policyId: string, body: PolicyUpdateRequestParsed, writer: PolicyWriter): Promise<Policy> {
  if (policyId === DEFAULT_POLICY_ID) throw new VigilError('builtin_policy_readonly');
  if (body.name !== undefined) assertNameFree(body.name);
  if (body.rules !== undefined) assertRulesCompile(body.rules);
  return withNameConflicts(() =>
    inTransaction(db, async (trx) => {
      const policy = await livePolicy(trx, writer.principal.accountId, policyId, { lock: true });
      const current = await versionOf(trx, policyId, Number(policy.version));
      if (current === undefined) throw new Error(`policy ${policyId} has no version ${policy.version}`);
      const name = body.name ?? current.name;
      if (name !== current.name) {
        const taken = await trx
          .selectFrom('policies')
          .select('policy_id')
          .where('account_id', '=', writer.principal.accountId)
          .where('name', '=', name)
          .where('deleted_at', 'is', null)
          .executeTakeFirst();
        if (taken !== undefined) throw new VigilError('policy_name_taken');
      }
      const next: VersionRow = {
        policy_id: policyId,
        version: Number(policy.version) + 1,
        name,
        description: body.description === undefined ? current.description : body.description,
        rules: body.rules === undefined ? current.rules : JSON.stringify(body.rules),
        created_at: writer.now,
        created_by: `key:${writer.principal.keyId}`,
      };
      await trx.insertInto('policy_versions').values(next).execute();
      await trx.updateTable('policies').set({ name, version: next.version, updated_at: writer.now }).where('policy_id', '=', policyId).execute();
      await recordAudit(trx, writer.actor, {
        action: 'policy.update',
        target: policyId,
        detail: { name, version: next.version, changed: Object.keys(body).sort() },
        at: writer.now,
      });
      return policyBody({ ...policy, name, version: next.version, updated_at: writer.now }, next);
    }),
  );
}

/** `DELETE /v1/policies/{policy_id}`: answers the policy as it was; from then on it is 404 and its name is free. */
export async function deletePolicy(db: Kysely<Database>, policyId: string, writer: PolicyWriter): Promise<Policy> {
  if (policyId === DEFAULT_POLICY_ID) throw new VigilError('builtin_policy_readonly');
  return inTransaction(db, async (trx) => {
    const policy = await livePolicy(trx, writer.principal.accountId, policyId, { lock: true });
    const current = await versionOf(trx, policyId, Number(policy.version));
    if (current === undefined) throw new Error(`policy ${policyId} has no version ${policy.version}`);
    // Conditional on still being live: of two concurrent deletes, one changes the row, the other 404s.
    const deleted = await trx
      .updateTable('policies')
      .set({ deleted_at: writer.now })
      .where('policy_id', '=', policyId)
      .where('deleted_at', 'is', null)
      .executeTakeFirst();
    if (deleted.numUpdatedRows === 0n) throw new VigilError('policy_not_found');
    await recordAudit(trx, writer.actor, { action: 'policy.delete', target: policyId, detail: { name: current.name, version: Number(current.version) }, at: writer.now });
    return policyBody(policy, current);
  });
}

/**
 * The policy an evaluation runs (spec part 5 item 4): an organization's live policy of that name,
 * or the built-in one when it names `default`; a personal key always gets the built-in one.
 */
export async function policyForEvaluation(
  db: Kysely<Database>,
  principal: Pick<KeyPrincipal, 'accountId' | 'accountKind'>,
  name: string,
): Promise<PolicyDefinition> {
  if (principal.accountKind === 'personal' || name === DEFAULT_POLICY_NAME) return DEFAULT_POLICY;
  const row = await db
    .selectFrom('policies')
    .innerJoin('policy_versions', (join) =>
      join.onRef('policy_versions.policy_id', '=', 'policies.policy_id').onRef('policy_versions.version', '=', 'policies.version'),
    )
    .select(['policies.policy_id', 'policies.version', 'policy_versions.name', 'policy_versions.rules'])
    .where('policies.account_id', '=', principal.accountId)
    .where('policies.name', '=', name)
    .where('policies.deleted_at', 'is', null)
    .executeTakeFirst();
  if (row === undefined) throw new VigilError('policy_not_found');
  return { id: row.policy_id, name: row.name, version: Number(row.version), builtin: false, rules: parseRules(row.rules) };
}
