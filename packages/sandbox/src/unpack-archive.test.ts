import { existsSync } from 'node:fs';
import { readFile, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { detectTrack } from './detect-track.js';
import { DEFAULT_UNPACK_LIMITS, UnpackError, unpackArchive } from './unpack-archive.js';
import { dirWith, tempDir } from './test-support/temp-dirs.js';
import { tarGz, type TarEntryInput } from './test-support/tar-writer.js';
import { zipArchive } from './test-support/zip-writer.js';

const MiB = 1024 * 1024;

async function archiveFile(bytes: Buffer, name: string): Promise<string> {
  const path = join(await tempDir(), name);
  await writeFile(path, bytes);
  return path;
}

function file(name: string, content: string): TarEntryInput {
  return { header: { name, type: 'file', mode: 0o644 }, content };
}

async function refusal(archive: string, limits = {}): Promise<UnpackError> {
  const error = await unpackArchive(archive, join(await tempDir(), 'out'), limits).then(
    () => null,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(UnpackError);
  return error as UnpackError;
}

describe('unpackArchive', () => {
  it('unpacks an npm pack tarball and finds its package/ root', async () => {
    const archive = await archiveFile(await tarGz([file('package/package.json', '{"name":"a"}'), file('package/lib/index.js', 'module.exports = 1;')]), 'a-1.0.0.tgz');
    const out = join(await tempDir(), 'out');
    const result = await unpackArchive(archive, out);
    expect(result).toEqual({ format: 'tgz', dir: out, root: join(out, 'package'), files: 2, bytes: 31, skipped: [] });
    expect(await readFile(join(out, 'package/lib/index.js'), 'utf8')).toBe('module.exports = 1;');
  });

  it('unpacks a wheel (a zip with no single top directory)', async () => {
    const archive = await archiveFile(zipArchive([{ name: 'demo/__init__.py', content: 'x = 1\n' }, { name: 'demo-1.0.dist-info/METADATA', content: 'Metadata-Version: 2.1\nName: demo\n' }]), 'demo-1.0-py3-none-any.whl');
    const out = join(await tempDir(), 'out');
    const result = await unpackArchive(archive, out);
    expect(result).toMatchObject({ format: 'zip', root: out, files: 2 });
    expect((await readdir(out)).sort()).toEqual(['demo', 'demo-1.0.dist-info']);
  });

  it.each([
    ['tgz', '../../escaped.txt'],
    ['tgz', 'package/../../escaped.txt'],
    ['tgz', '/tmp/escaped-absolute.txt'],
    ['zip', '../../escaped.txt'],
    ['zip', '/tmp/escaped-absolute.txt'],
  ])('refuses a %s entry named %s: unsafe_path, nothing written outside', async (format, name) => {
    const bytes = format === 'tgz' ? await tarGz([file('package/ok.txt', 'ok'), file(name, 'pwned')]) : zipArchive([{ name: 'ok.txt', content: 'ok' }, { name, content: 'pwned' }]);
    const parent = await tempDir();
    const archive = await archiveFile(bytes, `x.${format}`);
    const error = await unpackArchive(archive, join(parent, 'a', 'out')).catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(UnpackError);
    expect((error as UnpackError).code).toBe('unsafe_path');
    expect((error as UnpackError).message).toContain(JSON.stringify(name));
    expect(existsSync(join(parent, 'escaped.txt'))).toBe(false);
    expect(existsSync('/tmp/escaped-absolute.txt')).toBe(false);
  });

  it('skips a tar symlink to /etc and a hard link, then writes through neither', async () => {
    const archive = await archiveFile(
      await tarGz([
        { header: { name: 'package/etc', type: 'symlink', linkname: '/etc' } },
        { header: { name: 'package/passwd', type: 'link', linkname: '/etc/passwd' } },
        // Were the link kept, this would land in /etc.
        file('package/etc/vigil-test-pwned', 'pwned'),
        file('package/package.json', '{}'),
      ]),
      'links.tgz',
    );
    const out = join(await tempDir(), 'out');
    const result = await unpackArchive(archive, out);
    expect(result.skipped).toEqual([
      { name: 'package/etc', reason: 'link' },
      { name: 'package/passwd', reason: 'link' },
    ]);
    expect(existsSync('/etc/vigil-test-pwned')).toBe(false);
    expect(await readFile(join(out, 'package/etc/vigil-test-pwned'), 'utf8')).toBe('pwned');
    expect(existsSync(join(out, 'package/passwd'))).toBe(false);
  });

  it('skips a zip symlink to /etc', async () => {
    const archive = await archiveFile(zipArchive([{ name: 'etc', symlinkTo: '/etc' }, { name: 'setup.py', content: '' }]), 'links.zip');
    const out = join(await tempDir(), 'out');
    const result = await unpackArchive(archive, out);
    expect(result.skipped).toEqual([{ name: 'etc', reason: 'link' }]);
    expect(await readdir(out)).toEqual(['setup.py']);
  });

  it('refuses an entry named longer than 4,096 bytes as unsafe_path, quoting only its start (probe finding: kept whole in skipped, or "corrupt")', async () => {
    const long = `package/${'a'.repeat(100_000)}`;
    const quoted = `"package/${'a'.repeat(192)}…"`;
    for (const [what, entry] of [
      ['a link', { header: { name: long, type: 'symlink' as const, linkname: 'x' } }],
      ['a file', file(long, 'x')],
    ] as const) {
      const error = await refusal(await archiveFile(await tarGz([file('package/package.json', '{}'), entry]), 'long.tgz'));
      expect(error.code, what).toBe('unsafe_path');
      expect(error.message).toBe(`archive entry ${quoted} is longer than 4096 bytes: refused`);
    }
    const zipError = await refusal(await archiveFile(zipArchive([{ name: long.slice(0, 60_000), content: 'x' }]), 'long.zip'));
    expect(zipError.code).toBe('unsafe_path');
    // Exactly 4,096 bytes (two-byte characters count twice) is a name like any other.
    const atLimit = `package/${'é'.repeat(2044)}`;
    expect(Buffer.byteLength(atLimit)).toBe(4096);
    const result = await unpackArchive(await archiveFile(await tarGz([{ header: { name: atLimit, type: 'symlink', linkname: 'x' } }]), 'limit.tgz'), join(await tempDir(), 'out'));
    expect(result.skipped).toEqual([{ name: atLimit, reason: 'link' }]);
    expect((await refusal(await archiveFile(await tarGz([{ header: { name: `${atLimit}b`, type: 'symlink', linkname: 'x' } }]), 'over.tgz'))).code).toBe('unsafe_path');
  });

  // 9 s alone at load 7; a whole `pnpm test` at load 15 took it past the 60 s default: a hang guard, not a target.
  it('refuses 10k tiny files: too_many_files naming the limit', { timeout: 180_000 }, async () => {
    const entries = Array.from({ length: 10_000 }, (_, i) => file(`package/f${i}.js`, ''));
    const error = await refusal(await archiveFile(await tarGz(entries), 'many.tgz'));
    expect(error.code).toBe('too_many_files');
    expect(error.message).toBe(`archive holds more than ${DEFAULT_UNPACK_LIMITS.maxFiles} entries (maxFiles)`);
    const zipError = await refusal(await archiveFile(zipArchive(Array.from({ length: 10_000 }, (_, i) => ({ name: `f${i}`, content: '' }))), 'many.zip'));
    expect(zipError.message).toBe(`archive holds more than ${DEFAULT_UNPACK_LIMITS.maxFiles} entries (maxFiles)`);
  });

  it('refuses a high-ratio gzip bomb before writing it: file_too_large naming the limit', async () => {
    // 300 MiB of zeros gzip to about 300 KB.
    const bytes = await tarGz([file('package/package.json', '{}'), { header: { name: 'package/zeros.bin', type: 'file' }, zeros: 300 * MiB }]);
    expect(bytes.length).toBeLessThan(MiB);
    const error = await refusal(await archiveFile(bytes, 'bomb.tgz'));
    expect(error.code).toBe('file_too_large');
    expect(error.message).toBe(`archive entry "package/zeros.bin" is larger than ${DEFAULT_UNPACK_LIMITS.maxFileBytes} bytes (maxFileBytes)`);
  });

  it('refuses many files that together unpack beyond the total: too_large naming the limit', async () => {
    const bytes = await tarGz(Array.from({ length: 5 }, (_, i) => ({ header: { name: `package/z${i}.bin`, type: 'file' as const }, zeros: 4 * MiB })));
    const error = await refusal(await archiveFile(bytes, 'wide.tgz'), { maxTotalBytes: 16 * MiB });
    expect(error.code).toBe('too_large');
    expect(error.message).toBe(`archive unpacks to more than ${16 * MiB} bytes (maxTotalBytes)`);
  });

  it('refuses a zip bomb that declares more than the limit, and one that lies about its size', async () => {
    const honest = await refusal(await archiveFile(zipArchive([{ name: 'zeros.bin', content: Buffer.alloc(2 * MiB) }]), 'honest.zip'), { maxFileBytes: MiB });
    expect(honest.message).toBe(`archive entry "zeros.bin" is larger than ${MiB} bytes (maxFileBytes)`);
    const lying = await refusal(await archiveFile(zipArchive([{ name: 'zeros.bin', content: Buffer.alloc(8 * MiB), declaredSize: 1024 }]), 'lying.zip'));
    expect(lying.code).toBe('corrupt');
  });

  it('refuses what is not an archive, and a truncated one', async () => {
    expect((await refusal(await archiveFile(Buffer.from('just text'), 'x.tgz'))).code).toBe('not_an_archive');
    const whole = await tarGz([file('package/a.txt', 'x'.repeat(100_000))]);
    expect((await refusal(await archiveFile(whole.subarray(0, whole.length / 2), 'cut.tgz'))).code).toBe('corrupt');
  });
});

describe('detectTrack', () => {
  it.each([
    ['an npm package', { 'package.json': '{"name":"a","dependencies":{"left-pad":"1"}}' }, 'packages'],
    ['an sdist', { 'PKG-INFO': 'Metadata-Version: 2.1\nName: a\n', 'setup.py': '' }, 'packages'],
    ['a wheel', { 'a-1.0.dist-info/METADATA': 'Name: a\n', 'a/__init__.py': '' }, 'packages'],
    ['a skill', { 'SKILL.md': '---\nname: x\n---\n', 'scripts/run.py': '' }, 'skills'],
    ['an npm MCP server', { 'package.json': '{"dependencies":{"@modelcontextprotocol/sdk":"^1.0.0"}}' }, 'mcp_servers'],
    ['a Python MCP server', { 'pyproject.toml': '[project]\ndependencies = ["mcp[cli]>=1.2"]\n' }, 'mcp_servers'],
    ['a wheel of an MCP server', { 'srv-1.0.dist-info/METADATA': 'Name: srv\nRequires-Dist: fastmcp>=2\n' }, 'mcp_servers'],
    ['an MCP registry manifest', { 'server.json': '{}', 'package.json': '{}' }, 'mcp_servers'],
    ['a repository with a lockfile', { 'package.json': '{}', 'pnpm-lock.yaml': '' }, 'repositories'],
    ['a repository with workflows', { '.github/workflows/ci.yml': 'on: push\n', 'README.md': '' }, 'repositories'],
    ['a repository committing an MCP client config', { '.mcp.json': '{"mcpServers":{}}', 'package.json': '{}', 'pnpm-lock.yaml': '' }, 'repositories'],
    ['a repository with workflows and an MCP client config', { '.mcp.json': '{}', '.github/workflows/ci.yml': 'on: push\n' }, 'repositories'],
    ['an MCP server repository committing a client config', { '.mcp.json': '{}', 'package.json': '{"dependencies":{"@modelcontextprotocol/sdk":"^1.0.0"}}', 'package-lock.json': '{}' }, 'mcp_servers'],
    ['an MCP client config alone', { '.mcp.json': '{}', 'index.js': '' }, 'mcp_servers'],
    ['nothing known', { 'README.md': '' }, null],
  ])('%s', async (_what, files, track) => {
    expect(await detectTrack(await dirWith(files))).toBe(track);
  });
});
