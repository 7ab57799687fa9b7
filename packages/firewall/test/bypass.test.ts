/**
 * The outsider's bypasses (F1, F3, F6): a lenient upstream that serves a tarball's bytes for any
 * path ending in `.tgz` (some registries and proxies do), Vigil unreachable or hanging. Every
 * spelling of a tarball path is decided; a path the firewall does not recognise never reaches the
 * upstream; `wait` is bounded by the wall clock even while Vigil hangs.
 */
import { createServer, request, type IncomingMessage, type ServerResponse } from 'node:http';
import { createServer as createTcpServer, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { startFirewall, type DecisionLogEntry, type Firewall, type FirewallOptions } from '../src/index.js';

const VIGIL_DOWN = 'http://127.0.0.1:9';
const KEY = 'vgl_00000000_000000000000000000000000000000000000000000000000';
const BYTES = Buffer.from('the blocked tarball');
const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

/** An upstream that answers every `.tgz` path with the bytes and records what it was asked. */
async function lenientUpstream(): Promise<{ url: string; seen: string[] }> {
  const seen: string[] = [];
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    seen.push(`${req.method} ${req.url}`);
    if (/\.tgz\/?$/.test(req.url ?? '')) res.writeHead(200, { 'content-type': 'application/octet-stream' }).end(BYTES);
    else res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  closers.push(() => new Promise<void>((r) => { server.closeAllConnections(); server.close(() => r()); }));
  return { url: `http://127.0.0.1:${(server.address() as { port: number }).port}`, seen };
}

async function firewall(options: Partial<FirewallOptions> & { npmUpstream: string }): Promise<{ fw: Firewall; log: DecisionLogEntry[] }> {
  const log: DecisionLogEntry[] = [];
  const fw = await startFirewall({ vigilUrl: VIGIL_DOWN, apiKey: KEY, mode: 'fail-closed', vigilTimeoutMs: 1_000, onDecision: (e) => log.push(e), ...options });
  closers.push(() => fw.close());
  return { fw, log };
}

/** A GET with node:http, so the path reaches the firewall exactly as written (fetch would normalise `//` and `..`). */
function rawGet(base: string, path: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(`${base}/`, { path }, (res) => {
      let body = '';
      res.on('data', (d: Buffer) => (body += d.toString()));
      res.on('end', () => resolve({ status: res.statusCode!, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('paths the firewall does not recognise (outsider F1)', () => {
  it('decides every spelling of a tarball path: trailing and duplicate slashes, escapes', async () => {
    const up = await lenientUpstream();
    const { fw, log } = await firewall({ npmUpstream: up.url });
    for (const path of ['/fw-roll/-/fw-roll-1.1.0.tgz/', '//fw-roll//-//fw-roll-1.1.0.tgz', '/fw-roll/%2D/fw-roll-1.1.0%2Etgz', '/%66w-roll/-/fw-roll-1.1.0.tgz']) {
      const answer = await rawGet(fw.url, path);
      expect(answer.status, path).toBe(403);
      expect(JSON.parse(answer.body), path).toMatchObject({ package: 'fw-roll', version: '1.1.0', decision: 'block', purl: 'pkg:npm/fw-roll@1.1.0' });
    }
    expect(log.filter((e) => e.package === 'fw-roll' && e.version === '1.1.0' && e.decision === 'block')).toHaveLength(4);
    expect(up.seen).toEqual([]);
  });

  it('refuses (404) a path under a package that is not one of its tarballs, without asking the upstream', async () => {
    const up = await lenientUpstream();
    const { fw } = await firewall({ npmUpstream: up.url, mode: 'fail-open' });
    for (const path of ['/fw-roll/-/other-1.1.0.tgz', '/fw-roll/-/rev/1/fw-roll-1.1.0.tgz', '/@s/fw-roll/-/x/fw-roll-1.1.0.tgz', '/fw-roll/1.1.0', '/fw-roll/-/fw-roll-1.1.0.tgz/x', '/-/all', '/a/../fw-roll/-/fw-roll-1.1.0.tgz', '/./fw-roll/-/fw-roll-1.1.0.tgz']) {
      const answer = await rawGet(fw.url, path);
      expect(answer.status, path).toBe(404);
      expect(JSON.parse(answer.body).error, path).toMatch(/^Vigil firewall: not passed through: GET \S+ is .+ \(request fw_[A-Za-z0-9_-]{16}\)$/);
    }
    const publish = await fetch(`${fw.url}/fw-roll`, { method: 'PUT', body: '{}' });
    expect(publish.status).toBe(404);
    expect(up.seen).toEqual([]);
  });

  it('passes the listed npm API endpoints through', async () => {
    const up = await lenientUpstream();
    const { fw } = await firewall({ npmUpstream: up.url });
    for (const path of ['/-/ping', '/-/whoami', '/-/v1/search?text=x', '/-/npm/v1/security/audits/quick', '/-/user/org.couchdb.user:ofw']) expect((await fetch(`${fw.url}${path}`)).status, path).toBe(200);
    expect(up.seen).toEqual(['GET /-/ping', 'GET /-/whoami', 'GET /-/v1/search?text=x', 'GET /-/npm/v1/security/audits/quick', 'GET /-/user/org.couchdb.user:ofw']);
  });

  it('the PyPI side normalises its paths the same way', async () => {
    const up = await lenientUpstream();
    const { fw } = await firewall({ npmUpstream: up.url, pypiUpstream: `${up.url}/simple` });
    // The first is read as /pypi/files/x/x-1.0.tgz: decided by the upstream's page (here not a simple page: 502), never fetched blind.
    expect((await rawGet(fw.url, '/pypi//files/x/x-1.0.tgz/')).status).toBe(502);
    for (const path of ['/pypi/files/x/x-1.0.tgz/extra', '/pypi/other/x/x-1.0.tgz', '/pypi/files/x/..%2fx-1.0.tgz']) {
      const answer = await rawGet(fw.url, path);
      expect(answer.status, path).toBe(404);
    }
    expect(up.seen.filter((s) => s.endsWith('.tgz'))).toEqual([]);
  });
});

describe('Vigil unavailable', () => {
  it('the 403 names the canonical purl (outsider F6)', async () => {
    const up = await lenientUpstream();
    const { fw } = await firewall({ npmUpstream: up.url });
    const body = (await (await fetch(`${fw.url}/@s/fw-bad/-/fw-bad-1.0.0.tgz`)).json()) as { purl: string; dashboard_url: string };
    expect(body.purl).toBe('pkg:npm/%40s/fw-bad@1.0.0');
    expect(body.dashboard_url).toContain(`purl=${encodeURIComponent('pkg:npm/%40s/fw-bad@1.0.0')}`);
  });

  it('wait mode with Vigil hanging answers at waitSeconds, not after Vigil’s own timeouts (outsider F3)', async () => {
    const sockets: Socket[] = [];
    const hang = createTcpServer((s) => {
      sockets.push(s);
      s.on('error', () => {});
    });
    await new Promise<void>((r) => hang.listen(0, '127.0.0.1', r));
    closers.push(() => new Promise<void>((r) => { sockets.forEach((s) => s.destroy()); hang.close(() => r()); }));
    const up = await lenientUpstream();
    const { fw, log } = await firewall({ npmUpstream: up.url, vigilUrl: `http://127.0.0.1:${(hang.address() as { port: number }).port}`, mode: 'wait', waitSeconds: 2, vigilTimeoutMs: 10_000 });
    const started = Date.now();
    const answer = await fetch(`${fw.url}/fw-x/-/fw-x-1.0.0.tgz`);
    const took = Date.now() - started;
    expect(answer.status).toBe(403);
    expect(took).toBeLessThan(5_000);
    const reason = ((await answer.json()) as { reason: string }).reason;
    expect(reason).toBe('Vigil unavailable: no answer within 2 s; still so after waiting 2 s (mode wait)');
    expect(log).toEqual([expect.objectContaining({ package: 'fw-x', decision: 'block', reason })]);
  });
});
