import { AGENT_BUNDLE_FORMAT, type AgentBundle } from '@vigil/core';
import { AgentBundleError } from './agent-bundle-error.js';

export type AgentFileMode = '0644' | '0755';

/**
 * The form that is hashed and stored: files sorted by path (UTF-16 code unit order, as RFC 8785
 * sorts keys), every `mode` spelled out, every `content_base64` re-encoded canonically. Two uploads
 * of the same files therefore get the same agent hash, however the miner ordered or encoded them.
 */
export interface NormalizedAgentBundle {
  format: typeof AGENT_BUNDLE_FORMAT;
  entrypoint: string;
  files: Array<{ path: string; mode: AgentFileMode; content_base64: string }>;
}

/** Bytes that base64 text (already checked to be padded standard base64) decodes to. */
function decodedLength(text: string): number {
  const padding = text.endsWith('==') ? 2 : text.endsWith('=') ? 1 : 0;
  return (text.length / 4) * 3 - padding;
}

function byPath(a: { path: string }, b: { path: string }): number {
  return a.path < b.path ? -1 : a.path > b.path ? 1 : 0;
}

/**
 * Normalizes a bundle that passed core's AgentBundle schema and enforces the server's byte budget
 * on the decoded content. The budget is checked from the base64 lengths before anything is decoded.
 * Throws AgentBundleError naming `files` when the decoded total exceeds `limitBytes`.
 */
export function normalizeAgentBundle(bundle: AgentBundle, limitBytes: number): NormalizedAgentBundle {
  if (!Number.isSafeInteger(limitBytes) || limitBytes < 1) {
    throw new RangeError(`limitBytes: expected an integer ≥ 1, got ${String(limitBytes)}`);
  }
  const total = bundle.files.reduce((sum, file) => sum + decodedLength(file.content_base64), 0);
  if (total > limitBytes) {
    throw new AgentBundleError('files', `decoded content is ${total} bytes, over the limit of ${limitBytes} bytes`);
  }
  const files = bundle.files
    .map((file) => ({
      path: file.path,
      mode: file.mode ?? '0644',
      // Padding bits left non-zero decode to the same bytes; re-encoding makes the text unique.
      content_base64: Buffer.from(file.content_base64, 'base64').toString('base64'),
    }))
    .sort(byPath);
  return { format: AGENT_BUNDLE_FORMAT, entrypoint: bundle.entrypoint, files };
}
