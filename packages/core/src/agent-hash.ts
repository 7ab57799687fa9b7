import { canonicalHash } from './canonical.js';
import { AGENT_BUNDLE_FORMAT, type AgentBundle } from './schemas/miners.js';

export type AgentFileMode = '0644' | '0755';

/**
 * The form that is hashed and stored (docs/protocol.md, "Normalized form and agent hash"): files
 * sorted by path (UTF-16 code unit order, as RFC 8785 sorts keys), every `mode` spelled out, every
 * `content_base64` in canonical form. The same files give the same agent hash, however a miner
 * ordered or encoded them.
 */
export interface NormalizedAgentBundle {
  format: typeof AGENT_BUNDLE_FORMAT;
  entrypoint: string;
  files: Array<{ path: string; mode: AgentFileMode; content_base64: string }>;
}

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

/**
 * Padded standard base64 with the unused bits of the last character zeroed. Those bits decode to
 * nothing, so two spellings of the same bytes differ only there; no decoding is needed to fix it.
 */
function canonicalBase64(text: string): string {
  const padding = text.endsWith('==') ? 2 : text.endsWith('=') ? 1 : 0;
  if (padding === 0) return text;
  const at = text.length - padding - 1;
  const value = ALPHABET.indexOf(text[at]!);
  // One `=`: the last character carries 4 bits (2 unused); two: it carries 2 bits (4 unused).
  const mask = padding === 1 ? 0b111100 : 0b110000;
  return `${text.slice(0, at)}${ALPHABET[value & mask]!}${text.slice(at + 1)}`;
}

/** Bytes that padded standard base64 text decodes to. */
export function base64DecodedLength(text: string): number {
  const padding = text.endsWith('==') ? 2 : text.endsWith('=') ? 1 : 0;
  return (text.length / 4) * 3 - padding;
}

function byPath(a: { path: string }, b: { path: string }): number {
  return a.path < b.path ? -1 : a.path > b.path ? 1 : 0;
}

/** The normalized form of a bundle that passed the `AgentBundle` schema. */
export function normalizeAgentBundle(bundle: AgentBundle): NormalizedAgentBundle {
  const files = bundle.files
    .map((file) => ({ path: file.path, mode: file.mode ?? '0644', content_base64: canonicalBase64(file.content_base64) }))
    .sort(byPath);
  return { format: AGENT_BUNDLE_FORMAT, entrypoint: bundle.entrypoint, files };
}

/** The agent hash: `sha256:<hex>` of the RFC 8785 bytes of the normalized bundle, what the server computes. */
export function agentHash(bundle: AgentBundle): string {
  return canonicalHash(normalizeAgentBundle(bundle));
}
