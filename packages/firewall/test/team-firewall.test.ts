/**
 * The team firewall (`vigil-server firewall`, docs/firewall.md "Per-caller keys") and several
 * upstreams (`npmScopes`, several `pypiUpstream`s), with the real npm and pip, two Verdaccios, two
 * PyPI indexes and a real Vigil server whose accounts read back their decision counts.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Vigil } from '@vigil/client';
import { startFirewall, type DecisionLogEntry, type Firewall } from '../src/index.js';
import { project, serverBuilt, startNetwork, type Network } from './support/network.js';
import { npm, pip } from './support/package-manager.js';
import { freePort, SERVER_BIN } from '../../../test-support/vigil-server.js';
import { startPypiStandIn, writePypiProject, type PypiStandIn } from '../../registries/src/test-support/pypi-stand-in.js';
import { startVerdaccio, writePackage, type Verdaccio } from '../../registries/src/test-support/verdaccio.js';
import { zipOf } from '../../registries/src/test-support/zip.js';

const u = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
const CLEAN = `fwt-clean-${u}`;
const BAD = `fwt-bad-${u}`;
const PY = `fwtpy-${u}`;
const SCOPED = `@corp/fwt-lib-${u}`;
const CORP_PY = `corp-py-${u}`;

let net: Network;
let privateNpm: Verdaccio;
let privatePypi: PypiStandIn;
const privatePypiRoot = mkdtempSync(join(tmpdir(), 'vigil-fw-private-pypi-'));
let globexKey: string;
let wheels: Record<string, string>;

/** A pure-Python wheel of `name@version` whose module holds `marker`. */
function wheel(name: string, version: string, marker: string): Record<string, Buffer> {
  const module = name.replace(/[-.]/g, '_');
  const info = `${module}-${version}.dist-info`;
  return {
    [`${module}-${version}-py3-none-any.whl`]: zipOf({
      [`${module}/__init__.py`]: `WHERE = ${JSON.stringify(marker)}\n`,
      [`${info}/METADATA`]: `Metadata-Version: 2.1\nName: ${name}\nVersion: ${version}\n\nA package of the firewall's tests.\n`,
      [`${info}/WHEEL`]: 'Wheel-Version: 1.0\nGenerator: vigil-tests\nRoot-Is-Purelib: true\nTag: py3-none-any\n',
      [`${info}/RECORD`]: `${module}/__init__.py,,\n${info}/METADATA,,\n${info}/WHEEL,,\n${info}/RECORD,,\n`,
    }),
  };
}

interface TeamFirewall {
  url: string;
  log: DecisionLogEntry[];
  stderr: () => string;
  stop: () => Promise<number | null>;
}

/** Runs the built `vigil-server firewall` with `args`; resolves once it listens. */
async function teamFirewall(args: string[], env: Record<string, string> = {}): Promise<TeamFirewall> {
  const port = await freePort();
  const child: ChildProcess = spawn(process.execPath, [SERVER_BIN, 'firewall', '--port', String(port), '--vigil-url', net.server.baseUrl, '--npm-upstream', net.verdaccio.url, '--pypi-upstream', `${net.pypi.url}/simple`, ...args], {
    env: { PATH: process.env.PATH ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const log: DecisionLogEntry[] = [];
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (c: Buffer) => {
    stdout += c.toString();
    const lines = stdout.split('\n');
    stdout = lines.pop()!;
    for (const line of lines) log.push(JSON.parse(line) as DecisionLogEntry);
  });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  await new Promise<void>((resolve, reject) => {
    child.stderr!.on('data', (c: Buffer) => {
      stderr += c.toString();
      if (stderr.includes('firewall listening on')) resolve();
    });
    void exited.then((code) => reject(new Error(`vigil-server firewall exited ${code}: ${stderr}`)));
  });
  return {
    url: `http://127.0.0.1:${port}`,
    log,
    stderr: () => stderr,
    stop: async () => {
      child.kill('SIGTERM');
      return exited;
    },
  };
}

/** A project whose .npmrc gives `registry` the token `key`, as a team member configures npm. */
function projectWithToken(name: string, registry: string, key: string | null, dependencies: Record<string, string> = {}): string {
  const dir = project(net.dir, name, dependencies);
  if (key !== null) writeFileSync(join(dir, '.npmrc'), `//${new URL(registry).host}/:_authToken=${key}\n`);
  return dir;
}

describe.skipIf(!serverBuilt)('the team firewall and several upstreams', () => {
  beforeAll(async () => {
    net = await startNetwork();
    privateNpm = await startVerdaccio();
    privatePypi = await startPypiStandIn(privatePypiRoot);
    await net.publish(CLEAN, '1.0.0');
    await net.publish(BAD, '1.0.0');
    wheels = await net.publishPypi(PY, ['1.0.0', '1.1.0']);
    const wheelRef = (v: string) => `pkg:pypi/${PY}@${v}?file_name=${encodeURIComponent(wheels[v]!)}`;
    await net.judge({ [`npm:${CLEAN}@1.0.0`]: 'ALLOW', [`npm:${BAD}@1.0.0`]: 'BLOCK', [wheelRef('1.0.0')]: 'ALLOW', [wheelRef('1.1.0')]: 'BLOCK' });
    // The scoped package: the team's own on the private registry, and a namesake on the public one.
    await privateNpm.publish(await writePackage(join(net.dir, 'private-src'), { name: SCOPED, version: '1.0.0', license: 'MIT' }, { 'index.js': 'module.exports = "private";\n' }));
    await net.verdaccio.publish(await writePackage(join(net.dir, 'public-namesake'), { name: SCOPED, version: '1.0.0', license: 'MIT' }, { 'index.js': 'module.exports = "public namesake";\n' }));
    await writePypiProject(privatePypiRoot, { name: CORP_PY, files: { '1.0.0': wheel(CORP_PY, '1.0.0', 'private') } });
    globexKey = (await net.server.command(['keys', 'create', '--org', `globex-${u}`, '--plan', 'paid', '--scopes', 'read,verify,policies'])).split('\n').find((l) => l.startsWith('vgl_'))!.trim();
  }, 660_000);
  afterAll(async () => {
    await privatePypi?.close();
    await privateNpm?.stop();
    await net?.stop();
  });

  it('vigil-server firewall decides each caller with its own key, refuses wrong keys in words npm prints, and counts per account', async () => {
    const fw = await teamFirewall([]);
    try {
      const acme = new Vigil({ baseUrl: net.server.baseUrl, apiKey: net.server.paidKey });
      const acmeId = (await acme.account.get()).account.id;

      const clean = await npm(['install', CLEAN], projectWithToken('team-clean', fw.url, net.server.paidKey), fw.url);
      expect(clean.code, clean.stderr).toBe(0);
      const bad = await npm(['install', BAD], projectWithToken('team-bad', fw.url, net.server.paidKey), fw.url);
      expect(bad.code).not.toBe(0);
      expect(bad.stderr).toContain(`Vigil firewall refused ${BAD}: every version is hidden (verdict BLOCK)`);
      expect(fw.log.filter((e) => e.package === CLEAN || e.package === BAD).every((e) => e.caller === acmeId)).toBe(true);

      const wrong = await npm(['install', CLEAN], projectWithToken('team-wrong', fw.url, `vgl_00000000_${'0'.repeat(48)}`), fw.url);
      expect(wrong.code).not.toBe(0);
      expect(wrong.stderr).toMatch(/401 Unauthorized - GET http:\/\/127\.0\.0\.1:\d+\/fwt-clean-\S+ - Vigil firewall: Vigil refused the key: invalid or revoked api key \(request fw_/);
      const malformed = await npm(['install', CLEAN], projectWithToken('team-malformed', fw.url, 'vgl_not_a_key'), fw.url);
      expect(malformed.stderr).toMatch(/401 Unauthorized - GET \S+ - Vigil firewall: not a Vigil API key \(expected vgl_<8 hex>_<48 hex>\)/);
      const free = await npm(['install', CLEAN], projectWithToken('team-free', fw.url, net.server.freeKey), fw.url);
      expect(free.code).not.toBe(0);
      expect(free.stderr).toMatch(/403 Forbidden - GET \S+ - Vigil firewall: the key's account bob is on the free plan; the firewall needs a paid plan/);
      const anonymous = await npm(['install', CLEAN], projectWithToken('team-anonymous', fw.url, null), fw.url);
      expect(anonymous.code).not.toBe(0);
      expect(anonymous.stderr).toMatch(/401 Unauthorized - GET \S+ - Vigil firewall: this firewall needs your Vigil API key/);
      // The caller's key never reaches the upstream, and a request without one learns nothing from it.
      expect((await fetch(`${fw.url}/-/ping`)).status).toBe(401);

      // pip and uv send the key as the password of the index URL.
      const index = `http://key:${net.server.paidKey}@${new URL(fw.url).host}/pypi/simple/`;
      const installed = await pip(['install', '--no-deps', PY], net.dir, index);
      expect(installed.code, installed.stderr).toBe(0);
      expect(installed.stdout).toContain(`Successfully installed ${PY}-1.0.0`);
      const pinned = await pip(['install', '--no-deps', `${PY}==1.1.0`], net.dir, index);
      expect(pinned.code).not.toBe(0);
      const wrongPip = await pip(['install', '--no-deps', PY], net.dir, `http://key:vgl_00000000_${'0'.repeat(48)}@${new URL(fw.url).host}/pypi/simple/`);
      // pip does not print the 401 of an index page it cannot read: the project just has no version.
      expect(wrongPip.code).not.toBe(0);
      expect(wrongPip.stderr).toContain(`No matching distribution found for ${PY}`);
      expect(fw.log.some((e) => e.package === PY && e.caller !== acmeId)).toBe(false);

      expect(await fw.stop()).toBe(0);
      // Reported with acme's key, counted for acme only.
      const stats = await acme.firewall.stats({ days: 1 });
      expect(stats.packages).toContainEqual({ ecosystem: 'npm', package: BAD, block: 1, allow: 0, filter: 0 });
      expect(stats.recent_refusals).toContainEqual(expect.objectContaining({ package: BAD, reason: 'every version is hidden (verdict BLOCK)', reason_kind: 'hidden', verdict: 'BLOCK' }));
      expect(stats.totals.allow).toBeGreaterThanOrEqual(2);
      expect(stats.reasons).toContainEqual(expect.objectContaining({ decision: 'filter', reason_kind: 'filtered' }));
      const globex = await new Vigil({ baseUrl: net.server.baseUrl, apiKey: globexKey }).firewall.stats();
      expect(globex.totals).toEqual({ allow: 0, block: 0, filter: 0 });
    } finally {
      await fw.stop();
    }
  });

  it('with --policy, each caller is decided by its own organization’s policy of that name; anonymous callers by VIGIL_FIREWALL_ANONYMOUS_KEY', async () => {
    const policy = `team-${u}`;
    await net.vigil.policies.create({ name: policy, rules: [{ name: 'not-clean', expression: `pkg.name != "${CLEAN}"`, action: 'block' }] });
    await new Vigil({ baseUrl: net.server.baseUrl, apiKey: globexKey }).policies.create({ name: policy, rules: [{ name: 'anything', expression: 'true', action: 'block' }] });
    const fw = await teamFirewall(['--policy', policy], { VIGIL_FIREWALL_ANONYMOUS_KEY: globexKey });
    try {
      const acme = await npm(['install', CLEAN], projectWithToken('policy-acme', fw.url, net.server.paidKey), fw.url);
      expect(acme.code).not.toBe(0);
      expect(acme.stderr).toContain(`Vigil firewall refused ${CLEAN}@1.0.0: policy ${policy}: block (not-clean)`);
      const globex = await npm(['install', CLEAN], projectWithToken('policy-globex', fw.url, globexKey), fw.url);
      expect(globex.code, globex.stderr).toBe(0);
      const anonymous = await npm(['install', CLEAN], projectWithToken('policy-anonymous', fw.url, null), fw.url);
      expect(anonymous.code, anonymous.stderr).toBe(0);
      expect(fw.log).toContainEqual(expect.objectContaining({ package: CLEAN, version: '1.0.0', decision: 'allow', reason: `policy ${policy}: allow`, caller: 'anonymous' }));
      expect(fw.stderr()).toContain('callers without a key: decided with VIGIL_FIREWALL_ANONYMOUS_KEY');
      // Outsider M2: a header the firewall cannot read is refused, never decided with the anonymous key.
      const decided = fw.log.length;
      for (const authorization of [`token ${globexKey}`, 'Bearer ', `Basic ${Buffer.from(':').toString('base64')}`, 'Negotiate abc']) {
        const answer = await fetch(`${fw.url}/${CLEAN}/-/${CLEAN}-1.0.0.tgz`, { headers: { authorization } });
        expect(answer.status, authorization).toBe(401);
        expect(((await answer.json()) as { error: string }).error).toMatch(
          /^Vigil firewall: an Authorization header the firewall cannot read \(expected Bearer <key>, or Basic with the key as the password or the user name\) \(request fw_/,
        );
      }
      expect(fw.log).toHaveLength(decided);
    } finally {
      await fw.stop();
    }
  });

  it('reads a scope from its own registry and PyPI projects from the first index that has them', async () => {
    const log: DecisionLogEntry[] = [];
    const fw: Firewall = await startFirewall({
      npmUpstream: net.verdaccio.url,
      npmScopes: { '@corp': privateNpm.url },
      pypiUpstream: [`${privatePypi.url}/simple`, `${net.pypi.url}/simple`],
      vigilUrl: net.server.baseUrl,
      apiKey: net.server.paidKey,
      // Vigil fetches from the public registry only: the private packages are undecided, let through.
      mode: 'fail-open',
      onDecision: (e) => log.push(e),
    });
    try {
      const integrity = async (registry: string) =>
        ((await (await fetch(`${registry}/${SCOPED.replace('/', '%2f')}`)).json()) as { versions: Record<string, { dist: { integrity: string } }> }).versions['1.0.0']!.dist.integrity;
      const privateIntegrity = await integrity(privateNpm.url);
      expect(privateIntegrity).not.toBe(await integrity(net.verdaccio.url));
      const dir = project(net.dir, 'scoped', { [SCOPED]: '1.0.0', [CLEAN]: '1.0.0' });
      const run = await npm(['install'], dir, fw.url);
      expect(run.code, run.stderr).toBe(0);
      const lock = JSON.parse(readFileSync(join(dir, 'package-lock.json'), 'utf8'));
      expect(lock.packages[`node_modules/${SCOPED}`]).toMatchObject({ integrity: privateIntegrity });
      expect(readFileSync(join(dir, 'node_modules', SCOPED, 'index.js'), 'utf8')).toContain('"private"');
      expect(lock.packages[`node_modules/${CLEAN}`]).toMatchObject({ integrity: await net.integrity(CLEAN, '1.0.0') });
      // Outsider M1: the scope in upper case would be fetched from @corp's registry but decided as another purl: refused.
      const decided = log.length;
      const upper = await fetch(`${fw.url}/${SCOPED.replace('@corp/', '@Corp%2F')}/-/${SCOPED.split('/')[1]}-1.0.0.tgz`);
      expect(upper.status).toBe(404);
      expect(((await upper.json()) as { error: string }).error).toContain('is a scoped name with upper case (npm scoped names are lower case)');
      expect(log).toHaveLength(decided);

      const index = `${fw.url}/pypi/simple/`;
      const corp = await pip(['install', '--no-deps', CORP_PY], net.dir, index);
      expect(corp.code, corp.stderr).toBe(0);
      expect(corp.stdout).toContain(`Successfully installed ${CORP_PY}-1.0.0`);
      // Not on the first index: the second one serves it, still filtered by its verdicts.
      const second = await pip(['install', '--no-deps', PY], net.dir, index);
      expect(second.code, second.stderr).toBe(0);
      expect(second.stdout).toContain(`Successfully installed ${PY}-1.0.0`);
      expect(log).toContainEqual(expect.objectContaining({ ecosystem: 'pypi', package: PY, decision: 'filter', hidden: [{ version: wheels['1.1.0'], reason: 'verdict BLOCK' }] }));
    } finally {
      await fw.close();
    }
  });
});
