/**
 * The firewall's failure modes against upstreams that misbehave on purpose (a closed port, one that
 * never answers, one that stalls mid-tarball, one that sends slowly) and a client that goes away.
 * Vigil is unreachable here (a closed port) with mode fail-open, the real path by which downloads
 * are let through when Vigil cannot be asked (docs/firewall.md "Failure modes").
 */
import { createHash, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createTcpServer, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { startFirewall, type DecisionLogEntry, type Firewall } from '../src/index.js';

const VIGIL_DOWN = 'http://127.0.0.1:9';
const KEY = 'vgl_00000000_000000000000000000000000000000000000000000000000';
const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

async function upstream(handler: (req: IncomingMessage, res: ServerResponse) => void): Promise<{ url: string; server: Server }> {
  const server = createServer(handler);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  closers.push(() => new Promise<void>((r) => { server.closeAllConnections(); server.close(() => r()); }));
  return { url: `http://127.0.0.1:${(server.address() as { port: number }).port}`, server };
}

async function firewall(npmUpstream: string, extra: { upstreamTimeoutMs?: number } = {}): Promise<{ fw: Firewall; log: DecisionLogEntry[] }> {
  const log: DecisionLogEntry[] = [];
  const fw = await startFirewall({ npmUpstream, vigilUrl: VIGIL_DOWN, apiKey: KEY, mode: 'fail-open', vigilTimeoutMs: 1_000, onDecision: (e) => log.push(e), ...extra });
  closers.push(() => fw.close());
  return { fw, log };
}

describe('the firewall when the upstream or the client fails', () => {
  it('upstream refusing connections: 502 at once, for packuments and tarballs', async () => {
    const { fw } = await firewall('http://127.0.0.1:9');
    const packument = await fetch(`${fw.url}/left-pad`);
    expect(packument.status).toBe(502);
    const body = (await packument.json()) as { error: string };
    expect(body.error).toMatch(/^Vigil firewall: the upstream registry is unreachable: ECONNREFUSED \(request fw_[A-Za-z0-9_-]{16}\)$/);
    expect(body.error).toContain(packument.headers.get('x-request-id')!);
    const tarball = await fetch(`${fw.url}/left-pad/-/left-pad-1.3.0.tgz`);
    expect(tarball.status).toBe(502);
  });

  it('upstream accepting but never answering: 504 after upstreamTimeoutMs, not a hang', async () => {
    const silent = createTcpServer((socket: Socket) => socket.on('error', () => {}));
    await new Promise<void>((r) => silent.listen(0, '127.0.0.1', r));
    closers.push(() => new Promise<void>((r) => silent.close(() => r())));
    const sockets: Socket[] = [];
    silent.on('connection', (s) => sockets.push(s));
    closers.push(async () => sockets.forEach((s) => s.destroy()));
    const { fw } = await firewall(`http://127.0.0.1:${(silent.address() as { port: number }).port}`, { upstreamTimeoutMs: 500 });
    const answer = await fetch(`${fw.url}/left-pad`, { signal: AbortSignal.timeout(10_000) });
    expect(answer.status).toBe(504);
    expect(((await answer.json()) as { error: string }).error).toMatch(/^Vigil firewall: the upstream registry gave no answer within 0.5 s \(request fw_/);
  });

  it('a tarball passes byte for byte; a stall mid-tarball cuts the download instead of hanging', async () => {
    const bytes = randomBytes(3 * 1024 * 1024);
    const { url } = await upstream((req, res) => {
      if (req.url === '/whole/-/whole-1.0.0.tgz') {
        res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': bytes.length });
        res.end(bytes);
      } else if (req.url === '/stall/-/stall-1.0.0.tgz') {
        res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': bytes.length });
        res.write(bytes.subarray(0, 1024)); // and nothing more
      } else res.writeHead(404).end();
    });
    const { fw, log } = await firewall(url, { upstreamTimeoutMs: 500 });
    const whole = Buffer.from(await (await fetch(`${fw.url}/whole/-/whole-1.0.0.tgz`)).arrayBuffer());
    expect(createHash('sha256').update(whole).digest('hex')).toBe(createHash('sha256').update(bytes).digest('hex'));
    expect(log).toContainEqual(expect.objectContaining({ package: 'whole', version: '1.0.0', decision: 'allow', reason: expect.stringMatching(/^Vigil unavailable: .*; mode fail-open$/) }));
    const stalled = await fetch(`${fw.url}/stall/-/stall-1.0.0.tgz`, { signal: AbortSignal.timeout(10_000) });
    expect(stalled.status).toBe(200);
    await expect(stalled.arrayBuffer()).rejects.toThrow();
  });

  it('a client going away mid-tarball aborts the upstream request', async () => {
    let upstreamClosedEarly: () => void;
    const closedEarly = new Promise<void>((r) => (upstreamClosedEarly = r));
    const { url } = await upstream((req, res) => {
      res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': 64 * 1024 * 100 });
      const timer = setInterval(() => res.write(randomBytes(64 * 1024)), 50);
      res.once('close', () => {
        clearInterval(timer);
        if (!res.writableFinished) upstreamClosedEarly();
      });
    });
    const { fw } = await firewall(url);
    const controller = new AbortController();
    const answer = await fetch(`${fw.url}/slow/-/slow-1.0.0.tgz`, { signal: controller.signal });
    const reader = answer.body!.getReader();
    await reader.read();
    controller.abort();
    await expect(Promise.race([closedEarly.then(() => 'aborted'), new Promise((r) => setTimeout(() => r('still sending'), 5_000))])).resolves.toBe('aborted');
  });

  it('passes other requests through; refuses bad settings at start', async () => {
    const { url } = await upstream((req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ method: req.method, url: req.url, auth: req.headers.authorization ?? null })));
    const { fw } = await firewall(url);
    const audit = await fetch(`${fw.url}/-/npm/v1/security/advisories/bulk?x=1`, { method: 'POST', body: '{}', headers: { authorization: 'Bearer npm-token' } });
    expect(await audit.json()).toEqual({ method: 'POST', url: '/-/npm/v1/security/advisories/bulk?x=1', auth: 'Bearer npm-token' });
    await expect(startFirewall({ npmUpstream: 'ftp://x', vigilUrl: VIGIL_DOWN, apiKey: KEY })).rejects.toThrow(/^npmUpstream: must be an http or https URL/);
    await expect(startFirewall({ npmUpstream: url, vigilUrl: VIGIL_DOWN, apiKey: KEY, mode: 'maybe' as never })).rejects.toThrow(/^mode: expected one of fail-open, fail-closed, wait/);
    await expect(startFirewall({ npmUpstream: url, vigilUrl: VIGIL_DOWN, apiKey: KEY, cooldownHours: -1 })).rejects.toThrow(/^cooldownHours: expected a number from 0 to 8760/);
  });
});

describe('the PyPI side’s paths', () => {
  it('answers 404 for a path under /pypi/simple/ or /pypi/files/ that is not a page or a file', async () => {
    const { url } = await upstream((_req, res) => res.writeHead(500).end());
    const fw = await startFirewall({ npmUpstream: url, pypiUpstream: `${url}/simple`, vigilUrl: VIGIL_DOWN, apiKey: KEY });
    closers.push(() => fw.close());
    for (const [method, path] of [['GET', '/pypi/simple/'], ['GET', '/pypi/files/x/'], ['POST', '/pypi/simple/x/']] as const) {
      const answer = await fetch(`${fw.url}${path}`, { method });
      expect(answer.status, `${method} ${path}`).toBe(404);
      expect(((await answer.json()) as { error: string }).error).toMatch(new RegExp(`^Vigil firewall: not a simple page or file path: ${path.replace(/\//g, '\\/')} \\(request fw_`));
    }
  });
});
