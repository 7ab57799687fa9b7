/**
 * The registry firewall's decision counts per account (docs/firewall.md "Decision counts"):
 * reported with `POST /v1/firewall/decisions`, read with `GET /v1/firewall/stats`, through the SDK.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { Vigil, VigilApiError, VigilValidationError } from '@vigil/client';
import type { FirewallDecisionReport } from '@vigil/core';
import { loadConfig } from '../src/config.js';
import { startTestApp, type TestApp } from '../src/test-support/test-app.js';
import { describeEachDialect } from '../src/test-support/databases.js';
import { DAY, HOUR, T0 } from '../src/test-support/fixtures.js';
import { operatorKey } from '../src/test-support/operator-key.js';

const opened: { app: TestApp; dir: string }[] = [];
afterEach(async () => {
  for (const { app, dir } of opened.splice(0)) {
    await app.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

let seq = 0;
function decision(fields: Partial<Omit<FirewallDecisionReport, 'time'>> & { time: number }): FirewallDecisionReport {
  seq += 1;
  return {
    ecosystem: 'npm',
    package: 'left-pad',
    version: '1.3.0',
    decision: 'allow',
    reason: 'verdict ALLOW',
    verdict: 'ALLOW',
    policy: 'vigil-verdict',
    mode: 'fail-closed',
    request_id: `fw_req${seq}`,
    ...fields,
    time: new Date(fields.time).toISOString(),
  };
}

describeEachDialect('firewall decision counts', (ctx) => {
  async function start() {
    const dir = mkdtempSync(join(tmpdir(), 'vigil-fw-decisions-'));
    const clock = { now: T0 };
    const app = await startTestApp({ dataDir: dir, config: loadConfig({ LOG_LEVEL: 'silent' }, dir), database: ctx, overrides: { clock: () => clock.now } });
    opened.push({ app, dir });
    const client = (token: string) => new Vigil({ baseUrl: app.url, apiKey: token, maxRetries: 0 });
    return {
      clock,
      acme: client(await operatorKey(ctx.db(), ['--org', 'acme', '--plan', 'paid', '--scopes', 'verify,read'], T0)),
      globex: client(await operatorKey(ctx.db(), ['--org', 'globex', '--plan', 'paid', '--scopes', 'verify,read'], T0)),
      free: client(await operatorKey(ctx.db(), ['--org', 'freeloader', '--scopes', 'verify,read'], T0)),
      readOnly: client(await operatorKey(ctx.db(), ['--org', 'acme', '--scopes', 'read'], T0)),
    };
  }

  it('counts an account’s decisions by day, decision, reason class and package, newest refusals first; another account sees none', async () => {
    const { acme, globex, readOnly } = await start();
    const recorded = await acme.firewall.report([
      decision({ time: T0 - DAY - HOUR, package: 'fw-bad', decision: 'block', reason: 'verdict BLOCK', verdict: 'BLOCK' }),
      decision({ time: T0 - DAY, package: 'left-pad' }),
      decision({ time: T0 - HOUR, package: 'fw-bad', version: null, decision: 'block', reason: 'every version is hidden (verdict BLOCK)', verdict: 'BLOCK' }),
      decision({ time: T0 - 30 * 60_000, package: 'fw-new', decision: 'block', reason: 'no verdict yet (Vigil is fetching it); mode fail-closed', verdict: null }),
      decision({ time: T0 - 20 * 60_000, ecosystem: 'pypi', package: 'fwpy', version: null, decision: 'filter', reason: '1 of 2 files hidden', verdict: null }),
      decision({ time: T0 - 10 * 60_000, package: 'fw-down', decision: 'allow', reason: 'Vigil unavailable: Vigil answered 503: x; mode fail-open', verdict: null, mode: 'fail-open' }),
    ]);
    expect(recorded).toEqual({ recorded: 6, duplicates: 0 });

    const stats = await readOnly.firewall.stats({ days: 7 });
    expect(stats.since).toBe('2026-11-15');
    expect(stats.totals).toEqual({ allow: 2, block: 3, filter: 1 });
    expect(stats.days).toEqual([
      { day: '2026-11-20', allow: 1, block: 1, filter: 0 },
      { day: '2026-11-21', allow: 1, block: 2, filter: 1 },
    ]);
    expect(stats.reasons).toEqual([
      { decision: 'block', reason_kind: 'hidden', count: 1 },
      { decision: 'allow', reason_kind: 'verdict', count: 1 },
      { decision: 'allow', reason_kind: 'vigil_unavailable', count: 1 },
      { decision: 'block', reason_kind: 'undecided', count: 1 },
      { decision: 'block', reason_kind: 'verdict', count: 1 },
      { decision: 'filter', reason_kind: 'filtered', count: 1 },
    ].sort((a, b) => b.count - a.count || a.decision.localeCompare(b.decision) || a.reason_kind.localeCompare(b.reason_kind)));
    expect(stats.packages).toEqual([
      { ecosystem: 'npm', package: 'fw-bad', block: 2, allow: 0, filter: 0 },
      { ecosystem: 'npm', package: 'fw-new', block: 1, allow: 0, filter: 0 },
    ]);
    expect(stats.recent_refusals.map((r) => [r.package, r.reason_kind])).toEqual([['fw-new', 'undecided'], ['fw-bad', 'hidden'], ['fw-bad', 'verdict']]);
    expect(stats.recent_refusals[0]).toMatchObject({ ecosystem: 'npm', version: '1.3.0', verdict: null, policy: 'vigil-verdict', request_id: expect.stringMatching(/^fw_req/) });
    expect(stats.recent_refusals[0]!.time).toEqual(new Date(T0 - 30 * 60_000));

    // One day back: yesterday's decisions are outside the window.
    expect((await acme.firewall.stats({ days: 1 })).totals).toEqual({ allow: 1, block: 2, filter: 1 });
    expect(await globex.firewall.stats()).toMatchObject({ totals: { allow: 0, block: 0, filter: 0 }, days: [], reasons: [], packages: [], recent_refusals: [] });
  });

  it('counts a retried report once', async () => {
    const { acme } = await start();
    const batch = [decision({ time: T0 - 1000 }), decision({ time: T0 - 500, decision: 'block', reason: 'verdict BLOCK', verdict: 'BLOCK' })];
    expect(await acme.firewall.report(batch)).toEqual({ recorded: 2, duplicates: 0 });
    expect(await acme.firewall.report([...batch, decision({ time: T0 })])).toEqual({ recorded: 1, duplicates: 2 });
    expect(await acme.firewall.report([batch[0]!, batch[0]!])).toEqual({ recorded: 0, duplicates: 2 });
    expect((await acme.firewall.stats()).totals).toEqual({ allow: 2, block: 1, filter: 0 });
  });

  it('refuses reports a key may not make and bodies that are not decisions, naming the field', async () => {
    const { acme, free, readOnly } = await start();
    const status = async (promise: Promise<unknown>) => promise.then(() => 200, (e: unknown) => (e instanceof VigilApiError ? `${e.status} ${e.code}` : String(e)));
    expect(await status(free.firewall.report([decision({ time: T0 })]))).toBe('403 paid_plan_required');
    expect(await status(readOnly.firewall.report([decision({ time: T0 })]))).toBe('403 scope_missing');
    const refusal = async (body: unknown[]) => {
      try {
        await acme.firewall.report(body as FirewallDecisionReport[]);
      } catch (error) {
        expect(error).toBeInstanceOf(VigilValidationError);
        return (error as VigilValidationError).errors.map((i) => `${i.path}: ${i.message}`);
      }
      return 'accepted';
    };
    expect(await refusal([decision({ time: T0 + 10 * 60_000 })])).toEqual(['body.decisions.0.time: is more than 5 minutes ahead of the server clock']);
    expect(await refusal([decision({ time: T0 - 91 * DAY })])).toEqual(['body.decisions.0.time: is older than 90 days (decisions are kept 90 days)']);
    expect(await refusal([])).toEqual([expect.stringMatching(/^body\.decisions: /)]);
    expect(await refusal([{ ...decision({ time: T0 }), decision: 'maybe' }])).toEqual([expect.stringMatching(/^body\.decisions\.0\.decision: /)]);
    expect(await refusal([{ ...decision({ time: T0 }), request_id: 'nope' }])).toEqual([expect.stringMatching(/^body\.decisions\.0\.request_id: expected fw_/)]);
    expect(await refusal([{ ...decision({ time: T0 }), client: '10.0.0.1' }])).toEqual([expect.stringMatching(/client/)]);
    expect(await status(acme.firewall.stats({ days: 91 }))).toBe('422 validation_error');
  });

  it('keeps 90 days: older decisions of the account go when it reports again', async () => {
    const { acme, clock } = await start();
    await acme.firewall.report([decision({ time: T0 - 89 * DAY })]);
    clock.now = T0 + 2 * DAY;
    await acme.firewall.report([decision({ time: clock.now })]);
    expect(await ctx.db().selectFrom('firewall_decisions').select('day').execute()).toEqual([{ day: '2026-11-23' }]);
  });
});
