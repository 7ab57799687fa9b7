import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serverBuilt, startVigilServer, type VigilServer } from '../../../test-support/vigil-server.js';
import { json, vigil, type CliResult } from './support/cli.js';

const SIGSTORE_BUNDLE = readFileSync(new URL('../../../apps/server/test/fixtures/sigstore/gundam-visor-1.0.1.attestations.json', import.meta.url), 'utf8');

let server: VigilServer;
let env: Record<string, string>;
const run = (args: string[], stdin?: string): Promise<CliResult> => vigil(args, { env, ...(stdin === undefined ? {} : { stdin }) });

async function ok<T = Record<string, unknown>>(args: string[], code = 0): Promise<T> {
  const result = await run([...args, '--json']);
  expect(result.code, `vigil ${args.join(' ')}: ${result.stderr}`).toBe(code);
  return json<T>(result);
}

/** exit 1, `vigil: <status> <detail> (request id …)` on stderr. */
async function refused(args: string[], status: number, detail: string): Promise<void> {
  const result = await run(args);
  expect(result.code, result.stderr).toBe(1);
  expect(result.stdout).toBe('');
  expect(result.stderr).toMatch(new RegExp(`^vigil: ${status} ${detail.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} \\(request id [0-9a-f-]+\\)\\n`));
}

// Without the demo data: these commands need nothing but an account, and the server starts at once.
describe.skipIf(!serverBuilt)('vigil repositories, artifacts list/facts/provenance and policy evaluation against a real server', () => {
  beforeAll(async () => {
    server = await startVigilServer({ demo: false });
    env = { VIGIL_BASE_URL: server.baseUrl, VIGIL_API_TOKEN: server.paidKey };
  }, 660_000);
  afterAll(async () => server?.stop());

  it('registers a repository, lists it, reads it, has no verification before a push, deletes it', async () => {
    const created = await run(['repositories', 'create', 'https://github.com/acme/cli-app', '--policy', 'default']);
    expect(created.code, created.stderr).toBe(0);
    const id = /^repository +(repo_[0-9a-f]{16})$/m.exec(created.stdout)?.[1];
    expect(id, created.stdout).toBeDefined();
    expect(created.stdout).toMatch(new RegExp(`^payload url +${server.baseUrl}/v1/repositories/hooks/github$`, 'm'));
    expect(created.stdout).toMatch(/^secret +[0-9a-f]{64}$/m);
    expect(created.stderr).toMatch(/The secret is shown this once/);

    const list = await ok<{ repositories: { id: string; url: string }[] }>(['repositories', 'list', '--all']);
    // Stored in its clone form.
    expect(list.repositories).toContainEqual(expect.objectContaining({ id, url: 'https://github.com/acme/cli-app.git' }));
    expect(await ok(['repositories', 'get', id!])).toMatchObject({ id, provider: 'github', policy: 'default', verdict: null, last_push: { delivery: 'initial' } });
    const human = await run(['repositories', 'get', id!]);
    expect(human.stdout).toMatch(/^verdict +not verified yet$/m);

    const notYet = await run(['repositories', 'verification', id!]);
    expect(notYet.code).toBe(1);
    expect(notYet.stderr).toMatch(/^vigil: 409 .*has no verified push yet/);

    const deleted = await run(['repositories', 'delete', id!]);
    expect(deleted).toMatchObject({ code: 0, stdout: `Deleted repository ${id} (https://github.com/acme/cli-app.git).\n` });
    await refused(['repositories', 'get', id!], 404, 'repository not found');
    expect(await run(['repositories', 'create', 'https://github.com/acme/x', '--provider', 'svn'])).toMatchObject({ code: 2, stderr: expect.stringMatching(/--provider: expected one of github, gitlab, bitbucket/) });
  });

  it('finds uploaded artifacts by purl and by hash, reads their facts, refuses provenance that does not verify', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'vigil-cli-artifact-'));
    const file = join(dir, 'artifact.bin');
    writeFileSync(file, `cli artifact ${Date.now()} ${Math.random()}\n`);
    const uploaded = await ok<{ id: string; sha256: string }>(['artifacts', 'upload', file, '--track', 'packages', '--package', 'pkg:npm/vigil-cli-test@1.0.0']);

    const byPurl = await ok<{ artifacts: { id: string }[] }>(['artifacts', 'list', '--purl', 'npm:vigil-cli-test@1.0.0']);
    expect(byPurl.artifacts.map((a) => a.id)).toEqual([uploaded.id]);
    const byHash = await ok<{ artifacts: { id: string }[] }>(['artifacts', 'list', '--sha256', uploaded.sha256]);
    expect(byHash.artifacts.map((a) => a.id)).toContain(uploaded.id);
    const table = await run(['artifacts', 'list', '--purl', 'pkg:npm/vigil-cli-test@1.0.0']);
    expect(table.stdout).toMatch(new RegExp(`\\| ${uploaded.id} +\\| packages \\|`));
    expect(await run(['artifacts', 'list'])).toMatchObject({ code: 2, stderr: expect.stringMatching(/give one of --purl and --sha256/) });

    // Bytes that are no package archive: no facts read from them, said as such.
    const facts = await ok<{ artifact_id: string; kind: string | null; install_scripts: string[] }>(['artifacts', 'facts', uploaded.id]);
    expect(facts).toMatchObject({ artifact_id: uploaded.id, kind: null, install_scripts: [] });
    expect((await run(['artifacts', 'facts', uploaded.id])).stdout).toMatch(/^install scripts +none$/m);
    await refused(['artifacts', 'facts', 'art_999999999'], 404, 'artifact not found');

    // A real Sigstore bundle, for other bytes; also read from standard input.
    const bundle = join(dir, 'bundle.json');
    writeFileSync(bundle, SIGSTORE_BUNDLE);
    await refused(['artifacts', 'provenance', uploaded.id, bundle], 422, 'provenance bundle does not verify');
    const piped = await run(['artifacts', 'provenance', uploaded.id, '-'], SIGSTORE_BUNDLE);
    expect(piped.code).toBe(1);
    expect(piped.stderr).toMatch(/^vigil: 422 provenance bundle does not verify/);
  });

  it('reads a stored policy evaluation back, exit 0 whatever its verdict', async () => {
    // A package nobody uploaded is pending, which counts as WARN: exit 4 for evaluate.
    const evaluation = await ok<{ id: string; verdict: string }>(['policy', 'evaluate', 'npm:vigil-cli-never@1.0.0'], 4);
    expect(evaluation.id).toMatch(/^eval_/);
    expect(await ok(['policy', 'evaluation', evaluation.id])).toEqual(evaluation);
    const human = await run(['policy', 'evaluation', evaluation.id]);
    expect(human.code).toBe(0);
    expect(human.stdout).toMatch(new RegExp(`^evaluation +${evaluation.id}$`, 'm'));
    await refused(['policy', 'evaluation', 'eval_nope'], 404, 'evaluation not found');
  });
});
