import { expect, it } from 'vitest';
import { describeEachDialect } from '../../test-support/databases.js';
import { attest, bundle, finding, HOUR, newKey, seedRound, T0 } from '../../test-support/fixtures.js';
import { TRUSTED_CLAIMS_ONLY } from '../artifacts/references/reference-claims.js';
import { search } from './search.js';
import { reindexSearch, reindexSearchIfNeeded } from './reindex-search.js';

const ARTIFACTS = [
  { label: 'left-pad', sourceId: 'npm', kind: 'live' as const },
  { label: 'evil-skill', sourceId: 'gh', kind: 'labeled' as const, groundTruth: 'BLOCK' as const },
];

describeEachDialect('search reindex', (ctx) => {
  async function seeded() {
    const db = ctx.db();
    const miners = [newKey()];
    const validators = [newKey(), newKey()];
    const round = await seedRound(db, { now: T0, miners, validators, artifacts: ARTIFACTS });
    const evil = bundle('skills', ARTIFACTS[1]!);
    for (const validator of validators) {
      await attest(db, round, miners[0]!, evil, validator, { verdict: 'BLOCK', findings: [finding('exfiltration', 'CRIT', 'posts ssh keys')], now: T0 + 2 * HOUR });
    }
    return round;
  }
  const find = async (q: string) => (await search(ctx.db(), { q, after: null, size: 50, showFindings: true, view: TRUSTED_CLAIMS_ONLY })).results;
  const entries = async () => (await ctx.db().selectFrom('search_entries').select('id').execute()).length;

  it('rebuilds the entries of a database indexed before 0016 (or emptied), the same on a second run', async () => {
    const round = await seeded();
    const before = await find('exfiltration');
    expect(before.length).toBeGreaterThan(0);

    // As a database migrated from before the index existed: no entries.
    await ctx.db().deleteFrom('search_entries').execute();
    expect(await find('exfiltration')).toEqual([]);

    const counts = await reindexSearch(ctx.db(), T0 + 3 * HOUR);
    expect(counts).toEqual({ artifacts: round.artifacts.size, attestations: 2 });
    const after = await find('exfiltration');
    expect(after.map((r) => `${r.type}:${r.id}`).sort()).toEqual(before.map((r) => `${r.type}:${r.id}`).sort());
    expect((await find('left-pad'))[0]).toMatchObject({ type: 'artifact' });

    const total = await entries();
    await reindexSearch(ctx.db(), T0 + 4 * HOUR);
    expect(await entries()).toBe(total);
  });

  it('rebuilds once when a migration asked for it (migrate and serve call this), and never again', async () => {
    await seeded();
    await ctx.db().deleteFrom('search_entries').execute();
    await ctx.db().deleteFrom('search_index_state').execute();
    // As migration 0016 leaves a database that had artifacts.
    await ctx.db().insertInto('search_index_state').values({ name: 'search', state: 'needed', updated_at: T0 }).execute();
    expect(await find('exfiltration')).toEqual([]);

    const [first, second] = await Promise.all([reindexSearchIfNeeded(ctx.db(), () => T0 + HOUR), reindexSearchIfNeeded(ctx.db(), () => T0 + HOUR)]);
    // Two processes starting at once: one rebuilds, the other goes on.
    expect([first, second].filter((r) => r !== null)).toEqual([{ artifacts: 2, attestations: 2 }]);
    expect((await find('exfiltration')).length).toBeGreaterThan(0);
    expect(await ctx.db().selectFrom('search_index_state').select('state').executeTakeFirst()).toEqual({ state: 'built' });
    expect(await reindexSearchIfNeeded(ctx.db(), () => T0 + 2 * HOUR)).toBeNull();
  });
});
