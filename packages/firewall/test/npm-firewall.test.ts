/**
 * The firewall in front of a real Verdaccio, deciding with a real Vigil server's verdicts, driven by
 * the real npm and pnpm (docs/firewall.md).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFirewall, type DecisionLogEntry, type Firewall, type FirewallOptions } from '../src/index.js';
import { VerdictSource, VigilUnavailable } from '../src/verdict-source.js';
import { project, serverBuilt, startNetwork, type Network } from './support/network.js';
import { writeFileSync } from 'node:fs';
import { npm, pip, pnpm, yarnBerry, yarnClassic } from './support/package-manager.js';

const u = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
const CLEAN = `fw-clean-${u}`;
const BAD = `fw-bad-${u}`;
const ROLL = `fw-roll-${u}`;
const NEW = `fw-new-${u}`;
const PY = `fwpy-roll-${u}`;
let wheels: Record<string, string>;

let net: Network;
const started: Firewall[] = [];

async function firewall(options: Partial<FirewallOptions> = {}): Promise<{ fw: Firewall; log: DecisionLogEntry[] }> {
  const log: DecisionLogEntry[] = [];
  const fw = await startFirewall({ npmUpstream: net.verdaccio.url, pypiUpstream: `${net.pypi.url}/simple`, vigilUrl: net.server.baseUrl, apiKey: net.server.paidKey, onDecision: (e) => log.push(e), ...options });
  started.push(fw);
  return { fw, log };
}

describe.skipIf(!serverBuilt)('the npm firewall with real npm, pnpm, Verdaccio and Vigil', () => {
  beforeAll(async () => {
    net = await startNetwork();
    await net.publish(CLEAN, '1.0.0');
    await net.publish(BAD, '1.0.0');
    await net.publish(ROLL, '1.0.0');
    await net.publish(ROLL, '1.1.0');
    await net.publish(NEW, '1.0.0');
    wheels = await net.publishPypi(PY, ['1.0.0', '1.1.0']);
    const wheel = (v: string) => `pkg:pypi/${PY}@${v}?file_name=${encodeURIComponent(wheels[v]!)}`;
    await net.judge({ [wheel('1.0.0')]: 'ALLOW', [wheel('1.1.0')]: 'BLOCK', [`npm:${CLEAN}@1.0.0`]: 'ALLOW', [`npm:${BAD}@1.0.0`]: 'BLOCK', [`npm:${ROLL}@1.0.0`]: 'ALLOW', [`npm:${ROLL}@1.1.0`]: 'BLOCK' });
  }, 660_000);
  afterAll(async () => {
    for (const fw of started) await fw.close();
    await net?.stop();
  });

  it('installs a clean package; the lockfile records the upstream integrity', async () => {
    const { fw, log } = await firewall();
    const dir = project(net.dir, 'clean');
    const run = await npm(['install', CLEAN], dir, fw.url);
    expect(run.code, run.stderr).toBe(0);
    const lock = JSON.parse(readFileSync(join(dir, 'package-lock.json'), 'utf8'));
    expect(lock.packages[`node_modules/${CLEAN}`]).toMatchObject({ version: '1.0.0', integrity: await net.integrity(CLEAN, '1.0.0'), resolved: `${fw.url}/${CLEAN}/-/${CLEAN}-1.0.0.tgz` });
    expect(log).toContainEqual(expect.objectContaining({ package: CLEAN, version: '1.0.0', decision: 'allow', reason: 'verdict ALLOW', verdict: 'ALLOW', request_id: expect.stringMatching(/^fw_/) }));
  });

  it('pkg@^1 with its newest version blocked resolves to the older allowed one', async () => {
    const { fw, log } = await firewall();
    const packument = (await (await fetch(`${fw.url}/${ROLL}`)).json()) as { 'dist-tags': Record<string, string>; versions: Record<string, { dist: { integrity: string; tarball: string } }> };
    expect(packument['dist-tags'].latest).toBe('1.0.0');
    expect(Object.keys(packument.versions)).toEqual(['1.0.0']);
    expect(packument.versions['1.0.0']!.dist.integrity).toBe(await net.integrity(ROLL, '1.0.0'));
    expect(log).toContainEqual(expect.objectContaining({ package: ROLL, version: null, decision: 'filter', hidden: [{ version: '1.1.0', reason: 'verdict BLOCK' }] }));

    const dir = project(net.dir, 'roll', { [ROLL]: '^1.0.0' });
    const run = await npm(['install'], dir, fw.url);
    expect(run.code, run.stderr).toBe(0);
    const lock = JSON.parse(readFileSync(join(dir, 'package-lock.json'), 'utf8'));
    expect(lock.packages[`node_modules/${ROLL}`]).toMatchObject({ version: '1.0.0', integrity: await net.integrity(ROLL, '1.0.0') });
  });

  it('a package whose every version is blocked fails npm install with Vigil’s message', async () => {
    const { fw, log } = await firewall();
    const run = await npm(['install', BAD], project(net.dir, 'bad'), fw.url);
    expect(run.code).not.toBe(0);
    expect(run.stderr).toMatch(new RegExp(`403 Forbidden - GET ${fw.url}/${BAD} - Vigil firewall refused ${BAD}: every version is hidden \\(verdict BLOCK\\)`));
    expect(run.stderr).toContain(`${net.server.baseUrl}/artifacts?purl=pkg%3Anpm%2F${BAD}%401.0.0`);
    // One line per refused packument (outsider F4), its verdict the 403 body's (F5).
    const lines = log.filter((e) => e.package === BAD);
    expect(new Set(lines.map((e) => e.request_id)).size).toBe(lines.length);
    expect(lines.every((e) => e.decision === 'block' && e.verdict === 'BLOCK')).toBe(true);
    const body = (await (await fetch(`${fw.url}/${BAD}`)).json()) as { verdict: string; request_id: string };
    expect(log.filter((e) => e.request_id === body.request_id)).toEqual([expect.objectContaining({ decision: 'block', verdict: body.verdict, hidden: [{ version: '1.0.0', reason: 'verdict BLOCK' }] })]);
  });

  it('a lockfile pinning a blocked version: the tarball is refused with a 403 npm prints', async () => {
    // The lockfile made straight from the upstream, as before the firewall was put in front.
    const dir = project(net.dir, 'pinned', { [ROLL]: '1.1.0' });
    expect((await npm(['install', '--package-lock-only'], dir, net.verdaccio.url)).code).toBe(0);
    const { fw, log } = await firewall();
    const run = await npm(['ci'], dir, fw.url, { npm_config_replace_registry_host: 'always' });
    expect(run.code).not.toBe(0);
    expect(run.stderr).toMatch(new RegExp(`403 Forbidden - GET ${fw.url}/${ROLL}/-/${ROLL}-1\\.1\\.0\\.tgz - Vigil firewall refused ${ROLL}@1\\.1\\.0: verdict BLOCK; risk 91; 1 finding \\(1 CRIT\\): install_script ×1\\. Details: `));
    const entry = log.find((e) => e.package === ROLL && e.version === '1.1.0')!;
    expect(entry).toMatchObject({ decision: 'block', reason: 'verdict BLOCK', verdict: 'BLOCK', policy: 'vigil-verdict', mode: 'fail-closed' });
    expect(run.stderr).toContain(`(request ${entry.request_id})`);
    const direct = await fetch(`${fw.url}/${ROLL}/-/${ROLL}-1.1.0.tgz`);
    expect(direct.status).toBe(403);
    expect(await direct.json()).toMatchObject({ package: ROLL, version: '1.1.0', purl: `pkg:npm/${ROLL}@1.1.0`, decision: 'block', verdict: 'BLOCK', risk_score: 91, findings: { total: 1, by_severity: { CRIT: 1 }, top_categories: [{ category: 'install_script', count: 1 }] } });
  });

  it('a lockfile whose tarball URL has a trailing slash is decided too (outsider F1)', async () => {
    const dir = project(net.dir, 'pinned-slash', { [ROLL]: '1.1.0' });
    expect((await npm(['install', '--package-lock-only'], dir, net.verdaccio.url)).code).toBe(0);
    const lockPath = join(dir, 'package-lock.json');
    const lock = readFileSync(lockPath, 'utf8');
    expect(lock).toContain(`${ROLL}-1.1.0.tgz"`);
    writeFileSync(lockPath, lock.replace(`${ROLL}-1.1.0.tgz"`, `${ROLL}-1.1.0.tgz/"`));
    const { fw, log } = await firewall();
    const run = await npm(['ci', '--ignore-scripts'], dir, fw.url, { npm_config_replace_registry_host: 'always' });
    expect(run.code).not.toBe(0);
    expect(run.stderr).toContain(`Vigil firewall refused ${ROLL}@1.1.0: verdict BLOCK`);
    expect(log).toContainEqual(expect.objectContaining({ package: ROLL, version: '1.1.0', decision: 'block', verdict: 'BLOCK' }));
    const slashed = await fetch(`${fw.url}/${ROLL}/-/${ROLL}-1.1.0.tgz/`);
    expect(slashed.status).toBe(403);
    // Paths of the package that are not its tarballs are refused, never fetched from the upstream.
    for (const path of [`/${ROLL}/-/other-1.1.0.tgz`, `/${ROLL}/-/rev/1/${ROLL}-1.1.0.tgz`]) expect((await fetch(`${fw.url}${path}`)).status, path).toBe(404);
  });

  it('an undecided version: fail-closed refuses, fail-open allows, wait refuses after its wait', async () => {
    const closed = await firewall({ mode: 'fail-closed' });
    const refused = await npm(['install', NEW], project(net.dir, 'new-closed'), closed.fw.url);
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toMatch(new RegExp(`Vigil firewall refused ${NEW}@1\\.0\\.0: no verdict yet \\(Vigil is (fetching|evaluating) it\\); mode fail-closed`));

    const open = await firewall({ mode: 'fail-open' });
    const allowed = await npm(['install', NEW], project(net.dir, 'new-open'), open.fw.url);
    expect(allowed.code, allowed.stderr).toBe(0);
    expect(open.log).toContainEqual(expect.objectContaining({ package: NEW, version: '1.0.0', decision: 'allow', reason: expect.stringMatching(/^no verdict yet .*; mode fail-open$/), verdict: null }));

    const waiting = await firewall({ mode: 'wait', waitSeconds: 2 });
    const started = Date.now();
    const timedOut = await npm(['install', NEW], project(net.dir, 'new-wait'), waiting.fw.url);
    expect(timedOut.code).not.toBe(0);
    expect(Date.now() - started).toBeGreaterThanOrEqual(2_000);
    expect(timedOut.stderr).toMatch(/; still so after waiting 2 s \(mode wait\)/);
  });

  it('wait: the install goes on once Vigil publishes the verdict', async () => {
    const waiting = await firewall({ mode: 'wait', waitSeconds: 120 });
    const install = npm(['install', NEW], project(net.dir, 'new-waited'), waiting.fw.url);
    await net.judge({ [`npm:${NEW}@1.0.0`]: 'ALLOW' });
    const run = await install;
    expect(run.code, run.stderr).toBe(0);
    expect(waiting.log).toContainEqual(expect.objectContaining({ package: NEW, version: '1.0.0', decision: 'allow', reason: 'verdict ALLOW' }));
  });

  it('Vigil unavailable: the mode applies and the log says so', async () => {
    const down = 'http://127.0.0.1:9'; // the discard port: nothing listens
    const closed = await firewall({ vigilUrl: down, vigilTimeoutMs: 2_000 });
    const refused = await npm(['install', CLEAN], project(net.dir, 'vigil-down-closed'), closed.fw.url);
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toMatch(new RegExp(`Vigil firewall refused ${CLEAN}@1\\.0\\.0: Vigil unavailable: .*; mode fail-closed`));
    const open = await firewall({ vigilUrl: down, vigilTimeoutMs: 2_000, mode: 'fail-open' });
    const allowed = await npm(['install', CLEAN], project(net.dir, 'vigil-down-open'), open.fw.url);
    expect(allowed.code, allowed.stderr).toBe(0);
    expect(open.log).toContainEqual(expect.objectContaining({ package: CLEAN, decision: 'allow', reason: expect.stringMatching(/^Vigil unavailable: .*; mode fail-open$/) }));
  });

  it('pnpm: resolves to the allowed version and fails on the blocked package', async () => {
    const { fw } = await firewall();
    const dir = project(net.dir, 'pnpm', { [ROLL]: '^1.0.0' });
    const run = await pnpm(['install'], dir, fw.url);
    expect(run.code, run.stdout + run.stderr).toBe(0);
    const lock = readFileSync(join(dir, 'pnpm-lock.yaml'), 'utf8');
    expect(lock).toContain(`${ROLL}@1.0.0:\n    resolution: {integrity: ${await net.integrity(ROLL, '1.0.0')}}`);
    const bad = await pnpm(['add', BAD], project(net.dir, 'pnpm-bad'), fw.url);
    expect(bad.code).not.toBe(0);
    // pnpm prints the status and the URL, not the body (docs/firewall.md "The 403").
    expect(bad.stdout + bad.stderr).toContain(`GET ${fw.url}/${BAD}: Forbidden - 403`);
    expect(bad.stdout + bad.stderr).toMatch(/ERR_PNPM_FETCH_403\s+GET /);
  });

  it('Yarn 1: resolves to the allowed version with the upstream integrity; the blocked package fails', async () => {
    const { fw } = await firewall();
    const dir = project(net.dir, 'yarn1', { [ROLL]: '^1.0.0' });
    const run = await yarnClassic(['install'], dir, fw.url);
    expect(run.code, run.stdout + run.stderr).toBe(0);
    const lock = readFileSync(join(dir, 'yarn.lock'), 'utf8');
    expect(lock).toContain(`${ROLL}@^1.0.0:\n  version "1.0.0"\n  resolved "${fw.url}/${ROLL}/-/${ROLL}-1.0.0.tgz#`);
    expect(lock).toContain(`integrity ${await net.integrity(ROLL, '1.0.0')}`);
    const bad = await yarnClassic(['add', BAD], project(net.dir, 'yarn1-bad'), fw.url);
    expect(bad.code).not.toBe(0);
    // Yarn 1 prints the body's `error`.
    expect(bad.stdout + bad.stderr).toContain(`error Error: ${fw.url}/${BAD}: Vigil firewall refused ${BAD}: every version is hidden (verdict BLOCK)`);
  });

  it('Yarn 4: resolves to the allowed version; the blocked package fails', async () => {
    const { fw } = await firewall();
    const dir = project(net.dir, 'yarn4', { [ROLL]: '^1.0.0' });
    writeFileSync(join(dir, 'yarn.lock'), '');
    const run = await yarnBerry(['install'], dir, fw.url);
    expect(run.code, run.stdout + run.stderr).toBe(0);
    expect(readFileSync(join(dir, 'yarn.lock'), 'utf8')).toContain(`resolution: "${ROLL}@npm:1.0.0"`);
    expect(JSON.parse(readFileSync(join(dir, 'node_modules', ROLL, 'package.json'), 'utf8')).version).toBe('1.0.0');
    const badDir = project(net.dir, 'yarn4-bad', { [BAD]: '^1.0.0' });
    writeFileSync(join(badDir, 'yarn.lock'), '');
    const bad = await yarnBerry(['install'], badDir, fw.url);
    expect(bad.code).not.toBe(0);
    expect(bad.stdout + bad.stderr).toContain('403');
  });

  it('pip: the simple page drops the blocked file, pip installs the allowed version, the blocked file is refused', async () => {
    const { fw, log } = await firewall();
    const index = `${fw.url}/pypi/simple/`;
    const page = (await (await fetch(`${index}${PY}/`, { headers: { accept: 'application/vnd.pypi.simple.v1+json' } })).json()) as { files: { filename: string; url: string; hashes: { sha256: string } }[]; versions: string[] };
    expect(page.files.map((f) => f.filename)).toEqual([wheels['1.0.0']]);
    expect(page.versions).toEqual(['1.0.0']);
    const upstreamPage = (await (await fetch(`${net.pypi.url}/simple/${PY}/`, { headers: { accept: 'application/vnd.pypi.simple.v1+json' } })).json()) as { files: { filename: string; hashes: { sha256: string } }[] };
    expect(page.files[0]!.hashes.sha256).toBe(upstreamPage.files.find((f) => f.filename === wheels['1.0.0'])!.hashes.sha256);
    expect(page.files[0]!.url).toBe(`${fw.url}/pypi/files/${PY}/${wheels['1.0.0']}`);
    const html = await (await fetch(`${index}${PY}/`)).text();
    expect(html).toContain(`<a href="${fw.url}/pypi/files/${PY}/${wheels['1.0.0']}#sha256=${page.files[0]!.hashes.sha256}">${wheels['1.0.0']}</a>`);
    expect(html).not.toContain(wheels['1.1.0']);

    const run = await pip(['install', '--no-deps', `${PY}<2`], net.dir, index);
    expect(run.code, run.stdout + run.stderr).toBe(0);
    expect(run.stdout).toContain(`Successfully installed ${PY}-1.0.0`);
    expect(log).toContainEqual(expect.objectContaining({ ecosystem: 'pypi', package: PY, version: '1.0.0', decision: 'allow', reason: 'verdict ALLOW' }));
    expect(log).toContainEqual(expect.objectContaining({ ecosystem: 'pypi', package: PY, decision: 'filter', hidden: [{ version: wheels['1.1.0'], reason: 'verdict BLOCK' }] }));
    const pinned = await pip(['install', '--no-deps', `${PY}==1.1.0`], net.dir, index);
    expect(pinned.code).not.toBe(0);
    expect(pinned.stderr).toContain(`No matching distribution found for ${PY}==1.1.0`);
    const direct = await fetch(`${fw.url}/pypi/files/${PY}/${wheels['1.1.0']}`);
    expect(direct.status).toBe(403);
    expect(await direct.json()).toMatchObject({ package: PY, version: '1.1.0', verdict: 'BLOCK', purl: `pkg:pypi/${PY}@1.1.0?file_name=${wheels['1.1.0']}` });
  });

  it('a named policy decides downloads: its block refuses a package Vigil allows', async () => {
    await net.vigil.policies.create({ name: `no-clean-${u}`, rules: [{ name: 'not-clean', expression: `pkg.name != "${CLEAN}"`, action: 'block' }] });
    const { fw, log } = await firewall({ policy: `no-clean-${u}` });
    const refused = await npm(['install', CLEAN], project(net.dir, 'policy-clean'), fw.url);
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain(`Vigil firewall refused ${CLEAN}@1.0.0: policy no-clean-${u}: block (not-clean)`);
    const allowed = await npm(['install', `${ROLL}@^1`], project(net.dir, 'policy-roll'), fw.url);
    expect(allowed.code, allowed.stderr).toBe(0);
    expect(log).toContainEqual(expect.objectContaining({ package: ROLL, version: '1.0.0', decision: 'allow', reason: `policy no-clean-${u}: allow`, policy: `no-clean-${u}` }));
    await expect(startFirewall({ npmUpstream: net.verdaccio.url, vigilUrl: net.server.baseUrl, apiKey: net.server.paidKey, policy: 'no spaces' })).rejects.toThrow(/^policy: expected a policy name/);
  });

  it('batches: a packument costs at most one call, many references one call per 100, answers are reused', async () => {
    const { fw } = await firewall();
    const before = fw.vigilCalls();
    await Promise.all([CLEAN, BAD, ROLL].map((name) => fetch(`${fw.url}/${name}`).then((r) => r.arrayBuffer())));
    const first = fw.vigilCalls() - before;
    expect(first).toBeGreaterThanOrEqual(1);
    expect(first).toBeLessThanOrEqual(3);
    // Decided answers are reused within the cache time: no call at all.
    await Promise.all([CLEAN, ROLL].map((name) => fetch(`${fw.url}/${name}`).then((r) => r.arrayBuffer())));
    expect(fw.vigilCalls() - before).toBe(first);

    // 250 references asked at once (a big install's tarballs): three calls, all answered.
    const source = new VerdictSource({ vigilUrl: net.server.baseUrl, apiKey: net.server.paidKey, timeoutMs: 10_000 }, 30_000, Date.now);
    const references = Array.from({ length: 250 }, (_, i) => `npm:fw-batch-${u}@1.0.${i}`);
    const answers = await source.lookup(references);
    expect(source.calls).toBe(3);
    expect(answers.map((a) => (a instanceof VigilUnavailable ? 'unavailable' : a.state))).toEqual(references.map(() => 'pending'));
  });
});
