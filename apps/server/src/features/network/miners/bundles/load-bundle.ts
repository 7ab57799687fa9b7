import { AgentBundle, canonicalBytes, contentHash } from '@vigil/core';
import type { BlobStore } from '../../../../platform/blobs/index.js';
import { AgentBundleError } from './agent-bundle-error.js';
import type { AgentFileMode, NormalizedAgentBundle } from './normalize-agent-bundle.js';

export interface StoredAgentBundle {
  agentHash: string;
  /** The canonical JSON bytes exactly as stored (what a bundle download serves). */
  bytes: Uint8Array;
  bundle: NormalizedAgentBundle;
  /** The files decoded, in bundle order, for a validator that unpacks and runs the agent. */
  files: Array<{ path: string; mode: AgentFileMode; content: Uint8Array }>;
}

/**
 * Reads a stored agent bundle back by its agent hash; undefined when the store does not hold it.
 * Throws AgentBundleError when the stored bytes are not a normalized bundle in canonical form
 * (corruption, or a blob that is not a bundle).
 */
export async function loadBundle(blobs: BlobStore, agentHash: string): Promise<StoredAgentBundle | undefined> {
  const bytes = await blobs.get(agentHash);
  if (bytes === undefined) return undefined;
  if (contentHash(bytes) !== agentHash) throw new AgentBundleError('agentHash', `stored bytes do not hash to ${agentHash}`);
  let value: unknown;
  try {
    value = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes));
  } catch {
    throw new AgentBundleError('agentHash', `${agentHash} is not a JSON agent bundle`);
  }
  const parsed = AgentBundle.safeParse(value);
  if (!parsed.success) throw new AgentBundleError('agentHash', `${agentHash} is not an agent bundle`);
  const bundle: NormalizedAgentBundle = {
    format: parsed.data.format,
    entrypoint: parsed.data.entrypoint,
    files: parsed.data.files.map((file) => ({ path: file.path, mode: file.mode ?? '0644', content_base64: file.content_base64 })),
  };
  const canonical = canonicalBytes(bundle);
  if (canonical.length !== bytes.length || !canonical.every((byte, i) => byte === bytes[i])) {
    throw new AgentBundleError('agentHash', `${agentHash} is not stored in normalized canonical form`);
  }
  return {
    agentHash,
    bytes,
    bundle,
    files: bundle.files.map((file) => ({
      path: file.path,
      mode: file.mode,
      content: new Uint8Array(Buffer.from(file.content_base64, 'base64')),
    })),
  };
}
