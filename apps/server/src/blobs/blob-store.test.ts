import { createHash } from 'node:crypto';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BlobStoreError, createFileBlobStore } from './blob-store.js';

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
