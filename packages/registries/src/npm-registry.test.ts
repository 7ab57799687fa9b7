import { createHash } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fetchPackageRef } from './fetch-package-ref.js';
import { createNpmRegistry, type NpmRegistry } from './npm-registry.js';
import type { RegistryFailure } from './registry-states.js';
import { publishNpmFixtures } from './test-support/npm-fixtures.js';
import { editStoredPackument, startVerdaccio, writePackage, type Verdaccio } from './test-support/verdaccio.js';

let verdaccio: Verdaccio;
let work: string;
let npm: NpmRegistry;
const refused: { name: string; version: string; failure: RegistryFailure }[] = [];

beforeAll(async () => {
  verdaccio = await startVerdaccio();
  work = await mkdtemp(join(tmpdir(), 'vigil-reg-npm-'));
  await publishNpmFixtures(verdaccio, work);
  npm = createNpmRegistry({ url: verdaccio.url, backoffBaseMs: 10 }, { onRefused: (event) => refused.push(event) });
}, 180_000);

afterAll(async () => {
  npm?.close();
  await verdaccio?.stop();
  await rm(work, { recursive: true, force: true });
});

describe('npm connector against a real Verdaccio', () => {
  it('fetches a version, checks integrity and shasum, and returns the stored bytes', async () => {
    const result = await npm.fetch('plain-pkg', '1.0.0');
    if (result.state !== 'fetched') throw new Error(JSON.stringify(result));
    const stored = await readFile(verdaccio.tarballPath('plain-pkg', '1.0.0'));
    expect(result.bytes.equals(stored)).toBe(true);
    expect(result.sha512).toBe(createHash('sha512').update(stored).digest('hex'));
    expect(result.sha1).toBe(createHash('sha1').update(stored).digest('hex'));
    expect(result.verified_against).toEqual(['integrity', 'shasum']);
    expect(result.purl).toBe('pkg:npm/plain-pkg@1.0.0');
    expect(result.deprecated).toBeNull();
    expect(result.published_at).toMatch(/^\d{4}-/);
    expect(result.attestations_state).toBe('none');
    expect(result.track).toEqual({ track: 'packages', reason: 'none' });
  });

  it('resolves dist-tags to versions', async () => {
    const latest = await npm.fetch('plain-pkg', 'latest');
    const next = await npm.fetch('plain-pkg', 'next');
    expect(latest.state === 'fetched' && latest.version).toBe('1.0.0');
    expect(next.state === 'fetched' && next.version).toBe('1.1.0');
  });

  it('reads a scoped package through @scope%2fname', async () => {
    const result = await npm.fetch('@vigil-test/scoped', '2.0.0');
    if (result.state !== 'fetched') throw new Error(JSON.stringify(result));
    expect(result.purl).toBe('pkg:npm/%40vigil-test/scoped@2.0.0');
    expect(result.bytes.equals(await readFile(verdaccio.tarballPath('@vigil-test/scoped', '2.0.0')))).toBe(true);
  });

  it('fetches what an npm purl or short reference names', async () => {
    expect(await fetchPackageRef({ npm }, 'pkg:npm/%40vigil-test/scoped@2.0.0')).toMatchObject({ state: 'fetched', name: '@vigil-test/scoped', version: '2.0.0' });
    expect(await fetchPackageRef({ npm }, 'npm:plain-pkg@1.1.0')).toMatchObject({ state: 'fetched', purl: 'pkg:npm/plain-pkg@1.1.0' });
    expect(await fetchPackageRef({ npm }, 'npm:plain-pkg')).toEqual({ state: 'unsupported', detail: 'pkg:npm/plain-pkg: no version; a registry fetch needs one' });
    expect(await fetchPackageRef({ npm }, 'pkg:github/acme/left-pad@v1')).toEqual({ state: 'unsupported', detail: 'pkg:github/acme/left-pad@v1: Vigil fetches npm and PyPI packages only' });
    expect((await fetchPackageRef({ npm }, 'not a reference')).state).toBe('unsupported');
  });

  it('fetches a deprecated version with its message', async () => {
    const result = await npm.fetch('old-pkg', '1.0.0');
    expect(result.state).toBe('fetched');
    expect(result.state === 'fetched' && result.deprecated).toBe('use 2.x: 1.x leaks memory');
    const current = await npm.fetch('old-pkg', '2.0.0');
    expect(current.state === 'fetched' && current.deprecated).toBeNull();
  });

  it('answers a version unpublished with `npm unpublish` as `unpublished`, a never-published one as `version_not_found`', async () => {
    expect((await npm.fetch('gone-pkg', '1.0.0')).state).toBe('fetched');
    await verdaccio.npm(['unpublish', 'gone-pkg@1.0.0']);
    const gone = await npm.fetch('gone-pkg', '1.0.0');
    expect(gone).toMatchObject({ state: 'unpublished', detail: 'gone-pkg@1.0.0: unpublished (served earlier, gone since)' });
    expect(gone.state === 'unpublished' && gone.unpublished_at).toMatch(/^\d{4}-/);
    expect((await npm.fetch('gone-pkg', '1.0.1')).state).toBe('fetched');
    expect((await npm.fetch('gone-pkg', '9.9.9')).state).toBe('version_not_found');
    expect((await npm.fetch('no-such-pkg', '1.0.0')).state).toBe('not_found');
    // Verdaccio erases every trace of an unpublished version: a connector that never saw it cannot tell.
    const fresh = createNpmRegistry({ url: verdaccio.url });
    expect((await fresh.fetch('gone-pkg', '1.0.0')).state).toBe('version_not_found');
    // The public registry keeps `time[version]` after an unpublish: that alone says `unpublished`.
    await editStoredPackument(verdaccio, 'gone-pkg', (doc) => {
      doc.time['1.0.0'] = '2020-01-01T00:00:00.000Z';
    });
    expect(await fresh.fetch('gone-pkg', '1.0.0')).toMatchObject({ state: 'unpublished', unpublished_at: null });
    fresh.close();
  });

  it('refuses a tarball whose bytes do not match the packument integrity, and counts it', async () => {
    const before = npm.counters.integrityMismatches;
    const result = await npm.fetch('tampered-pkg', '1.0.0');
    expect(result.state).toBe('integrity_mismatch');
    expect('bytes' in result).toBe(false);
    if (result.state !== 'integrity_mismatch') return;
    expect(result.expected).toMatch(/^sha512-/);
    expect(result.actual).toBe(`sha512-${createHash('sha512').update(await readFile(verdaccio.tarballPath('tampered-pkg', '1.0.0'))).digest('base64')}`);
    expect(npm.counters.integrityMismatches).toBe(before + 1);
    expect(refused.at(-1)).toMatchObject({ name: 'tampered-pkg', version: '1.0.0', failure: { state: 'integrity_mismatch' } });
  });

  it('chooses the track from the package.json and files in the tarball', async () => {
    const mcp = await npm.fetch('weather-mcp', '0.1.0');
    expect(mcp.state === 'fetched' && mcp.track).toEqual({ track: 'mcp_servers', reason: 'manifest field mcpName' });
    const skill = await npm.fetch('pdf-skill', '0.1.0');
    expect(skill.state === 'fetched' && skill.track).toEqual({ track: 'skills', reason: 'SKILL.md at the package root' });
  });

  it('revalidates a packument with If-None-Match and answers a 304 from the cache', async () => {
    const first = await npm.packument('old-pkg');
    expect(first.state).toBe('ok');
    if (first.state !== 'ok') return;
    expect(first.etag).not.toBeNull();
    const before = npm.counters.notModified;
    const second = await npm.packument('old-pkg');
    expect(second.state === 'ok' && second.not_modified).toBe(true);
    expect(npm.counters.notModified).toBe(before + 1);
    expect(second.state === 'ok' && second.packument.versions['1.0.0']?.deprecated).toBe('use 2.x: 1.x leaks memory');
  });

  it('sees a new version after a publish (the cached ETag no longer matches)', async () => {
    await npm.packument('plain-pkg');
    await verdaccio.publish(await writePackage(join(work, 'plain-3'), { name: 'plain-pkg', version: '1.2.0' }, { 'index.js': '3;\n' }));
    const fresh = await npm.packument('plain-pkg');
    expect(fresh.state === 'ok' && fresh.not_modified).toBe(false);
    expect(fresh.state === 'ok' && Object.keys(fresh.packument.versions)).toContain('1.2.0');
  });

  it('revalidates an answer the caller kept (revalidate), not the cache: a 304 answers the kept document', async () => {
    const first = await npm.packument('old-pkg', { form: 'abbreviated' });
    if (first.state !== 'ok' || first.etag === null) throw new Error(JSON.stringify(first));
    // A fresh connector has an empty cache: only the kept ETag can make the registry answer 304.
    const other = createNpmRegistry({ url: verdaccio.url, metadataCacheEntries: 0 });
    try {
      const kept = { etag: first.etag, document: { name: 'old-pkg', versions: { '1.0.0': {} } } };
      const again = await other.packument('old-pkg', { form: 'abbreviated', revalidate: kept });
      expect(again.state === 'ok' && again.not_modified).toBe(true);
      expect(again.state === 'ok' && Object.keys(again.packument.versions)).toEqual(['1.0.0']);
      expect(other.counters.notModified).toBe(1);
      const stale = await other.packument('old-pkg', { form: 'abbreviated', revalidate: { etag: '"not-the-current-etag"', document: {} } });
      expect(stale.state === 'ok' && stale.not_modified).toBe(false);
      expect(stale.state === 'ok' && Object.keys(stale.packument.versions).length).toBeGreaterThan(0);
    } finally {
      other.close();
    }
  });

  it('reads the abbreviated packument form', async () => {
    const result = await npm.packument('plain-pkg', { form: 'abbreviated' });
    expect(result.state).toBe('ok');
    expect(result.state === 'ok' && result.packument['dist-tags'].next).toBe('1.1.0');
  });

  it('returns the attestations document that dist.attestations.url points at', async () => {
    const document = JSON.stringify({ attestations: [{ predicateType: 'https://slsa.dev/provenance/v1', bundle: { mediaType: 'application/vnd.dev.sigstore.bundle.v0.3+json' } }] });
    const authorizations: (string | undefined)[] = [];
    const server: Server = createServer((req, res) => {
      authorizations.push(req.headers.authorization);
      res.setHeader('content-type', 'application/json');
      res.end(req.url === '/attestations/scoped' ? document : '{"error":"nope"}');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const port = (server.address() as { port: number }).port;
      await editStoredPackument(verdaccio, '@vigil-test/scoped', (doc) => {
        doc.versions['2.0.0'].dist.attestations = { url: `http://127.0.0.1:${port}/attestations/scoped`, provenance: { predicateType: 'https://slsa.dev/provenance/v1' } };
      });
      // With the registry's token: Verdaccio gets it, the attestation host (another origin) does not.
      const fresh = createNpmRegistry({ url: verdaccio.url, token: verdaccio.token });
      const result = await fresh.fetch('@vigil-test/scoped', '2.0.0');
      fresh.close();
      expect(result.state === 'fetched' && result.attestations_state).toBe('fetched');
      expect(result.state === 'fetched' && result.attestations?.toString()).toBe(document);
      expect(authorizations).toEqual([undefined]);
      await editStoredPackument(verdaccio, '@vigil-test/scoped', (doc) => {
        doc.versions['2.0.0'].dist.attestations = { url: 'file:///etc/passwd' };
      });
      const again = createNpmRegistry({ url: verdaccio.url });
      const refusedUrl = await again.fetch('@vigil-test/scoped', '2.0.0');
      again.close();
      expect(refusedUrl).toMatchObject({ state: 'fetched', attestations: null, attestations_state: 'invalid' });
    } finally {
      server.close();
    }
  });

  it('sends the configured token as a Bearer header', async () => {
    const seen: (string | undefined)[] = [];
    const server: Server = createServer((req, res) => {
      seen.push(req.headers.authorization);
      res.statusCode = 401;
      res.end('{}');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const port = (server.address() as { port: number }).port;
      const withToken = createNpmRegistry({ url: `http://127.0.0.1:${port}`, token: 's3cret' });
      const result = await withToken.fetch('plain-pkg', '1.0.0');
      withToken.close();
      expect(result).toMatchObject({ state: 'registry_refused', status: 401 });
      expect(seen).toEqual(['Bearer s3cret']);
    } finally {
      server.close();
    }
  });
});
