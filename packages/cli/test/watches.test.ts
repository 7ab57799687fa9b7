/**
 * `vigil watch add|list|rm` and `vigil admin registries watcher` against a real server (the built
 * vigil-server, whose `serve` runs the release watcher) following a local npm registry that serves
 * one package and answers 304 to its ETag (docs/watches.md).
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serverBuilt, startVigilServer, type VigilServer } from '../../../test-support/vigil-server.js';
import { json, until, vigil, type CliResult } from './support/cli.js';

let server: VigilServer;
let registry: Server;
let env: Record<string, string>;
const run = (args: string[]): Promise<CliResult> => vigil(args, { env });
const unique = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
const NAME = `watched-${unique}`;
const requests: { path: string; status: number }[] = [];

interface WatchRow {
  id: string;
  package: string;
  source: string;
  poll: { last_polled_at: string | null; latest: string | null; versions: number | null; last_error: string | null };
}


describe.skipIf(!serverBuilt)('vigil watch against a real server', () => {
  beforeAll(async () => {
    const packument = JSON.stringify({ name: NAME, 'dist-tags': { latest: '1.1.0' }, versions: { '1.0.0': { name: NAME, version: '1.0.0' }, '1.1.0': { name: NAME, version: '1.1.0' } } });
    registry = createServer((req, res) => {
      const found = req.url === `/${NAME}`;
      const status = !found ? 404 : req.headers['if-none-match'] === '"v1"' ? 304 : 200;
      requests.push({ path: req.url ?? '', status });
      if (status === 200) res.writeHead(200, { 'content-type': 'application/json', etag: '"v1"' }).end(packument);
      else if (status === 304) res.writeHead(304, { etag: '"v1"' }).end();
      else res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":"not found"}');
    });
    await new Promise<void>((resolve) => registry.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(registry.address() as AddressInfo).port}`;
    server = await startVigilServer({
      env: { VIGIL_REGISTRY_FETCH: 'true', VIGIL_NPM_REGISTRY_URL: url, VIGIL_PYPI_URL: url, VIGIL_REGISTRY_POLL_S: '1', VIGIL_REGISTRY_MAX_ATTEMPTS: '1', VIGIL_WATCH_INTERVAL_S: '10', VIGIL_WATCH_MAX_PER_ACCOUNT: '3' },
    });
    env = { VIGIL_BASE_URL: server.baseUrl, VIGIL_API_TOKEN: server.paidKey };
  }, 660_000);
  afterAll(async () => {
    await server?.stop();
    await new Promise((resolve) => registry?.close(resolve));
  });

  it('adds, lists (the watcher polls at once, then revalidates with the ETag) and removes watches', async () => {
    const added = await run(['watch', 'add', `npm:${NAME}`, 'pypi:Not_There']);
    expect(added.code, added.stderr).toBe(0);
    expect(added.stdout).toContain(`npm:${NAME}`);
    expect(added.stdout).toContain('pypi:not-there');

    // The server's own watcher: the baseline (latest queued for a fetch), and a failing name backing off.
    const rows = await until('both names polled', async () => {
      const list = json<{ data: WatchRow[] }>(await run(['watch', 'list', '--json'])).data;
      return list.every((w) => w.poll.last_polled_at !== null) ? list : undefined;
    });
    expect(rows.map((w) => [w.package, w.source, w.poll.latest, w.poll.versions])).toEqual([
      [`npm:${NAME}`, 'api', '1.1.0', 2],
      ['pypi:not-there', 'api', null, null],
    ]);
    expect(rows[1]!.poll.last_error).toMatch(/^not_found: /);
    const table = await run(['watch', 'list']);
    expect(table.stdout).toMatch(new RegExp(`npm:${NAME}\\s*\\|\\s*api\\s*\\|\\s*latest 1\\.1\\.0, 2 version\\(s\\)`));
    expect(table.stdout).toMatch(/pypi:not-there\s*\|\s*api\s*\|\s*failing \(1\): not_found: /);
    const fetches = json<{ fetches: { purl: string }[] }>(await run(['admin', 'registries', 'fetches', '--json']));
    expect(fetches.fetches.map((f) => f.purl)).toContain(`pkg:npm/${NAME}@1.1.0`);

    // Ten seconds on (± jitter), the next poll sends the stored ETag and gets a 304.
    await until('a 304', async () => (requests.some((r) => r.path === `/${NAME}` && r.status === 304) ? true : undefined), 30_000);

    const watcher = json<{ names: number; watches: Record<string, number>; failing: number }>(await run(['admin', 'registries', 'watcher', '--json']));
    expect(watcher).toMatchObject({ names: 2, watches: { api: 2, operator: 0, repository: 0 }, failing: 1 });
    expect((await run(['admin', 'registries', 'watcher'])).stdout).toMatch(/names watched\W+2 \(watches: 0 by the operator, 2 by accounts, 0 from repositories\)/);

    const removed = await run(['watch', 'rm', 'pypi:Not_There']);
    expect(removed.code, removed.stderr).toBe(0);
    expect(removed.stdout).toMatch(/^Stopped watching \(wat_[0-9a-f]{24}\)\.$/m);
    const again = await run(['watch', 'rm', 'pypi:not-there']);
    expect(again.code).toBe(2);
    expect(again.stderr).toContain("pypi:not-there: not on this account's watch list");
    expect((await run(['watch', 'rm', rows[0]!.id])).code).toBe(0);
    const gone = await run(['watch', 'rm', rows[0]!.id]);
    expect(gone.code).toBe(1);
    expect(gone.stderr).toMatch(/^vigil: 404 watch not found \(request id [0-9a-f-]+\)$/m);
  });

  it('prints the watches it added before one over the limit fails (exit 1)', async () => {
    const names = ['a', 'b', 'c', 'd'].map((n) => `npm:limit-${n}-${unique}`);
    const r = await run(['watch', 'add', ...names]);
    expect(r.code, r.stderr).toBe(1);
    expect(r.stderr).toMatch(/^vigil: 409 watch limit reached/m);
    for (const name of names.slice(0, 3)) expect(r.stdout).toContain(name);
    expect(r.stdout).not.toContain(names[3]);
  });

  it('refuses a name with a version before sending (exit 2)', async () => {
    for (const args of [['watch', 'add', 'npm:left-pad@1.3.0'], ['watch', 'add', 'pkg:github/acme/x'], ['watch', 'rm', 'left-pad']]) {
      const r = await run(args);
      expect(r.code, `${args.join(' ')}: ${r.stderr}`).toBe(2);
      expect(r.stdout).toBe('');
    }
  });
});
