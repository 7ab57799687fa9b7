/**
 * `vigil firewall` and the wrappers `vigil npm` / `vigil pnpm` (docs/firewall.md), the built command
 * run as a user runs it, against a real Verdaccio and a real Vigil server whose verdicts the
 * network published (packages/firewall/test/support/network.ts).
 */
import { execFileSync, spawn } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { project, serverBuilt, startNetwork, type Network } from '../../firewall/test/support/network.js';
import { CLI_BIN, type CliResult } from './support/cli.js';

const u = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
const ROLL = `cli-fw-roll-${u}`;
const BAD = `cli-fw-bad-${u}`;
const PY = `cli-fwpy-${u}`;
let wheels: Record<string, string>;
let net: Network;
let bin: string;

function npmEnv(): Record<string, string> {
  return { npm_config_cache: mkdtempSync(join(tmpdir(), 'vigil-cli-fw-npm-')), npm_config_fetch_retries: '0', npm_config_audit: 'false', npm_config_fund: 'false', npm_config_update_notifier: 'false' };
}

/** `vigil …` in `cwd` with a clean environment: the server's address and key, the upstream, and a pnpm on PATH. */
function vigil(args: string[], cwd: string, env: Record<string, string> = {}): { child: ReturnType<typeof spawn>; out: { stdout: string; stderr: string }; exited: Promise<CliResult> } {
  const child = spawn(process.execPath, [CLI_BIN, ...args], {
    cwd,
    env: { PATH: `${bin}:${process.env.PATH ?? ''}`, HOME: mkdtempSync(join(tmpdir(), 'vigil-cli-fw-home-')), VIGIL_BASE_URL: net.server.baseUrl, VIGIL_API_TOKEN: net.server.paidKey, VIGIL_FIREWALL_NPM_UPSTREAM: net.verdaccio.url, VIGIL_FIREWALL_PYPI_UPSTREAM: `${net.pypi.url}/simple`, PIP_CONFIG_FILE: '/dev/null', ...npmEnv(), ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const out = { stdout: '', stderr: '' };
  child.stdout!.on('data', (c: Buffer) => (out.stdout += c.toString()));
  child.stderr!.on('data', (c: Buffer) => (out.stderr += c.toString()));
  const exited = new Promise<CliResult>((resolve) => child.on('close', (code) => resolve({ code, ...out })));
  return { child, out, exited };
}

describe.skipIf(!serverBuilt)('vigil firewall, vigil npm and vigil pnpm', () => {
  beforeAll(async () => {
    net = await startNetwork();
    // pnpm as a user has it on PATH: the workspace's pnpm, from npx's cache.
    bin = mkdtempSync(join(tmpdir(), 'vigil-cli-fw-bin-'));
    const located = await new Promise<string>((resolve, reject) => {
      const p = spawn('npx', ['-y', 'pnpm@10.34.8', '--version'], { stdio: 'ignore' });
      p.on('close', (code) => (code === 0 ? resolve('ok') : reject(new Error(`npx pnpm exited ${code}`))));
    });
    expect(located).toBe('ok');
    const pnpmScript = await new Promise<string>((resolve) => {
      const p = spawn('sh', ['-c', 'ls -d "$HOME"/.npm/_npx/*/node_modules/pnpm/bin/pnpm.cjs | head -1'], { stdio: ['ignore', 'pipe', 'ignore'] });
      let s = '';
      p.stdout.on('data', (c: Buffer) => (s += c.toString()));
      p.on('close', () => resolve(s.trim()));
    });
    writeFileSync(join(bin, 'pnpm'), `#!/bin/sh\nexec "${process.execPath}" "${pnpmScript}" "$@"\n`);
    chmodSync(join(bin, 'pnpm'), 0o755);
    // pip as a user has it: the machine's Python (its real executable: a version manager's shim reads HOME, which each run replaces).
    const python = execFileSync('python3', ['-c', 'import sys; print(sys.executable)'], { encoding: 'utf8' }).trim();
    writeFileSync(join(bin, 'pip'), `#!/bin/sh\nexec "${python}" -m pip "$@"\n`);
    chmodSync(join(bin, 'pip'), 0o755);
    // Yarn 1 as a user has it on PATH: 1.22.22 from npx's cache.
    execFileSync('npx', ['-y', 'yarn@1.22.22', '--version'], { stdio: 'ignore' });
    const yarnScript = execFileSync('sh', ['-c', 'grep -l \'"version": "1.22.22"\' "$HOME"/.npm/_npx/*/node_modules/yarn/package.json | head -1'], { encoding: 'utf8' }).trim().replace(/package\.json$/, 'bin/yarn.js');
    writeFileSync(join(bin, 'yarn'), `#!/bin/sh\nexec "${process.execPath}" "${yarnScript}" "$@"\n`);
    chmodSync(join(bin, 'yarn'), 0o755);
    await net.publish(ROLL, '1.0.0');
    await net.publish(ROLL, '1.1.0');
    await net.publish(BAD, '1.0.0');
    wheels = await net.publishPypi(PY, ['1.0.0', '1.1.0']);
    const wheel = (v: string) => `pkg:pypi/${PY}@${v}?file_name=${encodeURIComponent(wheels[v]!)}`;
    await net.judge({ [wheel('1.0.0')]: 'ALLOW', [wheel('1.1.0')]: 'BLOCK', [`npm:${ROLL}@1.0.0`]: 'ALLOW', [`npm:${ROLL}@1.1.0`]: 'BLOCK', [`npm:${BAD}@1.0.0`]: 'BLOCK' });
  }, 660_000);
  afterAll(async () => {
    await net?.stop();
  });

  it('vigil npm install: the allowed version, the upstream integrity, a lockfile without the private port', async () => {
    const dir = project(net.dir, 'cli-npm', { [ROLL]: '^1.0.0' });
    const run = await vigil(['npm', 'install'], dir).exited;
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toMatch(/^vigil: npm through the Vigil firewall at http:\/\/127\.0\.0\.1:\d+ \(upstream http:\/\/127\.0\.0\.1:\d+\)$/m);
    const lines = run.stderr.split('\n').filter((l) => l.startsWith('vigil: firewall: ')).map((l) => JSON.parse(l.slice('vigil: firewall: '.length)) as Record<string, unknown>);
    expect(lines).toContainEqual(expect.objectContaining({ package: ROLL, decision: 'filter', hidden: [{ version: '1.1.0', reason: 'verdict BLOCK' }] }));
    expect(lines).toContainEqual(expect.objectContaining({ package: ROLL, version: '1.0.0', decision: 'allow', reason: 'verdict ALLOW' }));
    const lock = JSON.parse(readFileSync(join(dir, 'package-lock.json'), 'utf8'));
    expect(lock.packages[`node_modules/${ROLL}`]).toEqual({ version: '1.0.0', resolved: `${net.verdaccio.url}/${ROLL}/-/${ROLL}-1.0.0.tgz`, integrity: await net.integrity(ROLL, '1.0.0'), license: 'MIT' });
  });

  it('vigil npm install of a blocked package: npm’s exit status, Vigil’s message; arguments reach npm untouched', async () => {
    const dir = project(net.dir, 'cli-npm-bad');
    const run = await vigil(['npm', 'install', BAD, '--json'], dir).exited;
    expect(run.code).toBe(1);
    expect(run.stdout + run.stderr).toContain(`Vigil firewall refused ${BAD}: every version is hidden (verdict BLOCK)`);
    // --json went to npm (its error as JSON on stdout), not to vigil.
    expect(JSON.parse(run.stdout)).toMatchObject({ error: { code: 'E403' } });
    writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'x', version: '1.0.0', scripts: { fail: 'exit 7' } }));
    expect((await vigil(['npm', 'run', 'fail'], dir).exited).code).toBe(7);
  });

  it('vigil yarn (Yarn 1): a yarn.lock at the upstream is installed through the firewall, a pinned BLOCK version refused (outsider F2)', async () => {
    const decisions = (stderr: string) => stderr.split('\n').filter((l) => l.startsWith('vigil: firewall: ')).map((l) => JSON.parse(l.slice('vigil: firewall: '.length)) as Record<string, unknown>);
    const yarnEnv = () => ({ YARN_CACHE_FOLDER: mkdtempSync(join(tmpdir(), 'vigil-cli-fw-yarn1-')) });
    const dir = project(net.dir, 'cli-yarn1', { [ROLL]: '^1.0.0' });
    const first = await vigil(['yarn', 'install', '--ignore-scripts', '--non-interactive'], dir, yarnEnv()).exited;
    expect(first.code, first.stdout + first.stderr).toBe(0);
    const lock = readFileSync(join(dir, 'yarn.lock'), 'utf8');
    expect(lock).toContain(`resolved "${net.verdaccio.url}/${ROLL}/-/${ROLL}-1.0.0.tgz#`);
    // A second, locked install with an empty cache: the tarball is decided again, not fetched from the upstream directly.
    const again = await vigil(['yarn', 'install', '--frozen-lockfile', '--ignore-scripts', '--non-interactive'], dir, yarnEnv()).exited;
    expect(again.code, again.stdout + again.stderr).toBe(0);
    expect(decisions(again.stderr)).toContainEqual(expect.objectContaining({ package: ROLL, version: '1.0.0', decision: 'allow' }));
    expect(readFileSync(join(dir, 'yarn.lock'), 'utf8')).toBe(lock);

    // A yarn.lock pinning the BLOCK version at the upstream's URL (written by a plain yarn straight at the upstream).
    const pinned = project(net.dir, 'cli-yarn1-pinned', { [ROLL]: '1.1.0' });
    const direct = spawn(join(bin, 'yarn'), ['install', '--ignore-scripts', '--non-interactive', `--registry=${net.verdaccio.url}/`], { cwd: pinned, env: { ...process.env, ...yarnEnv() }, stdio: 'ignore' });
    expect(await new Promise((r) => direct.on('close', r))).toBe(0);
    const pinnedLock = readFileSync(join(pinned, 'yarn.lock'), 'utf8');
    expect(pinnedLock).toContain(`resolved "${net.verdaccio.url}/${ROLL}/-/${ROLL}-1.1.0.tgz#`);
    execFileSync('rm', ['-rf', join(pinned, 'node_modules')]);
    const refused = await vigil(['yarn', 'install', '--frozen-lockfile', '--ignore-scripts', '--non-interactive'], pinned, yarnEnv()).exited;
    expect(refused.code).not.toBe(0);
    // Yarn 1 prints a refused tarball's status, not its body; the reason is in the decision log.
    expect(refused.stdout + refused.stderr).toMatch(new RegExp(`error Error: http://127\\.0\\.0\\.1:\\d+/${ROLL}/-/${ROLL}-1\\.1\\.0\\.tgz: Request failed "403 Forbidden"`));
    expect(decisions(refused.stderr)).toContainEqual(expect.objectContaining({ package: ROLL, version: '1.1.0', decision: 'block', verdict: 'BLOCK' }));
    expect(readFileSync(join(pinned, 'yarn.lock'), 'utf8')).toBe(pinnedLock);
  });

  it('vigil pnpm add: the allowed version; the blocked package fails', async () => {
    const dir = project(net.dir, 'cli-pnpm');
    const store = [`--store-dir=${mkdtempSync(join(tmpdir(), 'vigil-cli-fw-store-'))}`];
    const run = await vigil(['pnpm', 'add', `${ROLL}@^1`, ...store], dir).exited;
    expect(run.code, run.stdout + run.stderr).toBe(0);
    expect(readFileSync(join(dir, 'pnpm-lock.yaml'), 'utf8')).toContain(`${ROLL}@1.0.0:\n    resolution: {integrity: ${await net.integrity(ROLL, '1.0.0')}}`);
    const bad = await vigil(['pnpm', 'add', BAD, ...store], dir).exited;
    expect(bad.code).toBe(1);
    expect(bad.stdout).toContain('ERR_PNPM_FETCH_403');
  });

  it('vigil pip install: the allowed version; the blocked one is not offered', async () => {
    const dir = mkdtempSync(join(net.dir, 'cli-pip-'));
    const target = ['--target', join(dir, 'site'), '--no-deps', '--no-cache-dir', '--disable-pip-version-check'];
    const run = await vigil(['pip', 'install', `${PY}<2`, ...target], dir).exited;
    expect(run.code, run.stdout + run.stderr).toBe(0);
    expect(run.stderr).toMatch(new RegExp(`^vigil: pip through the Vigil firewall at http://127\\.0\\.0\\.1:\\d+ \\(upstream ${net.pypi.url}/simple\\)$`, 'm'));
    expect(run.stdout).toContain(`Successfully installed ${PY}-1.0.0`);
    const pinned = await vigil(['pip', 'install', `${PY}==1.1.0`, ...target], dir).exited;
    expect(pinned.code).toBe(1);
    expect(pinned.stderr).toContain(`No matching distribution found for ${PY}==1.1.0`);
  });

  it('usage errors: no token, a bad setting (exit 2, nothing run)', async () => {
    const dir = project(net.dir, 'cli-usage');
    const noToken = await vigil(['npm', 'install'], dir, { VIGIL_API_TOKEN: '' }).exited;
    expect(noToken).toMatchObject({ code: 2, stderr: expect.stringMatching(/^vigil: the firewall needs an API token/m) });
    const badMode = await vigil(['npm', 'install'], dir, { VIGIL_FIREWALL_MODE: 'maybe' }).exited;
    expect(badMode).toMatchObject({ code: 2, stderr: expect.stringMatching(/^vigil: VIGIL_FIREWALL_MODE: expected one of fail-open, fail-closed, wait, got "maybe"$/m) });
    const badFlag = await vigil(['firewall', '--wait-seconds', 'soon'], dir).exited;
    expect(badFlag).toMatchObject({ code: 2, stderr: expect.stringMatching(/^vigil: --wait-seconds: expected a number from 0 to 3600, got "soon"$/m) });
    // Outsider F7/F8: whitespace only is unset (npm runs: its --version, exit 0); a bad log file is named by its variable.
    const blank = await vigil(['npm', '--version'], dir, { VIGIL_FIREWALL_WAIT_SECONDS: ' ', VIGIL_FIREWALL_MODE: '\t' }).exited;
    expect(blank.code, blank.stderr).toBe(0);
    const badLog = await vigil(['npm', '--version'], dir, { VIGIL_FIREWALL_LOG: '/nonexistent/x' }).exited;
    expect(badLog).toMatchObject({ code: 1, stderr: expect.stringMatching(/^vigil: VIGIL_FIREWALL_LOG: cannot write \/nonexistent\/x: ENOENT$/m) });
    const badScope = await vigil(['firewall', '--npm-scope', 'corp'], dir).exited;
    expect(badScope).toMatchObject({ code: 2, stderr: expect.stringMatching(/^vigil: --npm-scope: expected @scope=<registry url>, got "corp"$/m) });
    const badScopeVariable = await vigil(['npm', '--version'], dir, { VIGIL_FIREWALL_NPM_SCOPES: '@a=http://x, @a=http://y' }).exited;
    expect(badScopeVariable).toMatchObject({ code: 2, stderr: expect.stringMatching(/^vigil: VIGIL_FIREWALL_NPM_SCOPES: @a given twice$/m) });
    const badReport = await vigil(['npm', '--version'], dir, { VIGIL_FIREWALL_REPORT: 'yes' }).exited;
    expect(badReport).toMatchObject({ code: 2, stderr: expect.stringMatching(/^vigil: VIGIL_FIREWALL_REPORT: expected true or false, got "yes"$/m) });
  });

  it('vigil firewall: serves until Ctrl-C, writing the decision log to --log', async () => {
    const dir = mkdtempSync(join(net.dir, 'cli-serve-'));
    mkdirSync(join(dir, 'logs'));
    const log = join(dir, 'logs', 'decisions.jsonl');
    const running = vigil(['firewall', '--log', log, '--mode', 'fail-open', '--report', '--pypi-upstream', `${net.pypi.url}/simple`, '--pypi-upstream', `${net.pypi.url}/simple/`], dir);
    await new Promise<void>((resolve, reject) => {
      const deadline = Date.now() + 30_000;
      const tick = () => (running.out.stderr.includes('listening on') ? resolve() : Date.now() > deadline ? reject(new Error(running.out.stderr)) : setTimeout(tick, 100));
      tick();
    });
    const url = /listening on (http:\/\/127\.0\.0\.1:\d+) /.exec(running.out.stderr)![1]!;
    expect(running.out.stderr).toContain(`(upstream ${net.verdaccio.url}, mode fail-open); point npm at it: npm config set registry ${url}/`);
    const doc = (await (await fetch(`${url}/${ROLL}`)).json()) as { 'dist-tags': { latest: string } };
    expect(doc['dist-tags'].latest).toBe('1.0.0');
    running.child.kill('SIGINT');
    const done = await running.exited;
    expect(done.code, done.stderr).toBe(0);
    expect(done.stderr).toMatch(/^vigil: firewall stopped$/m);
    const entries = readFileSync(log, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(entries).toEqual([expect.objectContaining({ package: ROLL, decision: 'filter', mode: 'fail-open', policy: 'vigil-verdict' })]);
    expect(running.out.stderr).toContain(`(upstream ${net.pypi.url}/simple, then ${net.pypi.url}/simple)`);
    // --report: the decision was counted for the key's account before the firewall stopped.
    const stats = await net.vigil.firewall.stats({ days: 1 });
    expect(stats.recent_refusals).toEqual(expect.any(Array));
    expect(stats.reasons).toContainEqual({ decision: 'filter', reason_kind: 'filtered', count: expect.any(Number) });
    expect(stats.days.at(-1)!.filter).toBeGreaterThanOrEqual(1);
  });
});
