import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { createFileBlobStore } from './blob-store.js';
import { describeBlobStoreContract } from '../../test-support/blob-store-contract.js';

async function files(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true }).catch(() => []);
  return entries.filter((e) => e.isFile()).map((e) => relative(dir, join(e.parentPath, e.name))).sort();
}

describeBlobStoreContract(
  'file blob store',
  async () => {
    const root = await mkdtemp(join(tmpdir(), 'vigil-blobs-'));
    return {
      store: createFileBlobStore(root),
      stagingDir: join(root, 'staging'),
      blobs: async () => (await files(root)).filter((f) => f.startsWith('sha256/')),
      leftovers: async () => (await files(root)).filter((f) => !f.startsWith('sha256/')),
      dispose: () => rm(root, { recursive: true, force: true }),
    };
  },
  { propertyRuns: 50 },
);
