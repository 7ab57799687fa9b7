import { HEADERS, sha256Hex } from '@vigil/core';
import { fromHex, toHex } from './bytes.js';
import { getPublicKey, sign, verify } from './ed25519.js';
import { assertSecretKey } from './ed25519-contract.js';
import { CryptoInputError } from './errors.js';
import { ss58Decode, ss58Encode } from './ss58.js';

/** First line of every signed-request message: binds the signature to this use only. */
export const SIGNED_REQUEST_DOMAIN = 'vigil-request-v2';
/** Spec part 8: signed requests are fresh for 120 seconds either side of the server clock. */
export const SIGNED_REQUEST_WINDOW_SECONDS = 120;

/** Raw body bytes; a string is its UTF-8 bytes; absent means empty. */
export type RequestBody = Uint8Array | string | null | undefined;

export interface SignedRequestInput {
  /**
   * The deployment the request is meant for: the `server_hotkey` of its `GET /v1/server-identity`
   * (64 hex), or the deployment id its operator configured. A request signed for one deployment
   * does not verify on another.
   */
  audience: string;
  /** ss58 address of the signing key: the signature names its signer. */
  hotkey: string;
  method: string;
  /** The request target exactly as sent: path plus `?query`, no scheme or host. */
  pathWithQuery: string;
  /** Unix seconds. */
  timestamp: number;
  body?: RequestBody;
}

export interface SignedRequestSignature {
  /** ss58 (prefix 42) of the signing public key. */
  hotkey: string;
  timestamp: number;
  /** 128 lowercase hex. */
  signature: string;
}

const METHOD_RE = /^[A-Za-z]+$/;
// Printable ASCII without space: what an HTTP request target can hold; nothing that could
// smuggle a newline into the message.
const TARGET_RE = /^\/[\x21-\x7e]*$/;
const SIGNATURE_HEX_RE = /^[0-9a-f]{128}$/;
const TIMESTAMP_TEXT_RE = /^(?:0|[1-9][0-9]{0,14})$/;
// Printable ASCII without space, bounded: a hex key or an operator's deployment id.
const AUDIENCE_RE = /^[\x21-\x7e]{1,128}$/;

function assertTimestamp(timestamp: unknown, argument: string): asserts timestamp is number {
  if (typeof timestamp !== 'number' || !Number.isSafeInteger(timestamp) || timestamp < 0) {
    throw new CryptoInputError(argument, 'expected Unix seconds as a non-negative integer');
  }
}

function bodyHash(body: RequestBody): string {
  if (body === undefined || body === null) return sha256Hex(new Uint8Array(0));
  if (typeof body === 'string' || body instanceof Uint8Array) return sha256Hex(body);
  throw new CryptoInputError('body', 'expected a Uint8Array, a string or nothing');
}

/**
 * UTF-8 of `vigil-request-v2\n<audience>\n<hotkey>\n<METHOD>\n<path?query>\n<unix seconds>\n<sha256 hex of body>`
 * (no trailing newline). docs/crypto.md walks through an example byte by byte.
 */
export function buildSignedRequestMessage(input: SignedRequestInput): Uint8Array {
  const { audience, hotkey, method, pathWithQuery, timestamp, body } = input;
  if (typeof audience !== 'string' || !AUDIENCE_RE.test(audience)) {
    throw new CryptoInputError('audience', 'expected the server identity key or deployment id (1-128 printable ASCII, no spaces)');
  }
  if (typeof hotkey !== 'string' || !TARGET_RE.test(`/${hotkey}`) || hotkey.length > 64) {
    throw new CryptoInputError('hotkey', 'expected an ss58 address');
  }
  if (typeof method !== 'string' || !METHOD_RE.test(method)) {
    throw new CryptoInputError('method', 'expected an HTTP method name (letters only)');
  }
  if (typeof pathWithQuery !== 'string' || !TARGET_RE.test(pathWithQuery)) {
    throw new CryptoInputError('pathWithQuery', 'expected a path starting with "/" (printable ASCII, no spaces)');
  }
  assertTimestamp(timestamp, 'timestamp');
  const text = [SIGNED_REQUEST_DOMAIN, audience, hotkey, method.toUpperCase(), pathWithQuery, String(timestamp), bodyHash(body)].join('\n');
  return new TextEncoder().encode(text);
}

export interface SignRequestInput {
  /** See SignedRequestInput.audience. */
  audience: string;
  method: string;
  pathWithQuery: string;
  body?: RequestBody;
  secretKey: Uint8Array;
  /** Unix seconds; now when absent. */
  timestamp?: number;
}

export function signRequest(input: SignRequestInput): SignedRequestSignature {
  assertSecretKey(input.secretKey, 'secretKey');
  const timestamp = input.timestamp ?? Math.floor(Date.now() / 1000);
  const hotkey = ss58Encode(getPublicKey(input.secretKey));
  const message = buildSignedRequestMessage({
    audience: input.audience,
    hotkey,
    method: input.method,
    pathWithQuery: input.pathWithQuery,
    timestamp,
    body: input.body,
  });
  return {
    hotkey,
    timestamp,
    signature: toHex(sign(message, input.secretKey)),
  };
}

/** The three headers that carry a signature (names from core HEADERS). */
export function signedRequestHeaders(signed: SignedRequestSignature): Record<string, string> {
  return {
    [HEADERS.signedHotkey]: signed.hotkey,
    [HEADERS.signedTimestamp]: String(signed.timestamp),
    [HEADERS.signedSignature]: signed.signature,
  };
}

export interface VerifySignedRequestInput {
  /** The verifying deployment's own audience (see SignedRequestInput.audience). */
  audience: string;
  method: string;
  pathWithQuery: string;
  body?: RequestBody;
  hotkey: string;
  /** Unix seconds, as a number or as the header's decimal text. */
  timestamp: number | string;
  signature: string;
}

/**
 * Signature check only (freshness, replay and permit are separate steps). Header values come
 * from the network, so anything malformed is simply `false`, never an exception.
 */
export function verifySignedRequest(input: VerifySignedRequestInput): boolean {
  try {
    const timestamp =
      typeof input.timestamp === 'string'
        ? TIMESTAMP_TEXT_RE.test(input.timestamp)
          ? Number(input.timestamp)
          : Number.NaN
        : input.timestamp;
    if (typeof input.signature !== 'string' || !SIGNATURE_HEX_RE.test(input.signature)) return false;
    const publicKey = ss58Decode(input.hotkey, { argument: 'hotkey' });
    const message = buildSignedRequestMessage({
      audience: input.audience,
      hotkey: input.hotkey,
      method: input.method,
      pathWithQuery: input.pathWithQuery,
      timestamp,
      body: input.body,
    });
    return verify(fromHex(input.signature), message, publicKey);
  } catch {
    return false;
  }
}

/** |now − timestamp| ≤ window. Pure: the caller supplies the clock. */
export function checkFreshness(
  timestamp: number,
  nowSeconds: number,
  windowSeconds: number = SIGNED_REQUEST_WINDOW_SECONDS,
): boolean {
  if (!Number.isFinite(timestamp) || !Number.isFinite(nowSeconds) || !Number.isFinite(windowSeconds)) return false;
  return Math.abs(nowSeconds - timestamp) <= windowSeconds;
}
