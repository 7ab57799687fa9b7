import type { Kysely } from 'kysely';
import type { Database } from '../../platform/db/schema.js';

/**
 * The account Vigil's own registry fetches claim their references as (docs/registries.md, "Trust"):
 * trusted, so a fetch from the configured registry counts for every account, exactly as the
 * operator's trusted uploads do (docs/artifacts.md, "Whose references count"). Its id is outside
 * what `acc_<random>` ever draws in practice and its name is reserved by being taken first.
 */
export const REGISTRY_ACCOUNT_ID = 'acc_0000000000000000';
export const REGISTRY_ACCOUNT_NAME = 'vigil-registries';

/** Creates the account on first use (a database emptied by hand or by tests gets it again). */
export async function ensureRegistryAccount(db: Kysely<Database>, now: number): Promise<void> {
  const existing = await db.selectFrom('accounts').select('account_id').where('account_id', '=', REGISTRY_ACCOUNT_ID).executeTakeFirst();
  if (existing !== undefined) return;
  await db
    .insertInto('accounts')
    .values({ account_id: REGISTRY_ACCOUNT_ID, name: REGISTRY_ACCOUNT_NAME, kind: 'organization', plan: 'paid', created_at: now, trusted: 1 })
    .onConflict((oc) => oc.doNothing())
    .execute();
  const made = await db.selectFrom('accounts').select('account_id').where('account_id', '=', REGISTRY_ACCOUNT_ID).executeTakeFirst();
  if (made === undefined) throw new Error(`the account name ${REGISTRY_ACCOUNT_NAME} is taken by another account: registry fetches cannot be claimed`);
}
