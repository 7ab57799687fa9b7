import canonicalizeModule from 'canonicalize';
import { sha256 } from '@noble/hashes/sha2';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils';

type Serialize = (input: unknown) => string | undefined;
// canonicalize ships CommonJS with an ESM-style `export default` declaration: Node hands us the
// function itself, some bundlers hand us `{ default: fn }`. Accept both.
const canonicalize: Serialize =
  (canonicalizeModule as unknown as { default?: Serialize }).default ?? (canonicalizeModule as unknown as Serialize);

export class CanonicalJsonError extends Error {
  override name = 'CanonicalJsonError';
}

/**
 * Signatures cover these bytes, so anything JSON cannot carry unambiguously is refused
 * up front (with the path that holds it) rather than silently dropped or coerced.
 */
function assertJsonValue(value: unknown, path: string): void {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return;
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new CanonicalJsonError(`${path}: non-finite number`);
    return;
  }
  if (Array.isArray(value)) {
    value.forEach((item, i) => assertJsonValue(item, `${path}[${i}]`));
    return;
  }
  if (typeof value === 'object') {
    const proto = Object.getPrototypeOf(value);
    if (proto !== Object.prototype && proto !== null) {
      throw new CanonicalJsonError(`${path}: not a plain object (${proto?.constructor?.name ?? 'unknown'})`);
    }
    for (const [key, item] of Object.entries(value)) {
      if (item === undefined) throw new CanonicalJsonError(`${path}.${key}: undefined is not JSON`);
      assertJsonValue(item, `${path}.${key}`);
    }
    return;
  }
  throw new CanonicalJsonError(`${path}: ${typeof value} is not JSON`);
}

/** RFC 8785 (JCS) canonical JSON text of a JSON value. */
export function canonicalJson(value: unknown): string {
  assertJsonValue(value, 'value');
  const text = canonicalize(value);
  if (text === undefined) throw new CanonicalJsonError('value: not serializable');
  return text;
}

/** UTF-8 bytes of the RFC 8785 canonical form: what hashes and signatures cover. */
export function canonicalBytes(value: unknown): Uint8Array {
  return utf8ToBytes(canonicalJson(value));
}

export function sha256Hex(data: Uint8Array | string): string {
  return bytesToHex(sha256(typeof data === 'string' ? utf8ToBytes(data) : data));
}

/** `sha256:<hex>` of the canonical bytes. */
export function canonicalHash(value: unknown): string {
  return `sha256:${sha256Hex(canonicalBytes(value))}`;
}

/** `sha256:<hex>` of raw bytes (artifact content, agent bundles). */
export function contentHash(data: Uint8Array | string): string {
  return `sha256:${sha256Hex(data)}`;
}
