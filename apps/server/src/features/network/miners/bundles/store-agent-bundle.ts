import { canonicalBytes, canonicalHash } from '@vigil/core';
import type { BlobStore } from '../../../../platform/blobs/index.js';
import type { NormalizedAgentBundle } from './normalize-agent-bundle.js';

/** The agent hash of a normalized bundle: `sha256:<hex>` of its RFC 8785 canonical bytes. */
export function agentHashOf(bundle: NormalizedAgentBundle): string {
  return canonicalHash(bundle);
}

/**
 * Stores the canonical bytes of a normalized bundle in the blob store. Their content hash is the
 * agent hash, so a validator holding an agent hash can fetch exactly the bytes it names.
 */
export async function storeAgentBundle(blobs: BlobStore, bundle: NormalizedAgentBundle): Promise<{ agentHash: string; bytes: Uint8Array }> {
  const bytes = canonicalBytes(bundle);
  const agentHash = await blobs.put(bytes);
  // Both name the same SHA-256 of the same bytes; a difference would mean a broken store.
  if (agentHash !== canonicalHash(bundle)) throw new Error(`blob store named the bundle ${agentHash}, expected ${canonicalHash(bundle)}`);
  return { agentHash, bytes };
}
