import canonicalizeModule from 'canonicalize';
import { sha256 } from '@noble/hashes/sha2';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils';
import { MAX_JSON_DEPTH } from './json-depth.js';

type Serialize = (input: unknown) => string | undefined;
// canonicalize ships CommonJS with an ESM-style `export default` declaration: Node hands us the
// function itself, some bundlers hand us `{ default: fn }`. Accept both.
const canonicalize: Serialize =
  (canonicalizeModule as unknown as { default?: Serialize }).default ?? (canonicalizeModule as unknown as Serialize);

export class CanonicalJsonError extends Error {
  override name = 'CanonicalJsonError';
}

/** The value nests deeper than MAX_JSON_DEPTH levels (the message names the first place too deep). */
export class JsonDepthError extends CanonicalJsonError {
  override name = 'JsonDepthError';
}

// I-JSON (RFC 7493, which RFC 8785 requires) forbids unpaired surrogates: implementations disagree on
// how to write them, so two verifiers could hash the same value differently.
const LONE_SURROGATE_RE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

function assertWellFormed(text: string, path: string): void {
  if (LONE_SURROGATE_RE.test(text)) throw new CanonicalJsonError(`${path}: string contains an unpaired surrogate`);
}

/**
 * Signatures cover these bytes, so anything JSON cannot carry unambiguously is refused
 * up front (with the path that holds it) rather than silently dropped or coerced. `depth` is the
 * level `value` would be at if it is an object or array: the walk (and the serializer after it)
 * recurses, so a value deeper than MAX_JSON_DEPTH is refused before the stack could run out.
 */
function assertJsonValue(value: unknown, path: string, ancestors: Set<object>, depth: number): void {
  if (value === null || typeof value === 'boolean') return;
  if (typeof value === 'string') {
    assertWellFormed(value, path);
    return;
  }
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new CanonicalJsonError(`${path}: non-finite number`);
    return;
  }
  if (typeof value === 'object') {
    if (ancestors.has(value)) throw new CanonicalJsonError(`${path}: circular reference`);
    if (depth > MAX_JSON_DEPTH) throw new JsonDepthError(`${path}: nested deeper than ${MAX_JSON_DEPTH} levels`);
    ancestors.add(value);
    if (Array.isArray(value)) {
      // Index loop, not forEach: a hole would otherwise be skipped here and written as nothing by the serializer.
      for (let i = 0; i < value.length; i += 1) {
        if (!(i in value)) throw new CanonicalJsonError(`${path}[${i}]: sparse array hole is not JSON`);
        assertJsonValue(value[i], `${path}[${i}]`, ancestors, depth + 1);
      }
    } else {
      const proto = Object.getPrototypeOf(value);
      if (proto !== Object.prototype && proto !== null) {
        throw new CanonicalJsonError(`${path}: not a plain object (${proto?.constructor?.name ?? 'unknown'})`);
      }
      if (Object.getOwnPropertySymbols(value).length > 0) {
        throw new CanonicalJsonError(`${path}: symbol keys are not JSON`);
      }
      for (const [key, item] of Object.entries(value)) {
        assertWellFormed(key, `${path}.${key}`);
        if (item === undefined) throw new CanonicalJsonError(`${path}.${key}: undefined is not JSON`);
        assertJsonValue(item, `${path}.${key}`, ancestors, depth + 1);
      }
    }
    ancestors.delete(value);
    return;
  }
  throw new CanonicalJsonError(`${path}: ${typeof value} is not JSON`);
}

/**
 * RFC 8785 (JCS) canonical JSON text of a JSON value. A value nested deeper than MAX_JSON_DEPTH
 * (64) levels is refused with JsonDepthError, as Vigil refuses such JSON wherever it reads it.
 */
export function canonicalJson(value: unknown): string {
  assertJsonValue(value, 'value', new Set(), 1);
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
