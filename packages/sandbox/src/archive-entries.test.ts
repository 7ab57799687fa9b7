import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { text } from 'node:stream/consumers';
import { describe, expect, it } from 'vitest';
import { ArchiveStreamLimitError, readArchiveEntries, type ArchiveEntryKind } from './archive-entries.js';
import { tempDir } from './test-support/temp-dirs.js';
import { tarGz } from './test-support/tar-writer.js';
import { zipArchive } from './test-support/zip-writer.js';

async function archiveFile(bytes: Buffer, name: string): Promise<string> {
  const path = join(await tempDir(), name);
  await writeFile(path, bytes);
  return path;
}

const TGZ = () =>
  tarGz([
    { header: { name: 'package/', type: 'directory', mode: 0o755 } },
    { header: { name: 'package/a.txt', type: 'file', mode: 0o644 }, content: 'a' },
    { header: { name: 'package/link', type: 'symlink', linkname: '/etc/passwd' } },
    { header: { name: '../outside.txt', type: 'file', mode: 0o644 }, content: 'declared, not checked' },
  ]);
const ZIP = () => zipArchive([{ name: 'pkg/' }, { name: 'pkg/a.txt', content: 'a' }, { name: 'pkg/etc', symlinkTo: '/etc' }, { name: '../outside.txt', content: 'declared, not checked' }]);

describe('readArchiveEntries', () => {
  it.each([
    ['tgz', TGZ, ['package/', 'package/a.txt', 'package/link', '../outside.txt']],
    ['zip', async () => ZIP(), ['pkg/', 'pkg/a.txt', 'pkg/etc', '../outside.txt']],
  ] as const)('%s: every entry in order, named as declared, with its kind; the bytes of the files opened', async (format, bytes, names) => {
    const archive = await archiveFile(await bytes(), `x.${format}`);
    const seen: { name: string; kind: ArchiveEntryKind; content?: string }[] = [];
    const result = await readArchiveEntries(
      archive,
      format,
      async (entry) => {
        seen.push(entry.kind === 'file' ? { name: entry.name, kind: entry.kind, content: await text(await entry.open()) } : { name: entry.name, kind: entry.kind });
        return true;
      },
      { maxStreamBytes: 1024 * 1024 },
    );
    expect(seen).toEqual([
      { name: names[0], kind: 'directory' },
      { name: names[1], kind: 'file', content: 'a' },
      { name: names[2], kind: 'link' },
      { name: names[3], kind: 'file', content: 'declared, not checked' },
    ]);
    expect(result).toEqual({ complete: true, visited: 4, declaredEntries: format === 'zip' ? 4 : null });
  });

  it.each(['tgz', 'zip'] as const)('%s: a visitor that answers false stops the read there, without an error', async (format) => {
    const archive = await archiveFile(format === 'tgz' ? await TGZ() : ZIP(), `x.${format}`);
    const names: string[] = [];
    const result = await readArchiveEntries(archive, format, (entry) => names.push(entry.name) < 2, { maxStreamBytes: 1024 * 1024 });
    expect(names).toHaveLength(2);
    expect(result).toMatchObject({ complete: false, visited: 2 });
  });

  it('a gzip that decompresses past maxStreamBytes rejects with ArchiveStreamLimitError', async () => {
    const archive = await archiveFile(await tarGz([{ header: { name: 'big', type: 'file', mode: 0o644 }, content: Buffer.alloc(512 * 1024) }]), 'big.tgz');
    await expect(readArchiveEntries(archive, 'tgz', () => true, { maxStreamBytes: 64 * 1024 })).rejects.toBeInstanceOf(ArchiveStreamLimitError);
  });

  it("what the visitor throws is the read's rejection", async () => {
    const archive = await archiveFile(ZIP(), 'x.zip');
    await expect(readArchiveEntries(archive, 'zip', () => Promise.reject(new RangeError('no')), { maxStreamBytes: 1024 })).rejects.toThrow(RangeError);
  });
});
