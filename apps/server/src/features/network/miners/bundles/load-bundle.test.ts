import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AGENT_BUNDLE_FORMAT, AgentBundle, canonicalBytes, canonicalJson } from '@vigil/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createFileBlobStore, type BlobStore } from '../../../../platform/blobs/index.js';
import { loadBundle } from './load-bundle.js';
import { normalizeAgentBundle } from './normalize-agent-bundle.js';
import { storeAgentBundle } from './store-agent-bundle.js';

let dir: string;
let blobs: BlobStore;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'vigil-bundles-'));
  blobs = createFileBlobStore(dir);
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const bundle = normalizeAgentBundle(
  AgentBundle.parse({
    format: AGENT_BUNDLE_FORMAT,
    entrypoint: 'bin/run.sh',
    files: [
      { path: 'bin/run.sh', content_base64: Buffer.from('#!/bin/sh\necho ok\n').toString('base64'), mode: '0755' },
      { path: 'data.bin', content_base64: Buffer.from([0, 255, 128, 7]).toString('base64') },
    ],
  }),
  1024,
);

describe('storeAgentBundle and loadBundle', () => {
  it('stores the canonical bytes under the agent hash and reads them back byte for byte, files decoded', async () => {
    const { agentHash, bytes } = await storeAgentBundle(blobs, bundle);
    expect(new TextDecoder().decode(bytes)).toBe(canonicalJson(bundle));
    expect(await blobs.get(agentHash)).toEqual(bytes);

    const loaded = await loadBundle(blobs, agentHash);
    expect(loaded?.agentHash).toBe(agentHash);
    expect(loaded?.bytes).toEqual(bytes);
    expect(loaded?.bundle).toEqual(bundle);
    expect(loaded?.files).toEqual([
      { path: 'bin/run.sh', mode: '0755', content: new Uint8Array(Buffer.from('#!/bin/sh\necho ok\n')) },
      { path: 'data.bin', mode: '0644', content: new Uint8Array([0, 255, 128, 7]) },
    ]);
  });

  it('answers undefined for a hash the store does not hold', async () => {
    expect(await loadBundle(blobs, `sha256:${'0'.repeat(64)}`)).toBeUndefined();
  });

  it('refuses a blob that is not a bundle, or a bundle not in canonical form', async () => {
    const artifact = await blobs.put(new TextEncoder().encode('plain text'));
    await expect(loadBundle(blobs, artifact)).rejects.toThrow(`agentHash: ${artifact} is not a JSON agent bundle`);
    const notBundle = await blobs.put(canonicalBytes({ hello: 'world' }));
    await expect(loadBundle(blobs, notBundle)).rejects.toThrow(`agentHash: ${notBundle} is not an agent bundle`);
    const pretty = await blobs.put(new TextEncoder().encode(JSON.stringify(bundle, null, 2)));
    await expect(loadBundle(blobs, pretty)).rejects.toThrow(`agentHash: ${pretty} is not stored in normalized canonical form`);
  });
});
