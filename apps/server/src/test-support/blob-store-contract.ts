import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BlobStoreError, BlobTooLargeError, STAGING_ORPHAN_AGE_MS, type BlobStore } from '../platform/blobs/index.js';

/** One store under test, fresh per test, and what it holds besides its blobs. */
export interface BlobStoreUnderTest {
  store: BlobStore;
  /** Names of the blobs stored (objects or files under `sha256/`). */
  blobs(): Promise<string[]>;
  /** Anything else left behind: staging files, spool files, stray objects. */
  leftovers(): Promise<string[]>;
  /** The local directory where unfinished puts stage their bytes. */
  stagingDir: string;
  dispose(): Promise<void>;
}

/**
 * The behaviour every BlobStore promises (blob-store.ts), run against each implementation: the
 * local file store and the S3 store on the s3rver stand-in.
 */
export function describeBlobStoreContract(name: string, make: () => Promise<BlobStoreUnderTest>, options: { propertyRuns: number }): void {
  describe(`${name}: the BlobStore contract`, () => {
    let subject: BlobStoreUnderTest;
    beforeEach(async () => {
      subject = await make();
    });
    afterEach(async () => {
      await subject.dispose();
    });

    it('names content by its sha256 and returns the same bytes', async () => {
      const { store } = subject;
      await fc.assert(
        fc.asyncProperty(fc.uint8Array({ maxLength: 4096 }), async (bytes) => {
          const hash = await store.put(bytes);
          expect(hash).toBe(`sha256:${createHash('sha256').update(bytes).digest('hex')}`);
          expect(await store.has(hash)).toBe(true);
          expect(Buffer.from((await store.get(hash))!)).toEqual(Buffer.from(bytes));
        }),
        { numRuns: options.propertyRuns },
      );
    });

    it('stores identical content once and leaves nothing else', async () => {
      const { store } = subject;
      const bytes = new TextEncoder().encode('agent bundle');
      const a = await store.put(bytes);
      const b = await store.put(bytes);
      expect(a).toBe(b);
      expect(await subject.blobs()).toEqual([`sha256/${a.slice(7, 9)}/${a.slice(9)}`]);
      expect(await subject.leftovers()).toEqual([]);
    });

    it('answers undefined for absent content and names the argument for a malformed hash', async () => {
      const { store } = subject;
      const absent = `sha256:${'0'.repeat(64)}`;
      expect(await store.get(absent)).toBeUndefined();
      expect(await store.has(absent)).toBe(false);
      expect(await store.withLocalFile(absent, async () => 'called')).toBeUndefined();
      await expect(store.get('sha256:../../etc/passwd')).rejects.toThrow(BlobStoreError);
      await expect(store.get('nope')).rejects.toThrow(/^hash: /);
      await expect(store.has('SHA256:' + 'A'.repeat(64))).rejects.toThrow(/^hash: /);
    });

    it('stores streamed bytes under their sha256, once for identical content', async () => {
      const { store } = subject;
      const bytes = Buffer.alloc(3 * 65_536 + 17, 7);
      const hash = `sha256:${createHash('sha256').update(bytes).digest('hex')}`;
      const first = await store.putStream(Readable.from([bytes.subarray(0, 1000), bytes.subarray(1000)]), { maxBytes: bytes.length });
      expect(first).toEqual({ hash, size: bytes.length, created: true });
      const second = await store.putStream(Readable.from([bytes]), { maxBytes: bytes.length });
      expect(second).toEqual({ hash, size: bytes.length, created: false });
      expect(Buffer.from((await store.get(hash))!)).toEqual(bytes);
      expect(await subject.blobs()).toHaveLength(1);
      expect(await store.withLocalFile(hash, async (file) => file.size)).toBe(bytes.length);
      expect(await subject.leftovers()).toEqual([]);
    });

    it('shows inspect the complete bytes as a local file before storing them', async () => {
      const { store } = subject;
      const bytes = Buffer.from('inspected bytes');
      let seen: { hash: string; size: number; text: string } | undefined;
      const { readFile } = await import('node:fs/promises');
      const result = await store.putStream(Readable.from([bytes]), {
        maxBytes: 100,
        inspect: async (staged) => {
          seen = { hash: staged.hash, size: staged.size, text: await readFile(staged.path, 'utf8') };
          expect(await store.has(staged.hash)).toBe(false);
        },
      });
      expect(seen).toEqual({ hash: result.hash, size: bytes.length, text: 'inspected bytes' });
    });

    it('leaves nothing behind when the source is too large, fails, or inspection refuses it', async () => {
      const { store } = subject;
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
      expect(await subject.blobs()).toEqual([]);
      expect(await subject.leftovers()).toEqual([]);
    });

    it('sweeps what a killed put left in staging once it is older than the orphan age', async () => {
      const { mkdir, writeFile, utimes, readdir } = await import('node:fs/promises');
      const { join } = await import('node:path');
      await mkdir(subject.stagingDir, { recursive: true });
      const now = Date.now();
      await writeFile(join(subject.stagingDir, 'killed.tmp'), 'x');
      const old = (now - STAGING_ORPHAN_AGE_MS - 1000) / 1000;
      await utimes(join(subject.stagingDir, 'killed.tmp'), old, old);
      await writeFile(join(subject.stagingDir, 'in-progress.tmp'), 'y');
      expect(await subject.store.sweep(now)).toBe(1);
      expect(await readdir(subject.stagingDir)).toEqual(['in-progress.tmp']);
    });
  });
}
