import { expect, it } from 'vitest';
import { describeEachDialect } from '../../test-support/databases.js';
import { fetchRows, queueFetches } from './fetch-queue.js';

describeEachDialect('the registry fetch queue', (ctx) => {
  // A 20,000-entry lockfile (the lockfile bound) through POST /v1/repositories/verify queued every
  // unseen purl in one INSERT: 120,000 bound values, a 500 "too many SQL variables" on SQLite
  // (outsider finding while benchmarking SBOMs).
  it('queues and reads back as many purls as a lockfile may name, once each', async () => {
    const refs = Array.from({ length: 20_000 }, (_, i) => ({ purl: `pkg:npm/bench-pkg-${i}@1.0.0`, ecosystem: 'npm' }));
    await queueFetches(ctx.db(), refs, 1_000);
    await queueFetches(ctx.db(), refs.slice(0, 10), 2_000);
    const rows = await fetchRows(ctx.db(), [...refs.map((r) => r.purl), refs[0]!.purl]);
    expect(rows.size).toBe(20_000);
    expect(rows.get(refs[0]!.purl)).toMatchObject({ state: 'queued', created_at: 1_000 });
  }, 120_000);
});
