import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Vigil } from '@vigil/client';
import AjvDraft04 from 'ajv-draft-04';
import ajvFormats from 'ajv-formats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serverBuilt, startVigilServer, type VigilServer } from '../../../test-support/vigil-server.js';
import { json, vigil, type CliResult } from './support/cli.js';

let server: VigilServer;
let env: Record<string, string>;
const run = (args: string[], extra: Record<string, string | undefined> = {}, stdin?: string): Promise<CliResult> => vigil(args, { env: { ...env, ...extra }, ...(stdin === undefined ? {} : { stdin }) });

/** A demo package with a published verdict, claimed by the test's account (its bytes uploaded under its purl). */
interface Claimed {
  purl: string;
  name: string;
  version: string;
}
let blocked: Claimed;
let allowed: Claimed;

async function claimDemoPackage(sdk: Vigil, verdict: 'ALLOW' | 'BLOCK'): Promise<Claimed> {
  const seen = new Set<number>();
  for await (const attestation of sdk.attestations.list({ verdict }, { pageSize: 100 })) {
    if (attestation.track !== 'packages' || seen.has(attestation.artifact.id)) continue;
    seen.add(attestation.artifact.id);
    const artifact = await sdk.artifacts.get(`art_${attestation.artifact.id}`);
    if (artifact.verdict?.verdict !== verdict) continue;
    const purl = attestation.artifact.bundle_hash.split('/').slice(2).join('/');
    const match = /^pkg:npm\/([^@]+)@(.+)$/.exec(purl);
    if (!match) continue;
    const hex = artifact.sha256.slice('sha256:'.length);
    const blob = join(server.dataDir, 'blobs', 'sha256', hex.slice(0, 2), hex.slice(2));
    // The upload through the CLI is what makes the reference count for this account.
    const upload = await run(['artifacts', 'upload', blob, '--track', 'packages', '--package', purl, '--json']);
    expect(upload.code, upload.stderr).toBe(0);
    expect(json(upload)).toMatchObject({ id: artifact.id, state: 'decided', verdict: { verdict } });
    return { purl, name: match[1]!, version: match[2]! };
  }
  throw new Error(`no demo package with a published ${verdict}`);
}

function packageLock(deps: Claimed[]): string {
  const packages: Record<string, unknown> = { '': { name: 'app', version: '1.0.0', dependencies: Object.fromEntries(deps.map((d) => [d.name, d.version])) } };
  for (const d of deps) packages[`node_modules/${d.name}`] = { version: d.version, resolved: `https://registry.npmjs.org/${d.name}/-/${d.name}-${d.version}.tgz` };
  return `${JSON.stringify({ name: 'app', version: '1.0.0', lockfileVersion: 3, requires: true, packages }, null, 2)}\n`;
}

function project(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'vigil-repo-'));
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(join(dir, path, '..'), { recursive: true });
    writeFileSync(join(dir, path), content);
  }
  return dir;
}

const PACKAGE_JSON = JSON.stringify({ name: 'app', version: '1.0.0', private: true, dependencies: { 'left-pad': '1.3.0' }, devDependencies: { 'is-number': '7.0.0' } });

describe.skipIf(!serverBuilt)('vigil against a real server', () => {
  beforeAll(async () => {
    // The suite picks demo packages by their published verdicts: a round the scheduler closed while
    // it ran would republish some. Seen twice under the whole workspace suite (no published BLOCK
    // found, the run crossing a whole hour); the suite needs a network that holds still.
    server = await startVigilServer({ env: { VIGIL_SCHEDULER: 'false' } });
    env = { VIGIL_BASE_URL: server.baseUrl, VIGIL_API_TOKEN: server.paidKey };
    const sdk = new Vigil({ baseUrl: server.baseUrl, apiKey: server.paidKey });
    blocked = await claimDemoPackage(sdk, 'BLOCK');
    allowed = await claimDemoPackage(sdk, 'ALLOW');
  }, 660_000);
  afterAll(async () => server?.stop());

  it('prints every public read as the JSON the server sent, without a token', async () => {
    const publicEnv = { VIGIL_API_TOKEN: undefined, VIGIL_BASE_URL: undefined, VIGIL_URL: server.baseUrl };
    expect(json(await run(['health', '--json'], publicEnv))).toEqual({ status: 'ok' });
    expect(json(await run(['identity', '--json'], publicEnv)).server_hotkey).toMatch(/^[0-9a-f]{64}$/);
    const network = json<{ validators: { active: number }; last_update: string }>(await run(['network', '--json'], publicEnv));
    expect(network.validators.active).toBeGreaterThan(0);
    // Timestamps as the server wrote them (offset family), not re-serialized Dates.
    expect(network.last_update).toMatch(/\.\d{3}\+00:00$/);
    expect(json(await run(['trends', '--days', '7', '--json'], publicEnv))).toMatchObject({ days: 7 });
    const rounds = json<{ rounds: { round_id: string; closed_at: string; winners: { hotkey: string }[] }[] }>(await run(['rounds', '--json'], publicEnv));
    expect(rounds.rounds.length).toBeGreaterThan(0);
    expect(rounds.rounds[0]!.closed_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}$/);
    const closed = rounds.rounds[0]!;
    expect(json<{ round_id: string }>(await run(['rounds', 'scores', closed.round_id, '--json'], publicEnv)).round_id).toBe(closed.round_id);
    const winner = closed.winners[0]!.hotkey;
    expect(json(await run(['rounds', 'attestations', closed.round_id, '--miner', winner, '--json'], publicEnv))).toMatchObject({ round_id: closed.round_id, round_status: 'closed', miner_hotkey: winner });
    expect(json<{ tracks: unknown[] }>(await run(['rounds', 'status', '--json'], publicEnv)).tracks.length).toBe(4);
    const board = json<{ rows: { track: string }[] }>(await run(['leaderboard', '--track', 'skills', '--json'], publicEnv));
    expect(board.rows.length).toBeGreaterThan(0);
    expect(new Set(board.rows.map((r) => r.track))).toEqual(new Set(['skills']));
    const agents = json<{ agents: { hotkey: string; track: string }[] }>(await run(['agents', '--track', 'packages', '--json'], publicEnv));
    const agent = agents.agents[0]!;
    expect(json(await run(['agent', agent.hotkey, '--track', 'packages', '--json'], publicEnv))).toMatchObject({ hotkey: agent.hotkey, track: 'packages' });
  });

  it('attestations dsse: the validator-signed DSSE envelope, checked offline; --json prints it as served', async () => {
    const listed = json<{ attestations: { canonical_hash: string; validator_hotkey: string }[] }>(await run(['attestations', 'list', '--verdict', 'BLOCK', '--json']));
    const { canonical_hash: hash, validator_hotkey: validator } = listed.attestations[0]!;
    const human = await run(['attestations', 'dsse', hash]);
    expect(human.code, human.stderr).toBe(0);
    expect(human.stdout).toContain('signed by its validator');
    expect(human.stdout).toContain(validator);
    const envelope = json<{ payloadType: string; payload: string; signatures: { keyid: string; sig: string }[] }>(await run(['attestations', 'dsse', hash, '--json']));
    expect(envelope.payloadType).toBe('application/vnd.in-toto+json');
    expect(JSON.parse(Buffer.from(envelope.payload, 'base64').toString('utf8'))).toMatchObject({ predicateType: 'https://vigil.dev/attestation/v1', predicate: { validator_hotkey: validator } });
    const unknown = await run(['attestations', 'dsse', `sha256:${'0'.repeat(64)}`]);
    expect(unknown).toMatchObject({ code: 1, stderr: expect.stringMatching(/^vigil: 404 attestation not found /) });
    // A malformed hash is a usage error, nothing sent (outsider finding).
    expect(await run(['attestations', 'dsse', 'notahash'])).toMatchObject({ code: 2, stderr: expect.stringMatching(/^vigil: canonical_hash: expected sha256:<64 lowercase hex>/) });
  });

  it('prints tables for people, in colour only when asked for a terminal and never with NO_COLOR', async () => {
    const plain = await run(['leaderboard', '--track', 'skills']);
    expect(plain.stdout).toMatch(/^\+-+/);
    expect(plain.stdout).toMatch(/\| rank \| track +\| agent/);
    expect(plain.stdout).not.toContain('\x1b[');
    expect((await run(['leaderboard'], { FORCE_COLOR: '1' })).stdout).toContain('\x1b[1mrank');
    expect((await run(['leaderboard'], { FORCE_COLOR: '1', NO_COLOR: '1' })).stdout).not.toContain('\x1b[');
    expect((await run(['leaderboard', '--no-color'], { FORCE_COLOR: '1' })).stdout).not.toContain('\x1b[');
  });

  it('reports a server refusal on stderr with its detail and request id (exit 1)', async () => {
    const r = await run(['rounds', 'scores', '0123456789abcdef']);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/^vigil: 404 round not found \(request id [0-9a-f-]{36}\)\n$/);
    const free = await run(['verify', 'npm:left-pad@1.3.0'], { VIGIL_API_TOKEN: server.freeKey });
    expect(free).toMatchObject({ code: 1, stderr: expect.stringMatching(/^vigil: 403 this endpoint requires a paid plan \(request id /) });
    const bad = await run(['attestations', 'list', '--since', 'yesterday']);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/^vigil: 422 Validation error \(request id [^)]+\)\n {2}query\.since: /);
  });

  it('logs in to a 0600 profile file, uses it, and logs out', async () => {
    const home = mkdtempSync(join(tmpdir(), 'vigil-login-'));
    const config = join(home, 'xdg');
    const noEnv = { VIGIL_API_TOKEN: undefined, VIGIL_BASE_URL: undefined, XDG_CONFIG_HOME: config };
    const login = await vigil(['login', '--base-url', server.baseUrl], { home, env: noEnv, stdin: `${server.paidKey}\n` });
    expect(login.code, login.stderr).toBe(0);
    expect(login.stdout).toMatch(/Logged in to .* as acme \(organization, paid plan\)/);
    const file = join(config, 'vigil', 'config.json');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(statSync(join(config, 'vigil')).mode & 0o777).toBe(0o700);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({ profiles: { default: { base_url: server.baseUrl, token: server.paidKey } } });
    const whoami = await vigil(['whoami', '--json'], { home, env: noEnv });
    expect(json(whoami)).toMatchObject({ account: { name: 'acme', plan: 'paid' } });
    expect((await vigil(['whoami'], { home, env: noEnv })).stdout).toMatch(/from profile default/);
    // A flag beats the profile: the free key is another account.
    expect(json(await vigil(['whoami', '--json', '--token', server.freeKey], { home, env: noEnv }))).toMatchObject({ account: { name: 'bob' } });
    const refused = await vigil(['login', '--base-url', server.baseUrl, '--token', `vgl_00000000_${'0'.repeat(48)}`, '--profile', 'other'], { home, env: noEnv });
    expect(refused).toMatchObject({ code: 1, stderr: expect.stringMatching(/^vigil: 401 /) });
    expect(Object.keys(JSON.parse(readFileSync(file, 'utf8')).profiles)).toEqual(['default']);
    expect((await vigil(['logout'], { home, env: noEnv })).stdout).toMatch(/Removed profile default/);
    expect((await vigil(['whoami'], { home, env: noEnv })).code).toBe(2);
  });

  it('creates, lists and revokes keys', async () => {
    const created = json<{ key_id: string; token: string }>(await run(['keys', 'create', '--name', 'ci', '--scopes', 'read,verify', '--json']));
    expect(created.token).toMatch(/^vgl_/);
    const listed = json<{ keys: { key_id: string; status: string }[] }>(await run(['keys', 'list', '--json']));
    expect(listed.keys.find((k) => k.key_id === created.key_id)?.status).toBe('active');
    expect((await run(['keys', 'revoke', created.key_id])).stdout).toMatch(new RegExp(`Revoked key ${created.key_id}`));
    expect((await run(['keys', 'create', '--name', 'x', '--scopes', 'read,fly'])).code).toBe(2);
  });

  it('verify exits 0 for ALLOW, 5 for BLOCK, 4 for a pending package, and honours --fail-on block', async () => {
    expect((await run(['verify', allowed.purl])).code).toBe(0);
    const block = await run(['verify', blocked.purl, '--json']);
    expect(block.code).toBe(5);
    expect(json(block)).toMatchObject({ artifact: blocked.purl, state: 'decided', verdict: 'BLOCK' });
    const batch = await run(['verify', allowed.purl, 'npm:left-pad@1.3.0', '--json']);
    expect(batch.code).toBe(4);
    expect(json<{ results: { state: string }[] }>(batch).results.map((r) => r.state)).toEqual(['decided', 'pending']);
    expect((await run(['verify', allowed.purl, 'npm:left-pad@1.3.0', '--fail-on', 'block'])).code).toBe(0);
    expect((await run(['verify', blocked.purl, '--fail-on', 'block'])).code).toBe(5);
  });

  it('verify-repo reads a real npm project (package-lock.json made by npm)', async () => {
    const dir = project({ 'package.json': PACKAGE_JSON });
    execFileSync('npm', ['install', '--package-lock-only', '--ignore-scripts', '--no-audit', '--no-fund'], { cwd: dir, stdio: 'pipe' });
    const r = await run(['verify-repo', dir, '--json']);
    expect(r.code, r.stderr).toBe(4);
    const v = json<{ verdict: string; files: { path: string; format: string }[]; dependencies: { purl: string; direct: boolean; dev: boolean; state: string }[] }>(r);
    expect(v.verdict).toBe('WARN');
    expect(v.files.map((f) => [f.path, f.format])).toEqual([['package-lock.json', 'package-lock']]);
    expect(v.dependencies.map((d) => [d.purl, d.direct, d.dev, d.state]).sort()).toEqual([
      ['pkg:npm/is-number@7.0.0', true, true, 'pending'],
      ['pkg:npm/left-pad@1.3.0', true, false, 'pending'],
    ]);
    expect((await run(['verify-repo', dir, '--fail-on', 'block'])).code).toBe(0);
    const table = await run(['verify-repo', dir]);
    expect(table.stdout).toMatch(/^WARN under policy default v1 \(incomplete: pending dependencies\)\n2 packages \(2 direct\): 0 blocked, 0 warned, 2 pending, 0 allowed/);
  }, 120_000);

  it('verify-repo reads a real pnpm project (pnpm-lock.yaml made by pnpm), skipping node_modules', async () => {
    const dir = project({ 'package.json': PACKAGE_JSON, 'node_modules/x/package-lock.json': '{}' });
    execFileSync('npx', ['-y', 'pnpm@10.34.8', 'install', '--lockfile-only', '--ignore-scripts'], { cwd: dir, stdio: 'pipe' });
    const v = json<{ files: { path: string; format: string; packages: number }[] }>(await run(['verify-repo', dir, '--json']));
    expect(v.files.map((f) => [f.path, f.format, f.packages])).toEqual([['pnpm-lock.yaml', 'pnpm-lock', 2]]);
  }, 180_000);

  it('verify-repo exits 5 on a blocked dependency and 0 when all are allowed; --sarif is valid SARIF 2.1.0', async () => {
    const dir = project({ 'web/package-lock.json': packageLock([allowed, blocked]), 'api/requirements.txt': 'furo\n' });
    const r = await run(['verify-repo', dir]);
    expect(r.code).toBe(5);
    expect(r.stdout).toMatch(/^BLOCK under policy default/);
    expect(r.stdout).toContain(blocked.purl);

    const sarifRun = await run(['verify-repo', dir, '--sarif']);
    expect(sarifRun.code).toBe(5);
    const sarif = json<{ runs: { results: { ruleId: string; level: string; locations: { physicalLocation: { artifactLocation: { uri: string }; region: { startLine: number } } }[] }[] }[] }>(sarifRun);
    const require = createRequire(import.meta.url);
    // The schema as the SARIF TC published it (2.1.0 rtm.5), shipped by Microsoft's @microsoft/jest-sarif.
    const schema = JSON.parse(readFileSync(require.resolve('@microsoft/jest-sarif/lib/schemas/sarif-2.1.0-rtm.5.json'), 'utf8')) as object;
    // unicodeRegExp off: the schema's `language` pattern is an ECMA-262 regex that is invalid in /u mode.
    // Both are CommonJS packages whose default export is the module object under NodeNext.
    const Ajv = (AjvDraft04 as unknown as { default: typeof AjvDraft04.default }).default;
    const addFormats = (ajvFormats as unknown as { default: typeof ajvFormats.default }).default;
    const ajv = new Ajv({ allErrors: true, strict: false, unicodeRegExp: false });
    addFormats(ajv);
    const validate = ajv.compile(schema);
    expect(validate(sarif), JSON.stringify(validate.errors)).toBe(true);
    const results = sarif.runs[0]!.results;
    expect(results.map((x) => [x.ruleId, x.level])).toEqual([['vigil/blocked-dependency', 'error']]);
    const location = results[0]!.locations[0]!.physicalLocation;
    expect(location.artifactLocation.uri).toBe('web/package-lock.json');
    const lines = packageLock([allowed, blocked]).split('\n');
    expect(lines[location.region.startLine - 1]).toContain(blocked.name);

    const clean = project({ 'package-lock.json': packageLock([allowed]) });
    expect((await run(['verify-repo', clean])).code).toBe(0);
    expect(await run(['verify-repo', project({ 'README.md': '# no lockfile' })])).toMatchObject({ code: 1, stderr: expect.stringMatching(/no lockfile found/) });
  });

  it('sbom verifies a CycloneDX or SPDX file (or stdin) like verify-repo: exit 5 on BLOCK, 0 when allowed; --format sarif is valid SARIF, cyclonedx a VEX', async () => {
    const cyclonedx = (deps: Claimed[], extra: object[] = []) =>
      JSON.stringify({
        bomFormat: 'CycloneDX',
        specVersion: '1.6',
        metadata: { component: { type: 'application', name: 'app', version: '1.0.0', 'bom-ref': 'app' } },
        components: [...deps.map((d) => ({ type: 'library', name: d.name, version: d.version, 'bom-ref': d.purl, purl: d.purl })), ...extra],
        dependencies: [{ ref: 'app', dependsOn: deps.map((d) => d.purl) }],
      });
    const dir = project({ 'bom.json': cyclonedx([allowed, blocked], [{ type: 'library', name: 'guava', 'bom-ref': 'guava', purl: 'pkg:maven/com.google.guava/guava@33.0.0' }]) });
    const file = join(dir, 'bom.json');
    const table = await run(['sbom', file]);
    expect(table.code, table.stderr).toBe(5);
    expect(table.stdout).toMatch(/^BLOCK under policy default v1\nCycloneDX 1\.6 of app@1\.0\.0\n3 components: 2 verified, 0 without purl, 1 unsupported\n/);
    expect(table.stdout).toContain(blocked.purl);
    expect(table.stdout).toContain('purl type maven is not verified');
    const asJson = json<{ verdict: string; summary: { packages: number }; dependencies: { purl: string; direct: boolean }[] }>(await run(['sbom', file, '--json']));
    expect(asJson).toMatchObject({ verdict: 'BLOCK', summary: { packages: 2 } });
    expect(asJson.dependencies.map((d) => [d.purl, d.direct])).toEqual([[blocked.purl, true], [allowed.purl, true]]);
    // --format json prints the same answer as --json (the server's body as sent).
    expect(json(await run(['sbom', file, '--format', 'json']))).toMatchObject({ verdict: 'BLOCK', summary: { packages: 2 }, unverified: [{ ref: 'guava', reason: 'unsupported_type' }] });

    const sarifRun = await run(['sbom', file, '--format', 'sarif', '--sbom-path', 'dist/bom.json']);
    expect(sarifRun.code).toBe(5);
    const sarif = json<{ runs: { results: { ruleId: string; level: string; locations: { physicalLocation: { artifactLocation: { uri: string } } }[] }[] }[] }>(sarifRun);
    const require = createRequire(import.meta.url);
    const schema = JSON.parse(readFileSync(require.resolve('@microsoft/jest-sarif/lib/schemas/sarif-2.1.0-rtm.5.json'), 'utf8')) as object;
    const Ajv = (AjvDraft04 as unknown as { default: typeof AjvDraft04.default }).default;
    const addFormats = (ajvFormats as unknown as { default: typeof ajvFormats.default }).default;
    const ajv = new Ajv({ allErrors: true, strict: false, unicodeRegExp: false });
    addFormats(ajv);
    const validate = ajv.compile(schema);
    expect(validate(sarif), JSON.stringify(validate.errors)).toBe(true);
    expect(sarif.runs[0]!.results.map((r) => [r.ruleId, r.level, r.locations[0]!.physicalLocation.artifactLocation.uri])).toEqual([
      ['vigil/blocked-dependency', 'error', 'dist/bom.json'],
      ['vigil/unverified-component', 'note', 'dist/bom.json'],
    ]);

    const vexRun = await run(['sbom', file, '--format', 'cyclonedx', '--fail-on', 'block']);
    expect(vexRun.code).toBe(5);
    const vex = json<{ specVersion: string; vulnerabilities: { id: string; affects: { ref: string }[] }[] }>(vexRun);
    expect(vex.specVersion).toBe('1.6');
    expect(vex.vulnerabilities.map((v) => [v.id, v.affects[0]!.ref])).toEqual([['VIGIL-BLOCK', blocked.purl]]);

    // SPDX 2.3 from standard input; only allowed packages: exit 0.
    const spdx = JSON.stringify({
      spdxVersion: 'SPDX-2.3',
      SPDXID: 'SPDXRef-DOCUMENT',
      name: 'app',
      documentNamespace: 'https://example.com/spdx/app-1.0.0',
      documentDescribes: ['SPDXRef-app'],
      packages: [
        { SPDXID: 'SPDXRef-app', name: 'app', versionInfo: '1.0.0' },
        { SPDXID: 'SPDXRef-dep', name: allowed.name, versionInfo: allowed.version, externalRefs: [{ referenceCategory: 'PACKAGE-MANAGER', referenceType: 'purl', referenceLocator: allowed.purl }] },
      ],
      relationships: [{ spdxElementId: 'SPDXRef-dep', relationshipType: 'DEPENDENCY_OF', relatedSpdxElement: 'SPDXRef-app' }],
    });
    const clean = await run(['sbom', '-'], {}, spdx);
    expect(clean.code, clean.stderr).toBe(0);
    expect(clean.stdout).toMatch(/^ALLOW under policy default v1\nSPDX 2\.3 of app@1\.0\.0\n/);

    // A file that is not JSON never reaches the server; an SBOM the server refuses exits 1 with its detail.
    writeFileSync(join(dir, 'broken.json'), '{"bomFormat": ');
    expect(await run(['sbom', join(dir, 'broken.json')])).toMatchObject({ code: 1, stderr: expect.stringContaining('is not JSON') });
    writeFileSync(join(dir, 'old.json'), JSON.stringify({ bomFormat: 'CycloneDX', specVersion: '1.4', components: [] }));
    expect(await run(['sbom', join(dir, 'old.json')])).toMatchObject({ code: 1, stderr: expect.stringContaining('specVersion: CycloneDX 1.4 is not read (Vigil reads 1.5 and 1.6)') });
    expect(await run(['sbom', file, '--format', 'xml'])).toMatchObject({ code: 2 });
    // A dozen CLI processes against one server: minutes on a loaded machine, not a timing threshold.
  }, 400_000);

  it('creates, lists, reads and evaluates policies', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'vigil-policy-')), 'prod.json');
    writeFileSync(file, JSON.stringify({ name: 'cli-prod', rules: [{ name: 'vigil-block', expression: 'artifact.verdict != "BLOCK"', action: 'block' }] }));
    const created = await run(['policy', 'create', '-f', file, '--json']);
    expect(created.code, created.stderr).toBe(0);
    const id = json<{ id: string }>(created).id;
    expect(json<{ policies: { id: string }[] }>(await run(['policy', 'list', '--json'])).policies.map((p) => p.id)).toContain(id);
    expect((await run(['policy', 'get', id])).stdout).toMatch(/vigil-block +\| block +\| artifact\.verdict != "BLOCK"/);
    const evaluation = await run(['policy', 'evaluate', blocked.purl, '--policy', 'cli-prod', '--json']);
    expect(evaluation.code).toBe(5);
    expect(json(evaluation)).toMatchObject({ verdict: 'block', policy: 'cli-prod' });
    expect((await run(['policy', 'evaluate', allowed.purl, '--policy', 'cli-prod'])).code).toBe(0);
  });

  it("policy evaluate exits on the policy's verdict: a policy that allows a pending package exits 0, where verify exits 4", async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'vigil-policy-')), 'allow.json');
    writeFileSync(file, JSON.stringify({ name: 'cli-allow-pending', rules: [{ name: 'always', expression: 'true', action: 'block' }] }));
    expect((await run(['policy', 'create', '-f', file])).code).toBe(0);
    const evaluation = await run(['policy', 'evaluate', 'npm:left-pad@1.3.0', '--policy', 'cli-allow-pending']);
    expect(evaluation.stdout).toMatch(/verdict +ALLOW\n/);
    expect(evaluation.stdout).toMatch(/state +pending\n/);
    expect(evaluation.code).toBe(0);
    expect((await run(['verify', 'npm:left-pad@1.3.0'])).code).toBe(4);
  });

  it('miner register and submit print timestamps as every table does (2026-11-21 10:00:00Z)', async () => {
    const opts = { home: mkdtempSync(join(tmpdir(), 'vigil-miner-')), env: { VIGIL_BASE_URL: server.baseUrl } };
    expect((await vigil(['keygen'], opts)).code).toBe(0);
    const registered = await vigil(['miner', 'register', '--track', 'mcp_servers'], opts);
    expect(registered.stdout).toMatch(/ is registered on mcp_servers since \d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}Z\.\n$/);
    const agentDir = project({ 'agent.py': 'print(1)\n' });
    const submitted = await vigil(['miner', 'submit', agentDir, '--track', 'mcp_servers', '--name', 'cli-when', '--provider', 'none'], opts);
    expect(submitted.code, submitted.stderr).toBe(0);
    expect(submitted.stdout).toMatch(/submitted +\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}Z\n/);
    expect(submitted.stdout).not.toContain('+00:00');
  });

  it('lets a miner register, submit a directory as its agent, read it and delete it, with a keygen key', async () => {
    const home = mkdtempSync(join(tmpdir(), 'vigil-miner-'));
    const opts = { home, env: { VIGIL_BASE_URL: server.baseUrl } };
    const hotkey = (await vigil(['keygen'], opts)).stdout.trim();
    const registered = await vigil(['miner', 'register', '--track', 'skills', '--json'], opts);
    expect(json(registered)).toMatchObject({ hotkey, track: 'skills', status: 'registered' });
    const agentDir = project({ 'agent.py': 'from lib.rules import RULES\n', 'lib/rules.py': 'RULES = []\n', '.git/HEAD': 'ref: x\n' });
    const submitted = await vigil(['miner', 'submit', agentDir, '--track', 'skills', '--name', 'cli-agent', '--provider', 'none', '--json'], opts);
    expect(submitted.code, submitted.stderr).toBe(0);
    const agent = json<{ agent_hash: string; version: number }>(submitted);
    expect(agent.version).toBe(1);
    expect(json(await vigil(['miner', 'agent', '--track', 'skills', '--json'], opts))).toMatchObject({ agent_hash: agent.agent_hash, name: 'cli-agent' });
    expect((await vigil(['miner', 'delete', '--track', 'skills'], opts)).code).toBe(0);
    expect(await vigil(['miner', 'agent', '--track', 'skills'], opts)).toMatchObject({ code: 1, stderr: expect.stringMatching(/^vigil: 404 agent not found/) });
    // A fresh key holds no validator permit on the demo metagraph.
    expect(await vigil(['validator', 'register', '--allowed-ip', '127.0.0.1'], opts)).toMatchObject({ code: 1, stderr: expect.stringMatching(/^vigil: 403 hotkey not registered on netuid 76/) });
    // Its signed validator calls reach the server, which refuses a hotkey that is no validator.
    const intel = await vigil(['validator', 'threat-intel', `sha256:${'a'.repeat(64)}`], opts);
    expect(intel).toMatchObject({ code: 1, stderr: expect.stringMatching(/^vigil: 403 /) });
    expect(await vigil(['validator', 'threat-intel', 'sha256:XYZ'], opts)).toMatchObject({ code: 2, stderr: expect.stringMatching(/^vigil: sha256: expected sha256:<64 lowercase hex>/) });
    const notEnvelope = project({ 'envelope.json': JSON.stringify({ payload: {} }) });
    expect(await vigil(['validator', 'attest', join(notEnvelope, 'envelope.json')], opts)).toMatchObject({ code: 1, stderr: expect.stringMatching(/^vigil: file: .* is not an attestation envelope \(/) });
  });
});
