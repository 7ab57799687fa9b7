import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { dashboardIsBuilt } from '@vigil/dashboard';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// The dashboard's Firewall page as a person sees it: Debian's Chromium driven by playwright-core
// against a real `vigil-server serve` (the built bin.js), with decisions reported through the real
// `POST /v1/firewall/decisions`; the page's numbers are compared with `GET /v1/firewall/stats`,
// checked with axe-core and photographed into .test-artifacts/. Skipped without Chromium unless
// VIGIL_REQUIRE_BROWSER (or CI) is `true`, as dashboard-browser.test.ts.

const CHROMIUM = process.env.VIGIL_CHROMIUM?.trim() || '/usr/bin/chromium';
const BIN = fileURLToPath(new URL('../dist/bin.js', import.meta.url));
const ARTIFACTS = fileURLToPath(new URL('../.test-artifacts/dashboard/', import.meta.url));
const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
const haveChromium = existsSync(CHROMIUM);
const required = (process.env.VIGIL_REQUIRE_BROWSER?.trim() || process.env.CI?.trim()) === 'true';

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

const keyOf = (output: string) => /vgl_[0-9a-f]+_[0-9a-f]+/.exec(output)![0];

async function axeViolations(page: Page): Promise<string[]> {
  await page.evaluate(AXE_SOURCE);
  const result = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run(context: Document): Promise<{ violations: { id: string; impact: string; nodes: { target: string[] }[] }[] }> } }).axe;
    return axe.run(document);
  });
  return result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id} (${v.impact}): ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

let dataDir: string;
let server: ChildProcess | undefined;
let base: string;
let browser: Browser;
let paidKey: string;
let emptyKey: string;
const problems: string[] = [];

describe.skipIf(!haveChromium && !required)('the dashboard’s Firewall page in a browser', () => {
  beforeAll(async () => {
    if (!haveChromium) throw new Error(`no Chromium at ${CHROMIUM}: CI requires the browser tests`);
    if (!existsSync(BIN) || !dashboardIsBuilt()) throw new Error('build first: npx -y pnpm@10.34.8 build (vigil-server and the dashboard)');
    mkdirSync(ARTIFACTS, { recursive: true });
    dataDir = mkdtempSync(join(tmpdir(), 'vigil-dashboard-firewall-'));
    const env = { VIGIL_DATA_DIR: dataDir, LOG_LEVEL: 'warn', VIGIL_SCHEDULER: 'false', VIGIL_REPOSITORY_WORKER: 'false' };
    paidKey = keyOf(await runBin(['keys', 'create', '--org', 'fw-team', '--plan', 'paid', '--scopes', 'read,verify'], env));
    emptyKey = keyOf(await runBin(['keys', 'create', '--org', 'fw-other', '--plan', 'paid', '--scopes', 'read'], env));
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    server = spawn(process.execPath, [BIN, 'serve'], { env: { PATH: process.env.PATH ?? '', VIGIL_REGISTRY_FETCH: 'false', ...env, PORT: String(port), HOST: '127.0.0.1' }, stdio: 'ignore' });
    for (let i = 0; ; i++) {
      if (await fetch(`${base}/v1/health`).then((r) => r.ok, () => false)) break;
      if (i > 600) throw new Error('vigil-server did not answer /v1/health');
      await new Promise((r) => setTimeout(r, 100));
    }
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
  }, 300_000);

  afterAll(async () => {
    await browser?.close();
    server?.kill('SIGTERM');
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  it('shows an account’s reported decisions as /v1/firewall/stats counts them, with the key kept in memory only', async () => {
    const now = Date.now();
    const line = (i: number, fields: Record<string, unknown>) => ({
      time: new Date(now - i * 60_000).toISOString(),
      ecosystem: 'npm',
      package: 'fw-clean',
      version: '1.0.0',
      decision: 'allow',
      reason: 'verdict ALLOW',
      verdict: 'ALLOW',
      policy: 'vigil-verdict',
      mode: 'fail-closed',
      request_id: `fw_browser${i}`,
      ...fields,
    });
    const decisions = [
      line(1, {}),
      line(2, {}),
      line(3, { package: 'fw-bad', decision: 'block', reason: 'verdict BLOCK', verdict: 'BLOCK' }),
      line(4, { package: 'fw-bad', version: null, decision: 'block', reason: 'every version is hidden (verdict BLOCK)', verdict: 'BLOCK' }),
      line(5, { package: 'fw-roll', version: null, decision: 'filter', reason: '1 of 2 versions hidden', verdict: null }),
    ];
    const reported = await fetch(`${base}/v1/firewall/decisions`, { method: 'POST', headers: { authorization: `Bearer ${paidKey}`, 'content-type': 'application/json' }, body: JSON.stringify({ decisions }) });
    expect(reported.status, await reported.clone().text()).toBe(200);
    const stats = ((await (await fetch(`${base}/v1/firewall/stats?days=30`, { headers: { authorization: `Bearer ${paidKey}` } })).json()) as { data: { totals: Record<string, number> } }).data;
    expect(stats.totals).toEqual({ allow: 2, block: 2, filter: 1 });

    const context = await browser.newContext({ baseURL: base, locale: 'en-US', timezoneId: 'America/New_York', viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    page.on('console', (m) => {
      if (m.type() === 'error' && !/status of 401/.test(m.text())) problems.push(m.text());
    });
    page.on('pageerror', (e) => problems.push(e.message));
    await page.goto('/firewall');
    const nav = page.getByRole('navigation', { name: 'Dashboard' }).getByRole('link', { name: 'Firewall' });
    await nav.waitFor();
    expect(await nav.getAttribute('aria-current')).toBe('page');
    await page.getByText('Enter an API key to see its account').waitFor();

    await page.getByLabel('API key (scope read)').fill('not a key');
    await page.getByRole('button', { name: 'Show' }).click();
    await page.getByRole('alert').getByText('Enter an API key of the form').waitFor();

    await page.getByLabel('API key (scope read)').fill(paidKey);
    await page.getByRole('button', { name: 'Show' }).click();
    await page.locator('main .stat').first().waitFor();
    const figures = await page.$$eval('main .stat', (nodes) => Object.fromEntries(nodes.map((n) => [n.querySelector('dt')!.textContent!.trim(), n.querySelector('.stat-value')!.textContent!.trim()])));
    expect(figures).toEqual({ Allowed: '2', Refused: '2', Filtered: '1' });
    const rows = async (name: string) => page.getByRole('region', { name }).locator('tbody tr').evaluateAll((trs) => trs.map((tr) => Array.from(tr.children, (td) => td.textContent!.trim())));
    expect(await rows('Most refused packages')).toEqual([['npm:fw-bad', '2', '0', '0']]);
    const refusals = await rows('Recent refusals');
    expect(refusals.map((r) => [r[1], r[2], r[3], r[4], r[5]])).toEqual([
      ['npm:fw-bad', '1.0.0', 'verdict BLOCK', 'BLOCK', 'fw_browser3'],
      ['npm:fw-bad', 'every version', 'every version is hidden (verdict BLOCK)', 'BLOCK', 'fw_browser4'],
    ]);
    expect((await rows('Decisions by reason')).map((r) => r.join(' | '))).toEqual(
      expect.arrayContaining(["allowed | Vigil's verdict | 2", "refused | Vigil's verdict | 1", 'refused | every version hidden | 1', 'filtered | versions hidden from metadata | 1']),
    );
    const byDay = await rows('Decisions by day');
    expect(byDay.reduce((sum, r) => sum + Number(r[1]) + Number(r[2]) + Number(r[3]), 0)).toBe(5);
    // The key stays out of the address and out of the browser's storage.
    expect(page.url()).toBe(`${base}/firewall`);
    expect(await page.evaluate(() => JSON.stringify({ ...localStorage }) + JSON.stringify({ ...sessionStorage }) + document.cookie)).not.toContain('vgl_');
    expect(await axeViolations(page)).toEqual([]);
    await page.screenshot({ path: join(ARTIFACTS, 'firewall.png'), fullPage: true });

    // The days selector is in the address; another account's key sees none of these decisions.
    await page.getByLabel('Days').selectOption('7');
    await expect.poll(() => page.url()).toBe(`${base}/firewall?days=7`);
    await page.getByLabel('API key (scope read)').fill(emptyKey);
    await page.getByRole('button', { name: 'Show' }).click();
    await page.getByText("No firewall decision was reported for this key's account").waitFor();
    // A refused key says so.
    await page.getByLabel('API key (scope read)').fill(`vgl_00000000_${'0'.repeat(48)}`);
    await page.getByRole('button', { name: 'Show' }).click();
    await page.getByText('The API key was refused').waitFor();
    await context.close();
    expect(problems).toEqual([]);
  }, 120_000);
});
