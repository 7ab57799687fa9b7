import { expect, it } from 'vitest';
import { describeEachDialect } from '../test-support/databases.js';
import { attest, bundle, finding, HOUR, newKey, seedRound, T0 } from '../test-support/fixtures.js';
import { search } from './search.js';
import { reindexSearch } from './search-reindex.js';

const ARTIFACTS = [
  { label: 'left-pad', sourceId: 'npm', kind: 'live' as const },
  { label: 'evil-skill', sourceId: 'gh', kind: 'labeled' as const, groundTruth: 'BLOCK' as const },
];

describeEachDialect('search reindex', (ctx) => {
  it('rebuilds the documents of a database indexed before 0008 (or emptied), the same on a second run', async () => {
    const db = ctx.db();
    const miners = [newKey()];
    const validators = [newKey(), newKey()];
    const seeded = await seedRound(db, { now: T0, miners, validators, artifacts: ARTIFACTS });
    const evil = bundle('skills', ARTIFACTS[1]!);
    for (const validator of validators) {
      await attest(db, seeded, miners[0]!, evil, validator, { verdict: 'BLOCK', findings: [finding('exfiltration', 'CRIT', 'posts ssh keys')], now: T0 + 2 * HOUR });
    }
    const find = async (q: string) => (await search(db, { q, after: null, size: 50, showFindings: true })).results;
    const before = await find('exfiltration');
    expect(before.length).toBeGreaterThan(0);

    // As a database migrated from before search existed: no documents.
    await db.deleteFrom('search_documents').execute();
    expect(await find('exfiltration')).toEqual([]);

    const counts = await reindexSearch(db, T0 + 3 * HOUR);
    expect(counts).toEqual({ artifacts: seeded.artifacts.size, attestations: 2 });
    const after = await find('exfiltration');
    expect(after.map((r) => `${r.kind}:${r.id}`).sort()).toEqual(before.map((r) => `${r.kind}:${r.id}`).sort());
    expect((await find('left-pad'))[0]).toMatchObject({ kind: 'artifact' });

    const documents = async () => (await db.selectFrom('search_documents').select('id').execute()).length;
    const total = await documents();
    await reindexSearch(db, T0 + 4 * HOUR);
    expect(await documents()).toBe(total);
  });
});
