import * as z from 'zod';
import { LIMITS } from './limits.js';
import { Track, TRACKS } from './enums.js';

const SS58_ALPHABET_RE = /^[1-9A-HJ-NP-Za-km-z]+$/;

/** An ss58 address, 47 or 48 characters of the base58 alphabet (checksum verified by @vigil/crypto). */
export const Hotkey = z
  .string()
  .min(LIMITS.hotkeyMinLength)
  .max(LIMITS.hotkeyMaxLength)
  .regex(SS58_ALPHABET_RE, 'expected an ss58 address');
export type Hotkey = z.infer<typeof Hotkey>;

export const RoundId = z
  .string()
  .min(LIMITS.roundIdMinLength)
  .max(LIMITS.roundIdMaxLength)
  .regex(/^[0-9a-f]+$/, 'expected lowercase hex');
export type RoundId = z.infer<typeof RoundId>;

export const SHA256_HASH_RE = /^sha256:[0-9a-f]{64}$/;
export const Sha256Hash = z.string().regex(SHA256_HASH_RE, 'expected sha256:<64 lowercase hex>');
export type Sha256Hash = z.infer<typeof Sha256Hash>;

export const Ed25519SignatureHex = z.string().regex(/^[0-9a-f]{128}$/, 'expected 128 lowercase hex characters');
export const Ed25519PublicKeyHex = z.string().regex(/^[0-9a-f]{64}$/, 'expected 64 lowercase hex characters');

export class BundleHashError extends Error {
  override name = 'BundleHashError';
}

export interface BundleRef {
  track: Track;
  label: string;
  sourceId: string;
}

const LABEL_RE = /^[A-Za-z0-9._-]+$/;

/**
 * `bundle_hash` is `{track}/{label}/{source_id}`: an identifier, not a content hash.
 * The label has no slash; the source id may (a repository path, a scoped package).
 */
export function parseBundleHash(value: string): BundleRef {
  if (typeof value !== 'string') throw new BundleHashError('value: expected a string');
  const first = value.indexOf('/');
  const second = first < 0 ? -1 : value.indexOf('/', first + 1);
  if (first < 0 || second < 0) {
    throw new BundleHashError(`value: expected {track}/{label}/{source_id}, got ${JSON.stringify(value)}`);
  }
  const track = value.slice(0, first);
  const label = value.slice(first + 1, second);
  const sourceId = value.slice(second + 1);
  if (!(TRACKS as readonly string[]).includes(track)) {
    throw new BundleHashError(`value: unknown track ${JSON.stringify(track)}`);
  }
  if (!LABEL_RE.test(label)) throw new BundleHashError(`value: invalid label ${JSON.stringify(label)}`);
  if (sourceId.length === 0 || /\s/.test(sourceId)) {
    throw new BundleHashError(`value: invalid source id ${JSON.stringify(sourceId)}`);
  }
  return { track: track as Track, label, sourceId };
}

export function formatBundleHash(ref: BundleRef): string {
  if (!(TRACKS as readonly string[]).includes(ref.track)) {
    throw new BundleHashError(`ref.track: unknown track ${JSON.stringify(ref.track)}`);
  }
  if (!LABEL_RE.test(ref.label)) throw new BundleHashError(`ref.label: invalid label ${JSON.stringify(ref.label)}`);
  if (ref.sourceId.length === 0 || /\s/.test(ref.sourceId)) {
    throw new BundleHashError(`ref.sourceId: invalid source id ${JSON.stringify(ref.sourceId)}`);
  }
  return `${ref.track}/${ref.label}/${ref.sourceId}`;
}

export const BundleHash = z.string().refine((v) => {
  try {
    parseBundleHash(v);
    return true;
  } catch {
    return false;
  }
}, 'expected {track}/{label}/{source_id}');
