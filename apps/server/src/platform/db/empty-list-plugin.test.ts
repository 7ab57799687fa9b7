import { expect, it } from 'vitest';
import { verifyReferencesWithFindings } from '../../features/artifacts/customer-artifacts.js';
import { TRUSTED_CLAIMS_ONLY } from '../../features/artifacts/references/reference-claims.js';
import { describeEachDialect } from '../../test-support/databases.js';
import { T0 } from '../../test-support/fixtures.js';
import { createAccount } from '../../features/accounts/accounts.js';
import { OPERATOR } from '../audit-log.js';

describeEachDialect('a query built from an empty list', (ctx) => {
  it('matches no row with in () and every row with not in (), on both dialects', async () => {
    const db = ctx.db();
    await createAccount(db, { name: 'acme', kind: 'organization', plan: 'paid', now: T0, actor: OPERATOR });
    await createAccount(db, { name: 'globex', kind: 'organization', plan: 'free', now: T0, actor: OPERATOR });
    expect(await db.selectFrom('accounts').select('name').where('name', 'in', []).execute()).toEqual([]);
    expect((await db.selectFrom('accounts').select('name').where('name', 'not in', []).orderBy('name').execute()).map((r) => r.name)).toEqual(['acme', 'globex']);
    // Inside a larger condition, and in an update and a delete.
    const either = await db
      .selectFrom('accounts')
      .select('name')
      .where((eb) => eb.or([eb('name', 'in', []), eb('plan', '=', 'paid')]))
      .execute();
    expect(either.map((r) => r.name)).toEqual(['acme']);
    expect(Number((await db.updateTable('accounts').set({ plan: 'paid' }).where('name', 'in', []).executeTakeFirst()).numUpdatedRows)).toBe(0);
    expect(Number((await db.deleteFrom('audit_log').where('entry_id', 'in', []).executeTakeFirst()).numDeletedRows)).toBe(0);
  });

  it('verifies no references as no answers (a lockfile with no registry package)', async () => {
    expect(await verifyReferencesWithFindings(ctx.db(), [], TRUSTED_CLAIMS_ONLY)).toEqual([]);
  });
});
