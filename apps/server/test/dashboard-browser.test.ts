import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseTimestamp, TRACKS } from '@vigil/core';
import { fromHex, getPublicKey } from '@vigil/crypto';
import { dashboardIsBuilt } from '@vigil/dashboard';
import { formatVerifierKey, parseTlogProof } from '@vigil/tlog';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// The dashboard as a person sees it: Debian's Chromium (no browser download) driven by
// playwright-core, against a real `vigil-server serve` (the built bin.js) on a SQLite data
// directory seeded with `seed --demo`. Every number checked on a page is compared with the same
// endpoint's JSON; each page is checked with axe-core and photographed into .test-artifacts/.
//
// Without Chromium the suite is skipped with a message, except when VIGIL_REQUIRE_BROWSER (or,
// when that is unset, CI) is `true`: then it fails, so CI can never pass without running it.

const CHROMIUM = process.env.VIGIL_CHROMIUM?.trim() || '/usr/bin/chromium';
const BIN = fileURLToPath(new URL('../dist/bin.js', import.meta.url));
const ARTIFACTS = fileURLToPath(new URL('../.test-artifacts/dashboard/', import.meta.url));
const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
const haveChromium = existsSync(CHROMIUM);
const required = (process.env.VIGIL_REQUIRE_BROWSER?.trim() || process.env.CI?.trim()) === 'true';
if (!haveChromium && !required) {
  console.warn(`SKIPPED: dashboard browser tests (no Chromium at ${CHROMIUM}; install Debian's chromium, or set VIGIL_CHROMIUM)`);
}

/** How long one browser step may wait for the page; generous for a shared 2-core machine. */
const STEP_TIMEOUT_MS = 15_000;
/** Each test walks several pages, each checked by axe. */
const TEST_TIMEOUT_MS = 120_000;
const LOCALE = 'en-US';
const TIME_ZONE = 'America/New_York';
const count = new Intl.NumberFormat(LOCALE, { maximumFractionDigits: 0 });
const score = new Intl.NumberFormat(LOCALE, { minimumFractionDigits: 2, maximumFractionDigits: 4 });
const local = new Intl.DateTimeFormat(LOCALE, { dateStyle: 'medium', timeStyle: 'medium', timeZone: TIME_ZONE });
const TRACK_LABELS: Record<string, string> = { skills: 'Skills', mcp_servers: 'MCP servers', packages: 'Packages', repositories: 'Repositories' };
/** ICU writes narrow no-break spaces in times; compare text with every space made plain. */
const plain = (text: string | null) => (text ?? '').replace(/[\s\u202f\u00a0]+/g, ' ').trim();

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

function runBin(args: string[], env: Record<string, string>): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], { env: { PATH: process.env.PATH ?? '', VIGIL_REGISTRY_FETCH: 'false', ...env } });
    let out = '';
    let err = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    child.stderr.on('data', (c: Buffer) => (err += c.toString()));
    child.on('close', (code) => (code === 0 ? resolve(out) : reject(new Error(`vigil-server ${args.join(' ')} exited ${code}: ${err}`))));
  });
}

let dataDir: string;
let server: ChildProcess | undefined;
let base: string;
let apiKey: string;
/** The environment every `vigil-server` command of the suite runs with. */
let env: Record<string, string>;
let browser: Browser;
let context: BrowserContext;
/** Browser console errors and failed loads per page, minus those a test provokes on purpose. */
const problems: string[] = [];

async function api<T>(path: string, headers: Record<string, string> = {}): Promise<T> {
  const response = await fetch(`${base}${path}`, { headers });
  if (!response.ok) throw new Error(`${path}: ${response.status} ${await response.text()}`);
  return (await response.json()) as T;
}

/**
 * Records every `securitypolicyviolation` the page fires (even one a library provokes and catches,
 * like zod's `new Function` probe, which logs nothing) in `window.__cspViolations` and as a console
 * error, so the page's own check and the final "no CSP violation" test both see it.
 */
function recordCspViolations(): void {
  const seen: string[] = [];
  (window as unknown as { __cspViolations: string[] }).__cspViolations = seen;
  document.addEventListener('securitypolicyviolation', (event) => {
    const text = `CSP violation: ${event.violatedDirective} (${event.blockedURI || 'inline'}) at ${event.sourceFile}:${event.lineNumber}`;
    seen.push(text);
    console.error(text);
  });
}

async function cspViolations(page: Page): Promise<string[]> {
  return page.evaluate(() => (window as unknown as { __cspViolations?: string[] }).__cspViolations ?? ['the CSP recorder did not run']);
}

async function openPage(ctx: BrowserContext = context): Promise<Page> {
  const page = await ctx.newPage();
  await page.addInitScript(recordCspViolations);
  page.on('console', (message) => {
    if (message.type() === 'error' && !/Failed to load resource: the server responded with a status of (401|404|429|503)/.test(message.text())) {
      problems.push(`${page.url()}: ${message.text()}`);
    }
  });
  page.on('pageerror', (error) => problems.push(`${page.url()}: ${error.message}`));
  return page;
}

/** Every `.stat` on the page (or under `scope`): label → value text. */
async function stats(page: Page, scope = 'main'): Promise<Record<string, string>> {
  return page.$$eval(`${scope} .stat`, (nodes) =>
    Object.fromEntries(nodes.map((n) => [n.querySelector('dt')!.textContent!.trim(), n.querySelector('.stat-value')!.textContent!.trim()])),
  );
}

async function axeViolations(page: Page): Promise<string[]> {
  await page.evaluate(AXE_SOURCE);
  const result = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run(context: Document): Promise<{ violations: { id: string; impact: string; nodes: { target: string[] }[] }[] }> } }).axe;
    return axe.run(document);
  });
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}): ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

async function snap(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: join(ARTIFACTS, `${name}.png`), fullPage: true });
}

describe.skipIf(!haveChromium && !required)('the dashboard in a browser', () => {
  beforeAll(async () => {
    if (!haveChromium) throw new Error(`no Chromium at ${CHROMIUM}: CI requires the browser tests (.ci/run installs Debian's chromium as root)`);
    if (!existsSync(BIN) || !dashboardIsBuilt()) throw new Error('build first: npx -y pnpm@10.34.8 build (vigil-server and the dashboard)');
    mkdirSync(ARTIFACTS, { recursive: true });
    dataDir = mkdtempSync(join(tmpdir(), 'vigil-dashboard-e2e-'));
    // No scheduler: rounds must not close while the test compares the page with the API.
    env = { VIGIL_DATA_DIR: dataDir, LOG_LEVEL: 'warn', VIGIL_SCHEDULER: 'false', VIGIL_REPOSITORY_WORKER: 'false' };
    await runBin(['seed', '--demo'], env);
    apiKey = /vgl_[0-9a-f]+_[0-9a-f]+/.exec(await runBin(['keys', 'create', '--org', 'e2e', '--plan', 'paid', '--scopes', 'read'], env))![0];
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    server = spawn(process.execPath, [BIN, 'serve'], { env: { PATH: process.env.PATH ?? '', VIGIL_REGISTRY_FETCH: 'false', ...env, PORT: String(port), HOST: '127.0.0.1' }, stdio: 'ignore' });
    for (let i = 0; ; i++) {
      const up = await fetch(`${base}/v1/health`).then((r) => r.ok, () => false);
      if (up) break;
      if (i > 300) throw new Error('vigil-server did not answer /v1/health');
      await new Promise((r) => setTimeout(r, 100));
    }
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
    context = await browser.newContext({ baseURL: base, locale: LOCALE, timezoneId: TIME_ZONE, viewport: { width: 1280, height: 900 } });
    context.setDefaultTimeout(STEP_TIMEOUT_MS);
  }, 660_000);

  afterAll(async () => {
    await browser?.close();
    server?.kill('SIGTERM');
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  }, TEST_TIMEOUT_MS);

  it('Network shows the numbers of /v1/dashboard/network, times in local time with UTC on hover', async () => {
    const page = await openPage();
    const favicons: string[] = [];
    page.on('request', (request) => {
      if (new URL(request.url()).pathname === '/favicon.svg') favicons.push(request.url());
    });
    await page.goto('/');
    await page.locator('.stat').first().waitFor();
    // A load fires no CSP violation (zod must not probe for eval under script-src 'self').
    expect(await cspViolations(page)).toEqual([]);
    const data = await api<{
      last_update: string;
      validators: { active: number; total: number };
      miners: { total: number };
      agents: { total: number; by_track: Record<string, number> };
      attestations: number;
      tasks_24h: number;
      reruns_24h: number;
      throughput: number[];
      verdicts: Record<string, number>;
      track_mix: { label: string; value: number }[];
    }>('/v1/dashboard/network');
    const shown = await stats(page);
    expect(shown).toMatchObject({
      'Active validators': count.format(data.validators.active),
      Miners: count.format(data.miners.total),
      Agents: count.format(data.agents.total),
      Attestations: count.format(data.attestations),
      'Tasks, 24 h': count.format(data.tasks_24h),
      'Re-runs, 24 h': count.format(data.reruns_24h),
      ...Object.fromEntries(TRACKS.map((t) => [TRACK_LABELS[t], count.format(data.agents.by_track[t]!)])),
    });
    expect(data.attestations).toBeGreaterThan(999); // the demo has thousands: the grouping separator is exercised
    expect(await page.locator('.stat', { hasText: 'Active validators' }).locator('.stat-note').textContent()).toBe(`of ${count.format(data.validators.total)}`);
    const verdicts = await page.$$eval('ul[aria-label="Verdicts"] li', (items) => items.map((li) => [li.querySelector('.bar-label')!.textContent, li.querySelector('.bar-value')!.textContent]));
    expect(verdicts.map(([label, value]) => [label, value!.split(' (')[0]])).toEqual(['ALLOW', 'WARN', 'BLOCK'].map((v) => [v, count.format(data.verdicts[v]!)]));
    const tracks = await page.$$eval('ul[aria-label="Tracks"] .bar-value', (items) => items.map((i) => i.textContent!.split(' (')[0]));
    expect(tracks).toEqual(data.track_mix.map((t) => count.format(t.value)));
    await page.getByText('Show the numbers').click();
    const hourly = await page.$$eval('figure.chart details tbody td.num', (cells) => cells.map((c) => c.textContent));
    expect(hourly).toEqual(data.throughput.map((n) => count.format(n)));
    const updated = page.locator('.updated time');
    expect(await updated.getAttribute('title')).toBe(`${parseTimestamp(data.last_update).toISOString().slice(0, 10)} ${parseTimestamp(data.last_update).toISOString().slice(11, 19)} UTC`);
    expect(plain(await updated.textContent())).toBe(plain(local.format(parseTimestamp(data.last_update))));
    expect(await axeViolations(page)).toEqual([]);
    // The icon is fetched once (the <link rel=icon>), not a second time for the header's logo.
    expect(favicons.length).toBeLessThanOrEqual(1);
    await snap(page, 'network');
    await page.close();
  }, TEST_TIMEOUT_MS);

  it('navigation stays in one document, keeps the address bar and Back working; Threats follows the days selector', async () => {
    const page = await openPage();
    await page.goto('/');
    await page.locator('.stat').first().waitFor();
    await page.evaluate(() => ((window as unknown as { loadedOnce: boolean }).loadedOnce = true));
    await page.getByRole('navigation', { name: 'Dashboard' }).getByRole('link', { name: 'Threats' }).click();
    await expect.poll(() => page.url()).toBe(`${base}/threats`);
    type Trends = { days: number; attestations: number; scanned: number; series: unknown[]; totals: Record<string, number>; week: { findings: number; prev_findings: number }; categories: { category: string; count: number }[]; severity: Record<string, number> };
    const check = async (days: number) => {
      await page.locator('.updated', { hasText: new RegExp(`^Last ${days} days?,`) }).waitFor();
      const data = await api<Trends>(`/v1/threats/trends?days=${days}`);
      expect(await stats(page)).toMatchObject({
        Attestations: count.format(data.attestations),
        'Artifacts scanned': count.format(data.scanned),
        'Flagged artifacts': count.format(data.totals.flagged_artifacts!),
        Blocked: count.format(data.totals.blocked!),
        Warned: count.format(data.totals.warned!),
        'Findings, last 7 days': count.format(data.week.findings),
        'Findings, the 7 days before': count.format(data.week.prev_findings),
      });
      expect(await page.locator('figure.chart details tbody tr').count()).toBe(data.series.length);
      const categories = await page.$$eval('[aria-label="Findings by category"] tbody tr', (rows) => rows.map((r) => [r.querySelector('code')!.textContent, r.querySelector('td')!.textContent]));
      expect(categories).toEqual(data.categories.map((c) => [c.category, count.format(c.count)]));
      const severity = await page.$$eval('ul[aria-label="Severity"] .bar-value', (items) => items.map((i) => i.textContent!.split(' (')[0]));
      expect(severity).toEqual(['CRIT', 'HIGH', 'MED', 'LOW'].map((s) => count.format(data.severity[s]!)));
    };
    await check(30);
    // The chart's legend names its series without waiting for a hover (no "--" placeholders).
    const legend = plain(await page.locator('figure.chart .u-legend').textContent());
    expect(legend).not.toContain('--');
    for (const label of ['Scanned', 'Flagged', 'Blocked', 'Warned']) expect(legend).toContain(label);
    await page.getByRole('link', { name: '7 days' }).click();
    await expect.poll(() => page.url()).toBe(`${base}/threats?days=7`);
    await check(7);
    await page.getByLabel('Days (1–180)').fill('180');
    await page.getByLabel('Days (1–180)').press('Enter');
    await expect.poll(() => page.url()).toBe(`${base}/threats?days=180`);
    await check(180);
    await page.getByLabel('Days (1–180)').fill('181');
    await page.getByRole('button', { name: 'Show' }).click();
    await page.getByText('Enter a whole number of days from 1 to 180.').waitFor();
    expect(page.url()).toBe(`${base}/threats?days=180`);
    await page.goBack();
    await expect.poll(() => page.url()).toBe(`${base}/threats?days=7`);
    await check(7);
    expect(await page.evaluate(() => (window as unknown as { loadedOnce?: boolean }).loadedOnce)).toBe(true);
    expect(await page.evaluate(() => document.activeElement?.tagName)).not.toBe('BODY');
    expect(await axeViolations(page)).toEqual([]);
    await snap(page, 'threats');

    // An address outside 1–180 is not silently replaced: the page clamps it, says so, and the
    // address shows what is shown.
    await page.goto('/threats?days=500');
    await expect.poll(() => page.url()).toBe(`${base}/threats?days=180`);
    await check(180);
    expect(plain(await page.locator('.days-adjusted').textContent())).toBe('The address asked for 500 days; the most is 180, so this shows 180 days.');
    await page.goto('/threats?days=week');
    await expect.poll(() => page.url()).toBe(`${base}/threats?days=30`);
    await check(30);
    expect(plain(await page.locator('.days-adjusted').textContent())).toContain('“week” is not a number of days');
    await page.close();
  }, TEST_TIMEOUT_MS);

  it('Threats: a failed read is retried within 30 s, not after the 10-minute period', async () => {
    const page = await openPage();
    await page.route('**/v1/threats/trends?days=30', (route) =>
      route.fulfill({ status: 503, headers: { 'content-type': 'application/json' }, body: '{"detail":"service unavailable"}' }),
    );
    await page.goto('/threats');
    const alert = page.getByRole('alert');
    await alert.getByText('The server could not answer (503 service unavailable).').waitFor();
    expect(await alert.locator('.countdown').textContent()).toMatch(/^00:[0-3]\d$/);
    await page.close();
  }, TEST_TIMEOUT_MS);

  it('Rounds: current rounds with a live countdown, closed rounds with their top five, a round’s scores and a miner’s attestations', async () => {
    const page = await openPage();
    await page.goto('/rounds');
    await page.locator('.card').first().waitFor();
    const status = await api<{ tracks: { track: string; round_number: number; phase: string; participants: number; scored_agents: number; seconds_until_close: number | null }[] }>('/v1/rounds/status');
    const cards = await page.$$eval('.card', (nodes) => nodes.map((n) => n.querySelector('h3')!.textContent));
    expect(cards).toEqual(status.tracks.map((t) => `${TRACK_LABELS[t.track]}: round ${count.format(t.round_number)}`));
    for (const [i, round] of status.tracks.entries()) {
      const facts = await stats(page, `.card:nth-child(${i + 1})`);
      expect(facts.Participants).toBe(count.format(round.participants));
      expect(facts['Scored agents']).toBe(count.format(round.scored_agents));
      expect(facts.Phase!.toLowerCase()).toBe(round.phase);
    }
    const ticking = status.tracks.findIndex((t) => t.seconds_until_close !== null && t.seconds_until_close > 5);
    if (ticking >= 0) {
      const countdown = page.locator(`.card:nth-child(${ticking + 1}) .countdown`).first();
      const before = await countdown.textContent();
      await expect.poll(() => countdown.textContent(), { timeout: 5_000 }).not.toBe(before);
    }
    const list = await api<{ rounds: { round_id: string; round_number: number; miners: number; winners: { hotkey: string; name: string; score: number }[] }[] }>('/v1/rounds?limit=20');
    expect(list.rounds.length).toBeGreaterThan(0);
    const rows = page.getByRole('region', { name: 'Closed rounds' }).locator('tbody tr');
    expect(await rows.count()).toBe(list.rounds.length);
    const first = list.rounds[0]!;
    expect(await rows.first().locator('th').textContent()).toBe(`Round ${count.format(first.round_number)}`);
    expect(await rows.first().locator('ol.winners li').allTextContents()).toEqual(first.winners.map((w) => `${w.name} ${score.format(w.score)} Copy`));
    expect(await axeViolations(page)).toEqual([]);
    await snap(page, 'rounds');

    await rows.first().locator('th a').click();
    await expect.poll(() => page.url()).toBe(`${base}/rounds/${first.round_id}`);
    const scores = await api<{ scores: { rank: number; name: string; hotkey: string; score: number; validators: number }[] }>(`/v1/rounds/${first.round_id}/scores`);
    const scoreRows = page.getByRole('region', { name: 'Scores' }).locator('tbody tr');
    await scoreRows.first().waitFor();
    expect(await scoreRows.count()).toBe(scores.scores.length);
    const shownScores = await scoreRows.evaluateAll((trs) => trs.map((tr) => Array.from(tr.children, (c) => c.textContent)));
    expect(shownScores.map((r) => [r[0], r[1], r[3], r[4]])).toEqual(scores.scores.map((s) => [count.format(s.rank), s.name, score.format(s.score), count.format(s.validators)]));
    expect(await axeViolations(page)).toEqual([]);
    await snap(page, 'round-scores');

    const winner = scores.scores[0]!;
    await scoreRows.first().locator('a').click();
    await expect.poll(() => page.url()).toBe(`${base}/rounds/${first.round_id}/miners/${winner.hotkey}`);
    const attestations = await api<{ score: number; runs: number; tasks: { verdict: string; risk_score: number; canonical_hash: string; findings: unknown[] }[] }>(
      `/v1/rounds/${first.round_id}/attestations?miner=${winner.hotkey}`,
    );
    await page.locator('.stat').first().waitFor();
    expect(await stats(page)).toMatchObject({ Score: score.format(attestations.score), Runs: count.format(attestations.runs), Tasks: count.format(attestations.tasks.length) });
    const tasks = await page.getByRole('region', { name: 'Attestations' }).locator('tbody tr').evaluateAll((trs) =>
      trs.map((tr) => [tr.querySelector('.badge')!.textContent, tr.children[1]!.textContent, tr.querySelector('code.hash')!.textContent]),
    );
    expect(tasks).toEqual(attestations.tasks.map((t) => [t.verdict, count.format(t.risk_score), t.canonical_hash]));
    expect(await axeViolations(page)).toEqual([]);
    await snap(page, 'miner-attestations');

    // A deep link (reload) is the SPA fallback's job: the server answers the page, the page the data.
    await page.goto(`/rounds/${first.round_id}`);
    await page.getByRole('region', { name: 'Scores' }).waitFor();
    await page.close();
  }, TEST_TIMEOUT_MS);

  it('Leaderboard: each track’s rows as /v1/leaderboard ranks them', async () => {
    const page = await openPage();
    await page.goto('/leaderboard');
    const board = await api<{ rows: { track: string; rank: number; name: string; score: number | null; version: number; current_version: number; resubmitted_since: boolean; attestations: number }[]; meta: { total_agents: number } }>('/v1/leaderboard');
    await page.locator('.stat').first().waitFor();
    // The tile counts what it names: the ranked rows, which is what the tabs and tables add up to.
    expect((await stats(page))['Agents ranked, all tracks']).toBe(count.format(board.rows.length));
    for (const track of TRACKS) {
      await page.getByRole('navigation', { name: 'Tracks' }).getByRole('link', { name: new RegExp(`^${TRACK_LABELS[track]}`) }).click();
      await expect.poll(() => page.url()).toBe(`${base}/leaderboard?track=${track}`);
      const expected = board.rows.filter((r) => r.track === track);
      if (expected.length === 0) {
        await page.getByText(`No agent is ranked in ${TRACK_LABELS[track]} yet.`).waitFor();
        continue;
      }
      const rows = page.getByRole('region', { name: `Leaderboard, ${TRACK_LABELS[track]}` }).locator('tbody tr');
      await rows.first().waitFor();
      const shown = await rows.evaluateAll((trs) => trs.map((tr) => Array.from(tr.children, (c) => c.textContent)));
      expect(shown.map((r) => [r[0], r[1], r[3], r[5], r[6]])).toEqual(
        expected.map((r) => [count.format(r.rank), r.name, r.score === null ? '—' : score.format(r.score), count.format(r.current_version), count.format(r.attestations)]),
      );
      expect(shown.map((r) => r[4]!.includes('resubmitted since'))).toEqual(expected.map((r) => r.resubmitted_since));
    }
    expect(await axeViolations(page)).toEqual([]);
    await snap(page, 'leaderboard');
    await page.close();
  }, TEST_TIMEOUT_MS);

  it('Agents: the list per track, and an agent’s eligibility with its state and reason', async () => {
    const page = await openPage();
    await page.goto('/agents');
    const all = await api<{ agents: { hotkey: string; track: string; name: string; version: number; runs: number }[] }>('/v1/agents');
    const rows = page.getByRole('region', { name: 'Agents' }).locator('tbody tr');
    await rows.first().waitFor();
    expect(await rows.count()).toBe(all.agents.length);
    await page.getByRole('navigation', { name: 'Tracks' }).getByRole('link', { name: 'MCP servers' }).click();
    const mcp = await api<{ agents: { hotkey: string; track: string; name: string }[] }>('/v1/agents?track=mcp_servers');
    await expect.poll(() => rows.count()).toBe(mcp.agents.length);
    expect(await rows.locator('th').allTextContents()).toEqual(mcp.agents.map((a) => a.name));
    expect(await axeViolations(page)).toEqual([]);
    await snap(page, 'agents');

    const agent = mcp.agents[0]!;
    await rows.first().locator('th a').click();
    await expect.poll(() => page.url()).toBe(`${base}/agents/${agent.hotkey}?track=mcp_servers`);
    const eligibility = await api<{ state: string; reason: string; qualifies_next_round: boolean; version: number; agent_hash: string }>(`/v1/agents/${agent.hotkey}?track=mcp_servers`);
    await page.locator('.eligibility').waitFor();
    expect(await page.locator('.eligibility').textContent()).toContain(eligibility.reason);
    expect(await stats(page)).toMatchObject({ State: eligibility.state, Version: count.format(eligibility.version) });
    expect(await page.locator('.hashes code').first().textContent()).toBe(eligibility.agent_hash);
    expect(await axeViolations(page)).toEqual([]);
    await snap(page, 'agent');

    await page.goto('/agents/5GrwvaEF5zXb26Fz9rcQpDWS57CtERHpNehXCPcNoHGKutQY');
    await page.getByText('Not found (agent not found).').waitFor();
    await page.close();
  }, TEST_TIMEOUT_MS);

  it('keyboard: "Skip to content" moves focus to the main content; hotkeys in full through copy buttons', async () => {
    const keyboard = await browser.newContext({ baseURL: base, locale: LOCALE, timezoneId: TIME_ZONE, viewport: { width: 1280, height: 900 }, permissions: ['clipboard-read', 'clipboard-write'] });
    keyboard.setDefaultTimeout(STEP_TIMEOUT_MS);
    try {
      const page = await openPage(keyboard);
      await page.goto('/');
      await page.locator('.stat').first().waitFor();
      await page.keyboard.press('Tab');
      expect(await page.evaluate(() => document.activeElement?.textContent?.trim())).toBe('Skip to content');
      await page.keyboard.press('Enter');
      await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe('main');
      expect(page.url()).toBe(`${base}/`);
      // The next Tab goes into the content, past the header's links.
      await page.keyboard.press('Tab');
      expect(await page.evaluate(() => Boolean(document.activeElement?.closest('main')))).toBe(true);
      // A click on it works the same.
      await page.locator('a.skip').focus();
      await page.locator('a.skip').click();
      await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe('main');

      const clipboard = () => page.evaluate(() => navigator.clipboard.readText());
      const board = await api<{ rows: { hotkey: string; track: string }[] }>('/v1/leaderboard');
      const first = board.rows.find((r) => r.track === 'skills')!;
      await page.goto('/leaderboard');
      const copy = page.getByRole('button', { name: `Copy hotkey ${first.hotkey}` });
      await copy.focus();
      await page.keyboard.press('Enter');
      await expect.poll(clipboard).toBe(first.hotkey);
      expect(await page.locator('tbody tr').first().getByRole('status').textContent()).toBe('Copied');

      // The closed rounds' winners: each hotkey copied from the keyboard, the name alone would not identify it.
      const rounds = await api<{ rounds: { winners: { hotkey: string }[] }[] }>('/v1/rounds?limit=20');
      const winner = rounds.rounds.flatMap((r) => r.winners)[0]!.hotkey;
      await page.goto('/rounds');
      const copyWinner = page.getByRole('region', { name: 'Closed rounds' }).getByRole('button', { name: `Copy hotkey ${winner}` }).first();
      await copyWinner.focus();
      await page.keyboard.press('Enter');
      await expect.poll(clipboard).toBe(winner);

      const agents = await api<{ agents: { hotkey: string }[] }>('/v1/agents');
      const hotkey = agents.agents[1]!.hotkey;
      await page.goto(`/agents/${hotkey}`);
      await page.locator('.eligibility').waitFor();
      expect(await page.locator('.mono-note code').textContent()).toBe(hotkey);
      await page.getByRole('button', { name: `Copy hotkey ${hotkey}` }).focus();
      await page.keyboard.press('Space');
      await expect.poll(clipboard).toBe(hotkey);
      expect(await axeViolations(page)).toEqual([]);
      await page.close();
    } finally {
      await keyboard.close();
    }
  }, TEST_TIMEOUT_MS);

  it('Verify checks a real envelope in the browser, sends nothing, and rejects a tampered one', async () => {
    const auth = { authorization: `Bearer ${apiKey}` };
    const listed = await api<{ attestations: { canonical_hash: string }[] }>('/v1/attestations', { ...auth, 'x-vigil-page-size': '1' });
    const detail = await api<{ envelope: { payload: Record<string, unknown> } }>(`/v1/attestations/${listed.attestations[0]!.canonical_hash}`, auth);
    const snapshot = readFileSync(join(dataDir, 'metagraph.json'), 'utf8');
    const page = await openPage();
    await page.goto('/verify');
    await page.getByLabel('Attestation envelope (JSON)').waitFor();
    const sent: string[] = [];
    page.on('request', (request) => sent.push(request.url()));

    await page.getByLabel('Attestation envelope (JSON)').fill(JSON.stringify(detail.envelope, null, 2));
    await page.getByLabel('Metagraph snapshot (JSON)').fill(snapshot);
    await page.getByRole('button', { name: 'Verify' }).click();
    await page.getByRole('heading', { name: 'Genuine: all three checks pass' }).waitFor();
    expect(await page.locator('.checks li').allTextContents()).toEqual([
      expect.stringMatching(/^Hash: pass/),
      expect.stringMatching(/^Signature: pass/),
      expect.stringMatching(/^Validator permit: pass/),
    ]);
    expect(await axeViolations(page)).toEqual([]);
    await snap(page, 'verify-genuine');

    const tampered = { ...detail.envelope, payload: { ...detail.envelope.payload, risk_score: ((detail.envelope.payload.risk_score as number) + 1) % 101 } };
    await page.getByLabel('Attestation envelope (JSON)').fill(JSON.stringify(tampered));
    // A changed input clears the previous result: "Genuine" never sits under another envelope.
    expect(await page.locator('.verify-result').count()).toBe(0);
    await page.getByRole('button', { name: 'Verify' }).click();
    await page.getByRole('heading', { name: 'Not genuine' }).waitFor();
    expect(await page.locator('.reason').textContent()).toBe('canonical hash mismatch');
    expect(await page.locator('.checks li').allTextContents()).toEqual([
      expect.stringMatching(/^Hash: fail \(.*does not equal canonical_hash\)$/),
      expect.stringMatching(/^Signature: fail \(.*does not verify.*\)$/),
      expect.stringMatching(/^Validator permit: pass \(.*gives validator_hotkey a validator permit\)$/),
    ]);
    await snap(page, 'verify-tampered');
    expect(sent).toEqual([]);
    await page.close();
  }, TEST_TIMEOUT_MS);

  it('Verify shows the attestation’s inclusion in the log and the checkpoint it was checked against, with the pinned key only', async () => {
    const auth = { authorization: `Bearer ${apiKey}` };
    const listed = await api<{ attestations: { canonical_hash: string }[] }>('/v1/attestations', { ...auth, 'x-vigil-page-size': '1' });
    const answer = await api<{ envelope: unknown; log_proof: string; log_entry: string }>(`/v1/attestations/${listed.attestations[0]!.canonical_hash}?proof=true`, auth);
    const { server_hotkey: hotkey } = await api<{ server_hotkey: string }>('/v1/server-identity');
    const logKey = formatVerifierKey(`vigil/${hotkey}`, fromHex(hotkey));
    const proven = parseTlogProof(answer.log_proof);
    const [origin, size, root] = proven.checkpoint.split('\n');
    const page = await openPage();
    await page.goto('/verify');
    await page.getByLabel('Attestation envelope (JSON)').waitFor();
    const sent: string[] = [];
    page.on('request', (request) => sent.push(request.url()));

    await page.getByLabel('Attestation envelope (JSON)').fill(JSON.stringify(answer.envelope));
    await page.getByLabel('Metagraph snapshot (JSON)').fill(readFileSync(join(dataDir, 'metagraph.json'), 'utf8'));
    await page.getByLabel('Log proof (optional, JSON)').fill(JSON.stringify(answer, null, 2));
    // A proof without a key is the reader's input to complete, not a failed check.
    await page.getByRole('button', { name: 'Verify' }).click();
    await page.getByRole('heading', { name: 'Genuine: all three checks pass' }).waitFor();
    expect(await page.locator('#log-key-error').textContent()).toMatch(/^Give the log key/);
    expect(await page.locator('#log-result').count()).toBe(0);

    await page.getByLabel('Log key (with a log proof)').fill(logKey);
    await page.getByRole('button', { name: 'Verify' }).click();
    await page.getByRole('heading', { name: 'In the transparency log' }).waitFor();
    expect((await page.locator('.log-checks li').allTextContents()).map(plain)).toEqual([
      `Log inclusion: pass (entry ${count.format(proven.index)} of the tree of ${count.format(Number(size))} entries)`,
      `Checkpoint: ${origin}, ${count.format(Number(size))} entries, root ${root}`,
      `Signed by: ${logKey}`,
    ]);
    expect(await axeViolations(page)).toEqual([]);
    await snap(page, 'verify-log-included');

    // Another key (same origin, another secret): the server's checkpoint is not signed by it.
    const otherKey = formatVerifierKey(`vigil/${hotkey}`, getPublicKey(new Uint8Array(32).fill(7)));
    await page.getByLabel('Log key (with a log proof)').fill(otherKey);
    expect(await page.locator('#log-result').count()).toBe(0);
    await page.getByRole('button', { name: 'Verify' }).click();
    await page.getByRole('heading', { name: 'Log inclusion not proven' }).waitFor();
    expect(await page.locator('[aria-labelledby="log-result"] .reason').textContent()).toMatch(/signature|signed|known key/i);
    expect(sent).toEqual([]);
    await page.close();
  }, TEST_TIMEOUT_MS);

  it('Artifact: a purl’s verdict, history, attestations, findings and files with a key kept in memory only; a free key sees findings withheld', async () => {
    // The demo's artifacts are the rounds' own (no purl claims): claim one that a round decided, by
    // uploading its bytes (from the server's blob store) under a purl, with a paid and a free account.
    const paidKey = /vgl_[0-9a-f]+_[0-9a-f]+/.exec(await runBin(['keys', 'create', '--org', 'e2e', '--plan', 'paid', '--scopes', 'read,upload'], env))![0];
    const freeKey = /vgl_[0-9a-f]+_[0-9a-f]+/.exec(await runBin(['keys', 'create', '--org', 'e2e-free', '--plan', 'free', '--scopes', 'read,upload'], env))![0];
    type Artifact = {
      id: string;
      track: string;
      sha256: string;
      state: string;
      verdict: { verdict: string; risk_score: number; round_id: string; decided_at: string } | null;
      verdict_history: { verdict: string; previous_verdict: string | null; risk_score: number; changed_at: string }[];
      attestations: { canonical_hash: string; verdict: string; risk_score: number }[];
      findings: { type: string; category: string; title: string; severity: string; file: string; canonical_hash: string }[] | null;
      findings_withheld: boolean;
      archive: { files: { name: string; size: number }[] | null };
    };
    const paid = { authorization: `Bearer ${paidKey}` };
    const blocked = await api<{ attestations: { track: string; artifact: { id: number } }[] }>('/v1/attestations?verdict=BLOCK', { ...paid, 'x-vigil-page-size': '100' });
    let decided: Artifact | undefined;
    for (const id of new Set(blocked.attestations.filter((a) => a.track === 'packages').map((a) => a.artifact.id))) {
      const artifact = await api<Artifact>(`/v1/artifacts/art_${id}`, paid);
      if (artifact.verdict?.verdict === 'BLOCK') {
        decided = artifact;
        break;
      }
    }
    expect(decided, 'a packages artifact the demo rounds published BLOCK for').toBeDefined();
    const hex = decided!.sha256.slice('sha256:'.length);
    const bytes = readFileSync(join(dataDir, 'blobs', 'sha256', hex.slice(0, 2), hex.slice(2)));
    const purl = 'pkg:npm/vigil-e2e-demo@1.0.0';
    for (const key of [paidKey, freeKey]) {
      const upload = await fetch(`${base}/v1/artifacts?track=packages&package=${encodeURIComponent(purl)}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/octet-stream' },
        body: bytes,
      });
      expect(upload.status).toBe(200); // the same bytes: the demo's artifact, now claimed under the purl
    }
    const { artifacts } = await api<{ artifacts: Artifact[] }>(`/v1/artifacts?purl=${encodeURIComponent(purl)}`, paid);
    expect(artifacts.map((a) => a.id)).toEqual([decided!.id]);
    const artifact = artifacts[0]!;
    expect(artifact.verdict_history.length).toBeGreaterThan(0);
    expect(artifact.findings!.length).toBeGreaterThan(0);

    const page = await openPage();
    await page.goto('/artifacts');
    await page.getByRole('navigation', { name: 'Dashboard' }).getByRole('link', { name: 'Artifact' }).waitFor();
    expect(await page.getByRole('navigation', { name: 'Dashboard' }).getByRole('link', { name: 'Artifact' }).getAttribute('aria-current')).toBe('page');
    await page.getByLabel('API key (scope read)').fill(paidKey);
    await page.getByLabel('Package reference (purl or short form)').fill(purl);
    await page.getByRole('button', { name: 'Look up' }).click();
    await expect.poll(() => page.url()).toBe(`${base}/artifacts?purl=${encodeURIComponent(purl)}`);
    const card = page.locator('section.artifact');
    await card.waitFor();
    const verdict = artifact.verdict!;
    expect(await stats(page, 'section.artifact')).toMatchObject({
      State: 'decided',
      Verdict: verdict.verdict,
      'Risk score': count.format(verdict.risk_score),
      'Decided at': plain(local.format(parseTimestamp(verdict.decided_at))),
    });
    const history = await card.getByRole('region', { name: 'Verdict history' }).locator('tbody tr').evaluateAll((trs) =>
      trs.map((tr) => [tr.children[1]!.textContent, tr.children[2]!.textContent, tr.children[3]!.textContent]),
    );
    expect(history).toEqual(artifact.verdict_history.map((h) => [h.verdict, h.previous_verdict ?? 'first decision', count.format(h.risk_score)]));
    const behind = await card.getByRole('region', { name: 'Attestations behind the verdict' }).locator('code.hash').allTextContents();
    expect(behind).toEqual(artifact.attestations.map((a) => a.canonical_hash));
    // One line per finding, however many validators reported it, most severe first.
    const order = ['CRIT', 'HIGH', 'MED', 'LOW'];
    const grouped = new Map<string, { severity: string; title: string; file: string; category: string; type: string; hashes: Set<string> }>();
    for (const f of artifact.findings!) {
      const key = JSON.stringify([f.severity, f.type, f.category, f.title, f.file]);
      if (!grouped.has(key)) grouped.set(key, { ...f, hashes: new Set() });
      grouped.get(key)!.hashes.add(f.canonical_hash);
    }
    const byText = (x: string, y: string) => (x < y ? -1 : x > y ? 1 : 0);
    const expectedFindings = [...grouped.values()].sort(
      (a, b) =>
        order.indexOf(a.severity) - order.indexOf(b.severity) || byText(a.title, b.title) || byText(a.file, b.file) || byText(a.category, b.category) || byText(a.type, b.type),
    );
    const shownFindings = await card.locator('ul.findings li').evaluateAll((lis) => lis.map((li) => [li.querySelector('.badge')!.textContent, li.querySelector('strong')!.textContent, li.querySelector('.reports')!.textContent]));
    expect(shownFindings.map(([sev, title, reports]) => [sev, title, plain(reports ?? null)])).toEqual(
      expectedFindings.map((f) => [f.severity, f.title, `(reported by ${f.hashes.size} of ${artifact.attestations.length} attestation${artifact.attestations.length === 1 ? '' : 's'})`]),
    );
    expect(await card.getByRole('region', { name: 'Files' }).locator('tbody code').allTextContents()).toEqual(artifact.archive.files!.map((f) => f.name));
    // The key is in the tab's memory only: not in storage, cookies or the address.
    expect(await page.evaluate(() => [localStorage.length, sessionStorage.length, document.cookie])).toEqual([0, 0, '']);
    expect(page.url()).not.toContain(paidKey.slice(4, 12));
    expect(await axeViolations(page)).toEqual([]);
    await snap(page, 'artifact');

    // The same artifact by its content hash.
    await page.getByLabel('Package reference (purl or short form) or content hash').fill(artifact.sha256);
    await page.getByRole('button', { name: 'Look up' }).click();
    await expect.poll(() => page.url()).toBe(`${base}/artifacts?sha256=${encodeURIComponent(artifact.sha256)}`);
    await page.getByText('1 artifact with the content hash').waitFor();
    expect(await card.locator('h2 code').textContent()).toBe(artifact.id);
    await page.goBack();
    await expect.poll(() => page.url()).toBe(`${base}/artifacts?purl=${encodeURIComponent(purl)}`);
    await card.waitFor();

    // Another page and back keeps the key (same tab); a reload forgets it.
    await page.getByRole('navigation', { name: 'Dashboard' }).getByRole('link', { name: 'Verify' }).click();
    await page.goBack();
    await card.waitFor();
    await page.reload();
    await page.getByText(`Enter an API key to look up ${purl}.`).waitFor();
    expect(await page.getByLabel('API key (scope read)').inputValue()).toBe('');

    await page.getByLabel('API key (scope read)').fill(freeKey);
    await page.getByRole('button', { name: 'Look up' }).click();
    await page.locator('.withheld').waitFor();
    expect(await page.locator('.withheld').textContent()).toContain('Findings withheld');
    expect(await card.locator('ul.findings').count()).toBe(0);
    expect((await stats(page, 'section.artifact')).Verdict).toBe(verdict.verdict);
    await snap(page, 'artifact-free-plan');

    await page.getByLabel('API key (scope read)').fill(`vgl_00000000_${'0'.repeat(48)}`);
    await page.getByRole('button', { name: 'Look up' }).click();
    await page.getByRole('alert').getByText('The API key was refused (401 invalid or revoked api key).').waitFor();
    await page.close();
  }, TEST_TIMEOUT_MS);

  it('a 429 shows a countdown from Retry-After and then loads; a 5xx says so and Retry loads', async () => {
    const page = await openPage();
    let limited = true;
    await page.route('**/v1/dashboard/network', (route) =>
      limited
        ? route.fulfill({ status: 429, headers: { 'retry-after': '3', 'content-type': 'application/json' }, body: '{"detail":"rate limit exceeded"}' })
        : route.continue(),
    );
    await page.goto('/');
    const alert = page.getByRole('alert');
    await alert.getByText('Too many requests from this address (429 rate limit exceeded).').waitFor();
    expect(await alert.locator('.countdown').textContent()).toMatch(/^00:0[0-3]$/);
    await snap(page, 'network-429');
    limited = false;
    await page.locator('.stat').first().waitFor({ timeout: 10_000 });
    expect(await alert.count()).toBe(0);

    await page.unroute('**/v1/dashboard/network');
    let failing = true;
    await page.route('**/v1/leaderboard', (route) =>
      failing
        ? route.fulfill({ status: 503, headers: { 'content-type': 'application/json', 'x-request-id': 'req-e2e-1' }, body: '{"detail":"service unavailable"}' })
        : route.continue(),
    );
    await page.getByRole('navigation', { name: 'Dashboard' }).getByRole('link', { name: 'Leaderboard' }).click();
    await page.getByText('The server could not answer (503 service unavailable).').waitFor();
    expect(await page.getByRole('alert').textContent()).toContain('req-e2e-1');
    await snap(page, 'leaderboard-503');
    failing = false;
    await page.getByRole('button', { name: 'Retry now' }).click();
    await page.locator('.stat').first().waitFor();
    await page.close();
  }, TEST_TIMEOUT_MS);

  it('phone width and dark scheme: no sideways scrolling of the page, and axe passes in dark', async () => {
    const agents = await api<{ agents: { hotkey: string; track: string }[] }>('/v1/agents');
    const agent = agents.agents[0]!;
    const closed = await api<{ rounds: { round_id: string; winners: { hotkey: string }[] }[] }>('/v1/rounds?limit=1');
    const round = closed.rounds[0]!;
    const auth = { authorization: `Bearer ${apiKey}` };
    const listed = await api<{ attestations: { canonical_hash: string }[] }>('/v1/attestations', { ...auth, 'x-vigil-page-size': '1' });
    const detail = await api<{ envelope: unknown }>(`/v1/attestations/${listed.attestations[0]!.canonical_hash}`, auth);
    const phone = await browser.newContext({ baseURL: base, locale: LOCALE, timezoneId: TIME_ZONE, viewport: { width: 390, height: 844 }, colorScheme: 'dark', isMobile: true, hasTouch: true });
    phone.setDefaultTimeout(STEP_TIMEOUT_MS);
    try {
      const page = await openPage(phone);
      for (const [path, ready, name] of [
        ['/', '.stat', 'network'],
        ['/threats', '.stat', 'threats'],
        ['/rounds', '.card', 'rounds'],
        ['/leaderboard', '.stat', 'leaderboard'],
        ['/agents', 'tbody tr', 'agents'],
        ['/verify', 'textarea', 'verify'],
        ['/artifacts', 'form', 'artifact'],
        // A full 48-character hotkey in the page's text: it wraps instead of widening the page.
        [`/agents/${agent.hotkey}?track=${agent.track}`, '.eligibility', 'agent'],
        [`/rounds/${round.round_id}/miners/${round.winners[0]!.hotkey}`, '.stat', 'miner'],
        ['/verify#result', '.verify-result', 'verify-result'],
      ] as const) {
        if (path === '/verify#result') {
          await page.goto('/verify');
          await page.getByLabel('Attestation envelope (JSON)').fill(JSON.stringify(detail.envelope));
          await page.getByLabel('Metagraph snapshot (JSON)').fill(readFileSync(join(dataDir, 'metagraph.json'), 'utf8'));
          await page.getByRole('button', { name: 'Verify' }).click();
        } else {
          await page.goto(path);
        }
        await page.locator(ready).first().waitFor();
        expect(await page.evaluate(() => window.innerWidth), path).toBe(390);
        expect(await page.evaluate(() => document.documentElement.scrollWidth), path).toBeLessThanOrEqual(390);
        expect(await axeViolations(page), path).toEqual([]);
        expect(await cspViolations(page), path).toEqual([]);
        await snap(page, `phone-dark-${name}`);
      }
      await page.close();
    } finally {
      await phone.close();
    }
  }, TEST_TIMEOUT_MS);

  it('no page broke its Content-Security-Policy or logged an error', () => {
    expect(problems).toEqual([]);
  });
});
