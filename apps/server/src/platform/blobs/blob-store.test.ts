import { createHash } from 'node:crypto';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Readable } from 'node:stream';
import { BlobStoreError, BlobTooLargeError, createFileBlobStore } from './blob-store.js';

let root: string;
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'vigil-blobs-'));
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

describe('file blob store', () => {
  it('names content by its sha256 and returns the same bytes', async () => {
    const store = createFileBlobStore(root);
    await fc.assert(
      fc.asyncProperty(fc.uint8Array({ maxLength: 4096 }), async (bytes) => {
        const hash = await store.put(bytes);
        expect(hash).toBe(`sha256:${createHash('sha256').update(bytes).digest('hex')}`);
        expect(await store.has(hash)).toBe(true);
        expect(Buffer.from((await store.get(hash))!)).toEqual(Buffer.from(bytes));
      }),
      { numRuns: 50 },
    );
  });

  it('stores identical content once and leaves no temp files', async () => {
    const store = createFileBlobStore(root);
    const bytes = new TextEncoder().encode('agent bundle');
    const a = await store.put(bytes);
    const b = await store.put(bytes);
    expect(a).toBe(b);
    const dir = join(root, 'sha256', a.slice(7, 9));
    expect(await readdir(dir)).toEqual([a.slice(9)]);
  });

  it('answers undefined for absent content and names the argument for a malformed hash', async () => {
    const store = createFileBlobStore(root);
    expect(await store.get(`sha256:${'0'.repeat(64)}`)).toBeUndefined();
    expect(await store.has(`sha256:${'0'.repeat(64)}`)).toBe(false);
    await expect(store.get('sha256:../../etc/passwd')).rejects.toThrow(BlobStoreError);
    await expect(store.get('nope')).rejects.toThrow(/^hash: /);
  });
});

describe('file blob store: streaming put', () => {
  const files = async (dir: string): Promise<string[]> => {
    const entries = await readdir(dir, { recursive: true, withFileTypes: true }).catch(() => []);
    return entries.filter((e) => e.isFile()).map((e) => e.name);
  };

  it('stores streamed bytes under their sha256, once for identical content', async () => {
    const store = createFileBlobStore(root);
    const bytes = Buffer.alloc(3 * 65_536 + 17, 7);
    const hash = `sha256:${createHash('sha256').update(bytes).digest('hex')}`;
    const first = await store.putStream(Readable.from([bytes.subarray(0, 1000), bytes.subarray(1000)]), { maxBytes: bytes.length });
    expect(first).toEqual({ hash, size: bytes.length, created: true });
    const second = await store.putStream(Readable.from([bytes]), { maxBytes: bytes.length });
    expect(second).toEqual({ hash, size: bytes.length, created: false });
    expect(Buffer.from((await store.get(hash))!)).toEqual(bytes);
    expect(await files(root)).toHaveLength(1);
    expect(await store.withLocalFile(hash, async (file) => file.size)).toBe(bytes.length);
  });

  it('leaves nothing behind when the source is too large, fails, or inspection refuses it', async () => {
    const store = createFileBlobStore(root);
    await expect(store.putStream(Readable.from([Buffer.alloc(10), Buffer.alloc(10)]), { maxBytes: 15 })).rejects.toBeInstanceOf(BlobTooLargeError);
    const failing = new Readable({ read() {} });
    failing.push(Buffer.alloc(100));
    setImmediate(() => failing.destroy(new Error('client went away')));
    await expect(store.putStream(failing, { maxBytes: 1000 })).rejects.toThrow('client went away');
    await expect(
      store.putStream(Readable.from([Buffer.from('abc')]), {
        maxBytes: 10,
        inspect: async () => {
          throw new Error('refused');
        },
      }),
    ).rejects.toThrow('refused');
    expect(await files(root)).toEqual([]);
  });
});
