import { createServer } from 'node:net';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createNpmRegistry } from './npm-registry.js';
import type { RegistrySettings } from './registry-settings.js';
import { startFaultProxy, type FaultProxy } from './test-support/fault-proxy.js';
import { startVerdaccio, writePackage, type Verdaccio } from './test-support/verdaccio.js';

let verdaccio: Verdaccio;
let proxy: FaultProxy;
let work: string;
let tarball: Buffer;
const isTarball = (path: string) => path.includes('/-/');

beforeAll(async () => {
  verdaccio = await startVerdaccio();
  work = await mkdtemp(join(tmpdir(), 'vigil-reg-faults-'));
  // Big enough that a cut in the middle of the body is a cut in the middle of the body.
  const filler = Array.from({ length: 4000 }, (_, i) => `exports.v${i} = ${i * 7919};`).join('\n');
  await verdaccio.publish(await writePackage(join(work, 'f'), { name: 'fault-pkg', version: '1.0.0' }, { 'index.js': filler }));
  tarball = await readFile(verdaccio.tarballPath('fault-pkg', '1.0.0'));
  proxy = await startFaultProxy(verdaccio.url);
}, 120_000);

afterEach(() => {
  proxy.setFault(null);
  proxy.seen.length = 0;
});

afterAll(async () => {
  await proxy?.close();
  await verdaccio?.stop();
  await rm(work, { recursive: true, force: true });
});

const connector = (settings: Partial<RegistrySettings> = {}) => createNpmRegistry({ url: proxy.url, backoffBaseMs: 40, retries: 2, metadataCacheEntries: 0, ...settings });

describe('npm connector under registry faults (through a real proxy in front of Verdaccio)', () => {
  it('retries a 500 with growing backoff and fetches once the registry recovers', async () => {
    expect(tarball.length).toBeGreaterThan(10_000);
    proxy.setFault({ kind: 'status', status: 500 }, { match: isTarball, times: 2 });
    const npm = connector();
    const result = await npm.fetch('fault-pkg', '1.0.0');
    npm.close();
    expect(result.state).toBe('fetched');
    expect(result.state === 'fetched' && result.bytes.equals(tarball)).toBe(true);
    const tries = proxy.seen.filter((request) => isTarball(request.path)).map((request) => request.at);
    expect(tries).toHaveLength(3);
    // Retry n waits between half and all of base·2^(n-1): 20–40 ms, then 40–80 ms.
    expect(tries[1]! - tries[0]!).toBeGreaterThanOrEqual(19);
    expect(tries[2]! - tries[1]!).toBeGreaterThanOrEqual(39);
    expect(npm.counters.retries).toBe(2);
  });

  it('turns a registry that keeps answering 500 into `registry_unavailable`, after every retry', async () => {
    proxy.setFault({ kind: 'status', status: 503 });
    const npm = connector();
    const result = await npm.fetch('fault-pkg', '1.0.0');
    npm.close();
    expect(result).toMatchObject({ state: 'registry_unavailable', reason: 'server_error', attempts: 3 });
    expect(proxy.seen).toHaveLength(3);
  });

  it('honours Retry-After on a 429', async () => {
    proxy.setFault({ kind: 'status', status: 429, retryAfter: '1' }, { times: 1 });
    const npm = connector();
    const started = performance.now();
    const result = await npm.fetch('fault-pkg', '1.0.0');
    npm.close();
    expect(result.state).toBe('fetched');
    expect(performance.now() - started).toBeGreaterThanOrEqual(990);
  });

  it('gives up at once on a Retry-After longer than the longest backoff', async () => {
    proxy.setFault({ kind: 'status', status: 429, retryAfter: '3600' });
    const npm = connector({ backoffMaxMs: 2_000 });
    const result = await npm.fetch('fault-pkg', '1.0.0');
    npm.close();
    expect(result).toMatchObject({ state: 'registry_unavailable', reason: 'rate_limited', attempts: 1 });
  });

  it('does not retry a 4xx', async () => {
    proxy.setFault({ kind: 'status', status: 403 });
    const npm = connector();
    const result = await npm.fetch('fault-pkg', '1.0.0');
    npm.close();
    expect(result).toMatchObject({ state: 'registry_refused', status: 403 });
    expect(proxy.seen).toHaveLength(1);
  });

  it('times a hanging registry out', async () => {
    proxy.setFault({ kind: 'hang' }, { match: isTarball });
    const npm = connector({ responseTimeoutMs: 300, retries: 1 });
    const result = await npm.fetch('fault-pkg', '1.0.0');
    npm.close();
    expect(result).toMatchObject({ state: 'registry_unavailable', reason: 'timeout', attempts: 2 });
    expect('bytes' in result).toBe(false);
  });

  it('returns nothing when the connection is reset in the middle of the tarball', async () => {
    proxy.setFault({ kind: 'reset_mid_body', afterBytes: 5_000 }, { match: isTarball });
    const npm = connector();
    const result = await npm.fetch('fault-pkg', '1.0.0');
    npm.close();
    expect(result).toMatchObject({ state: 'registry_unavailable', reason: 'reset', attempts: 3 });
    expect('bytes' in result).toBe(false);
  });

  it('returns nothing for a tarball that ends before its Content-Length', async () => {
    proxy.setFault({ kind: 'truncate', keepBytes: 5_000 }, { match: isTarball });
    const npm = connector();
    const result = await npm.fetch('fault-pkg', '1.0.0');
    npm.close();
    expect(result).toMatchObject({ state: 'registry_unavailable', reason: 'truncated', attempts: 3 });
  });

  it('recovers from a truncated answer on retry', async () => {
    proxy.setFault({ kind: 'truncate', keepBytes: 100 }, { match: isTarball, times: 1 });
    const npm = connector();
    const result = await npm.fetch('fault-pkg', '1.0.0');
    npm.close();
    expect(result.state === 'fetched' && result.bytes.equals(tarball)).toBe(true);
  });

  it('refuses before reading when the Content-Length is over the limit', async () => {
    proxy.setFault({ kind: 'content_length', value: 10 * 1024 * 1024 * 1024 }, { match: isTarball });
    const npm = connector({ maxArtifactBytes: 1024 * 1024 });
    const result = await npm.fetch('fault-pkg', '1.0.0');
    npm.close();
    expect(result).toMatchObject({ state: 'too_large', limit_bytes: 1024 * 1024, declared_bytes: 10 * 1024 * 1024 * 1024 });
    expect(npm.counters.tooLarge).toBe(1);
  });

  it('holds the limit on bytes that arrive, whatever the packument and the headers say', async () => {
    proxy.setFault({ kind: 'chunked' }, { match: isTarball });
    const npm = createNpmRegistry({ url: proxy.url, maxArtifactBytes: 4_096 });
    // The packument says the package is tiny; the registry sends more than the limit without a length.
    const result = await npm.fetch('fault-pkg', '1.0.0');
    npm.close();
    expect(result).toMatchObject({ state: 'too_large', limit_bytes: 4_096, declared_bytes: null });
  });

  it('returns nothing for an answer with more bytes than its Content-Length says', async () => {
    proxy.setFault({ kind: 'content_length', value: 1_000 }, { match: isTarball });
    const npm = connector();
    const result = await npm.fetch('fault-pkg', '1.0.0');
    npm.close();
    expect(result).toMatchObject({ state: 'registry_unavailable', reason: 'invalid_response', attempts: 3 });
  });

  it('refuses a packument whose version has no digest at all', async () => {
    proxy.setFault({ kind: 'rewrite_json', edit: (doc) => {
      const dist = (doc.versions as Record<string, { dist: Record<string, unknown> }>)['1.0.0']!.dist;
      delete dist.integrity;
      delete dist.shasum;
    } }, { match: (path) => !isTarball(path) });
    const npm = connector();
    expect(await npm.fetch('fault-pkg', '1.0.0')).toMatchObject({ state: 'invalid_metadata' });
    npm.close();
  });

  it('keeps at most `concurrency` requests open at a slow registry', async () => {
    proxy.setFault({ kind: 'delay', ms: 60 });
    proxy.resetPeak();
    const npm = connector({ concurrency: 3 });
    const results = await Promise.all(Array.from({ length: 12 }, () => npm.fetch('fault-pkg', '1.0.0')));
    npm.close();
    expect(results.every((result) => result.state === 'fetched')).toBe(true);
    expect(proxy.peakInFlight).toBe(3);
  });

  it('paces requests to the rate limit', async () => {
    const npm = connector({ requestsPerSecond: 10, burst: 2 });
    const started = performance.now();
    // 3 fetches are 6 requests: 2 from the burst, 4 more at 10 per second.
    await Promise.all(Array.from({ length: 3 }, () => npm.fetch('fault-pkg', '1.0.0')));
    npm.close();
    expect(performance.now() - started).toBeGreaterThanOrEqual(390);
  });

  it('answers hostile packuments as states, never by throwing', async () => {
    const npm = connector();
    const versions = (doc: Record<string, unknown>) => doc.versions as Record<string, Record<string, unknown> | null>;
    const cases: [(doc: Record<string, unknown>) => void, string, string][] = [
      [(doc) => (versions(doc)['1.0.0'] = null), '1.0.0', 'invalid_metadata'],
      [(doc) => (versions(doc)['1.0.0']!.dist = null), '1.0.0', 'invalid_metadata'],
      [(doc) => ((versions(doc)['1.0.0']!.dist as Record<string, unknown>).tarball = 'file:///etc/passwd'), '1.0.0', 'invalid_metadata'],
      [(doc) => ((versions(doc)['1.0.0']!.dist as Record<string, unknown>).tarball = 'http://[not-a-host'), '1.0.0', 'invalid_metadata'],
      [(doc) => (doc['dist-tags'] = null), 'latest', 'version_not_found'],
      [(doc) => (doc['dist-tags'] = { latest: { not: 'a version' } }), 'latest', 'version_not_found'],
      [(doc) => (doc.time = null), '9.9.9', 'version_not_found'],
      [(doc) => (doc.versions = 'none'), '1.0.0', 'invalid_metadata'],
      [(doc) => ((doc.time = { unpublished: null }), (doc.versions = {})), '1.0.0', 'unpublished'],
    ];
    for (const [edit, version, state] of cases) {
      proxy.setFault({ kind: 'rewrite_json', edit }, { match: (path) => !isTarball(path) });
      expect(await npm.fetch('fault-pkg', version)).toMatchObject({ state });
    }
    npm.close();
  });

  it('does not follow a redirect to a non-HTTP URL, nor to something that is not a URL', async () => {
    proxy.setFault({ kind: 'status', status: 302, location: 'file:///etc/passwd' }, { match: isTarball });
    const npm = connector();
    expect(await npm.fetch('fault-pkg', '1.0.0')).toMatchObject({ state: 'registry_unavailable', reason: 'invalid_response', attempts: 1 });
    proxy.setFault({ kind: 'status', status: 302, location: 'http://[not-a-host' }, { match: isTarball });
    expect(await npm.fetch('fault-pkg', '1.0.0')).toMatchObject({ state: 'registry_unavailable', reason: 'invalid_response', attempts: 1 });
    npm.close();
  });

  it('honours Retry-After on a 503, and ends as rate_limited when it asks for more than backoffMaxMs', async () => {
    proxy.setFault({ kind: 'status', status: 503, retryAfter: '1' }, { match: isTarball, times: 1 });
    const npm = connector();
    const started = performance.now();
    expect((await npm.fetch('fault-pkg', '1.0.0')).state).toBe('fetched');
    expect(performance.now() - started).toBeGreaterThanOrEqual(990);
    proxy.setFault({ kind: 'status', status: 503, retryAfter: '100' }, { match: isTarball });
    proxy.seen.length = 0;
    expect(await npm.fetch('fault-pkg', '1.0.0')).toMatchObject({ state: 'registry_unavailable', reason: 'rate_limited', attempts: 1 });
    expect(proxy.seen.filter((request) => isTarball(request.path))).toHaveLength(1);
    npm.close();
  });

  it('refuses a version manifest that names another package or version', async () => {
    const npm = connector();
    const manifest = (doc: Record<string, unknown>) => (doc.versions as Record<string, Record<string, unknown>>)['1.0.0']!;
    for (const edit of [(doc: Record<string, unknown>) => (manifest(doc).name = 'EVIL'), (doc: Record<string, unknown>) => (manifest(doc).version = '6.6.6'), (doc: Record<string, unknown>) => delete manifest(doc).name]) {
      proxy.setFault({ kind: 'rewrite_json', edit }, { match: (path) => !isTarball(path) });
      proxy.seen.length = 0;
      expect(await npm.fetch('fault-pkg', '1.0.0')).toMatchObject({ state: 'invalid_metadata' });
      expect(proxy.seen.some((request) => isTarball(request.path))).toBe(false);
    }
    npm.close();
  });

  it('never requests a tarball URL with credentials or on a link-local (cloud metadata) address', async () => {
    const npm = connector({ token: 'secret' });
    const proxied = new URL(proxy.url);
    for (const tarball of [`http://u:p@${proxied.host}/fault-pkg/-/fault-pkg-1.0.0.tgz`, 'http://169.254.169.254/latest/meta-data', 'http://[fe80::1]/x.tgz', 'http://metadata.google.internal/x.tgz']) {
      proxy.setFault({ kind: 'rewrite_json', edit: (doc) => (((doc.versions as Record<string, { dist: Record<string, unknown> }>)['1.0.0']!.dist.tarball = tarball)) }, { match: (path) => !isTarball(path) });
      proxy.seen.length = 0;
      expect(await npm.fetch('fault-pkg', '1.0.0'), tarball).toMatchObject({ state: 'invalid_metadata' });
      expect(proxy.seen.some((request) => isTarball(request.path))).toBe(false);
    }
    npm.close();
  });

  it('does not follow a redirect to a link-local address or to a URL with credentials', async () => {
    const npm = connector();
    const proxied = new URL(proxy.url);
    for (const location of ['http://169.254.169.254/latest/meta-data', `http://u:p@${proxied.host}/fault-pkg/-/fault-pkg-1.0.0.tgz`]) {
      proxy.setFault({ kind: 'status', status: 302, location }, { match: isTarball, times: 1 });
      proxy.seen.length = 0;
      expect(await npm.fetch('fault-pkg', '1.0.0'), location).toMatchObject({ state: 'registry_unavailable', reason: 'invalid_response', attempts: 1 });
      expect(proxy.seen.filter((request) => isTarball(request.path))).toHaveLength(1);
    }
    npm.close();
  });

  it('answers unpublished for a dist-tag left pointing at a removed version the registry still dates', async () => {
    const npm = connector();
    proxy.setFault({ kind: 'rewrite_json', edit: (doc) => {
      (doc['dist-tags'] as Record<string, string>).gone = '0.9.0';
      (doc.time as Record<string, string>)['0.9.0'] = '2020-01-01T00:00:00.000Z';
    } }, { match: (path) => !isTarball(path) });
    expect(await npm.fetch('fault-pkg', 'gone')).toMatchObject({ state: 'unpublished', unpublished_at: null });
    npm.close();
  });

  it('reads a tarball that answers 410 as invalid_metadata', async () => {
    proxy.setFault({ kind: 'status', status: 410 }, { match: isTarball });
    const npm = connector();
    expect(await npm.fetch('fault-pkg', '1.0.0')).toMatchObject({ state: 'invalid_metadata' });
    npm.close();
  });

  it('treats a cache whose get is async as a miss instead of sending its Promise as If-None-Match', async () => {
    const store = new Map<string, unknown>();
    const cache = { get: async (key: string) => store.get(key), set: (key: string, value: unknown) => void store.set(key, value) };
    const npm = createNpmRegistry({ url: proxy.url, retries: 0 }, { cache: cache as never });
    expect((await npm.fetch('fault-pkg', '1.0.0')).state).toBe('fetched');
    expect((await npm.fetch('fault-pkg', '1.0.0')).state).toBe('fetched');
    npm.close();
  });

  it('answers `connect_failed` for a registry that is not listening', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as { port: number }).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const npm = createNpmRegistry({ url: `http://127.0.0.1:${port}`, retries: 1, backoffBaseMs: 10 });
    expect(await npm.fetch('fault-pkg', '1.0.0')).toMatchObject({ state: 'registry_unavailable', reason: 'connect_failed', attempts: 2 });
    npm.close();
  });
});
