/**
 * `vigil admin registries fetches|retry` against a real server that fetches from a local npm
 * registry holding nothing: every fetch fails `not_found`, so the queue has failed fetches to list,
 * filter, page through and retry (docs/registries.md, "Operating the fetch queue").
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
const NAMES = ['reg-admin-a', 'reg-admin-b'].map((n) => `${n}-${unique}`);

interface FetchRow {
  purl: string;
  state: string;
  attempts: number;
  last_error: string | null;
}
interface FetchList {
  counts: Record<string, number>;
  due: number;
  oldest_due_at: string | null;
  fetches: FetchRow[];
}


describe.skipIf(!serverBuilt)('vigil admin registries against a real server', () => {
  beforeAll(async () => {
    registry = createServer((_req, res) => res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":"not found"}'));
    await new Promise<void>((resolve) => registry.listen(0, '127.0.0.1', resolve));
    const port = (registry.address() as AddressInfo).port;
    server = await startVigilServer({
      env: { VIGIL_REGISTRY_FETCH: 'true', VIGIL_NPM_REGISTRY_URL: `http://127.0.0.1:${port}`, VIGIL_REGISTRY_POLL_S: '1', VIGIL_REGISTRY_MAX_ATTEMPTS: '1' },
    });
    env = { VIGIL_BASE_URL: server.baseUrl, VIGIL_API_TOKEN: server.paidKey };
  }, 660_000);
  afterAll(async () => {
    await server?.stop();
    await new Promise((resolve) => registry?.close(resolve));
  });

  it('lists the failed fetches with the summary, filters and pages them, and retries one and all', async () => {
    for (const name of NAMES) {
      const asked = await run(['verify', `npm:${name}@1.0.0`]);
      expect(asked.code, asked.stderr).toBe(4);
    }
    const purls = NAMES.map((n) => `pkg:npm/${n}@1.0.0`);
    const failed = await until('both fetches to fail', async () => {
      const r = await run(['admin', 'registries', 'fetches', '--state', 'failed', '--all', '--json']);
      expect(r.code, r.stderr).toBe(0);
      const list = json<FetchList>(r);
      return purls.every((p) => list.fetches.some((f) => f.purl === p)) ? list : undefined;
    });
    expect(failed.counts.failed).toBeGreaterThanOrEqual(2);
    expect(failed.fetches.find((f) => f.purl === purls[0])).toMatchObject({ state: 'failed', attempts: 1, last_error: expect.stringMatching(/^not_found: /) });

    const human = await run(['admin', 'registries', 'fetches', '--state', 'failed']);
    expect(human.code, human.stderr).toBe(0);
    expect(human.stdout).toMatch(/^fetches +\d+ queued, \d+ running, \d+ stored, \d+ failed$/m);
    expect(human.stdout).toMatch(/^due now +/m);
    expect(human.stdout).toContain(purls[1]);

    // One page of one, then the hint for the next; pypi has none.
    const page = await run(['admin', 'registries', 'fetches', '--state', 'failed', '--page-size', '1', '--json']);
    expect(json<FetchList>(page).fetches).toHaveLength(1);
    expect(page.stderr).toMatch(/More: run again with --page \S+ \(or --all\)\./);
    expect(json<FetchList>(await run(['admin', 'registries', 'fetches', '--ecosystem', 'pypi', '--json'])).fetches).toEqual([]);

    const one = await run(['admin', 'registries', 'retry', `npm:${NAMES[0]}@1.0.0`]);
    expect(one.code, one.stderr).toBe(0);
    expect(one.stdout).toBe(`Retried 1 fetch(es): queued to be fetched now, attempts reset.\n  ${purls[0]}\n`);
    // It fails again (the registry still has nothing); then every failed one is retried at once.
    await until('the retried fetch to fail again', async () => {
      const list = json<FetchList>(await run(['admin', 'registries', 'fetches', '--state', 'failed', '--all', '--json']));
      return list.fetches.some((f) => f.purl === purls[0]) ? true : undefined;
    });
    const all = json<{ retried: number; purls: string[] }>(await run(['admin', 'registries', 'retry', '--failed', '--json']));
    expect(all.purls).toEqual(expect.arrayContaining(purls));
    expect(all.retried).toBe(all.purls.length);
  }, 120_000);

  it('refuses bad arguments before sending (exit 2) and names a fetch that is not there (404, exit 1)', async () => {
    for (const args of [['admin', 'registries', 'retry'], ['admin', 'registries', 'retry', 'npm:x@1.0.0', '--failed'], ['admin', 'registries', 'retry', 'not a purl'], ['admin', 'registries', 'fetches', '--state', 'done']]) {
      const r = await run(args);
      expect(r.code, `${args.join(' ')}: ${r.stderr}`).toBe(2);
      expect(r.stdout).toBe('');
    }
    const missing = await run(['admin', 'registries', 'retry', `npm:never-asked-${unique}@1.0.0`]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/^vigil: 404 registry fetch not found \(request id [0-9a-f-]+\)$/m);
  });
});
