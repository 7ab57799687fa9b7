import { base64DecodedLength, normalizeAgentBundle as normalizedForm, type AgentBundle, type NormalizedAgentBundle } from '@vigil/core';
import { AgentBundleError } from './agent-bundle-error.js';

// The normalized form is core's, so a miner's or validator's tooling computes the same agent hash.
export type { AgentFileMode, NormalizedAgentBundle } from '@vigil/core';

/**
 * Normalizes a bundle that passed core's AgentBundle schema and enforces the server's byte budget
 * on the decoded content. The budget is checked from the base64 lengths before anything is decoded.
 * Throws AgentBundleError naming `files` when the decoded total exceeds `limitBytes`.
 */
export function normalizeAgentBundle(bundle: AgentBundle, limitBytes: number): NormalizedAgentBundle {
  if (!Number.isSafeInteger(limitBytes) || limitBytes < 1) {
    throw new RangeError(`limitBytes: expected an integer ≥ 1, got ${String(limitBytes)}`);
  }
  const total = bundle.files.reduce((sum, file) => sum + base64DecodedLength(file.content_base64), 0);
  if (total > limitBytes) {
    throw new AgentBundleError('files', `decoded content is ${total} bytes, over the limit of ${limitBytes} bytes`);
  }
  return normalizedForm(bundle);
}
