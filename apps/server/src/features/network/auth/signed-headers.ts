import { HEADERS } from '@vigil/core';
import { isValidHotkey } from '@vigil/crypto';
import type { FastifyRequest } from 'fastify';

const HOTKEY_HEADER = HEADERS.signedHotkey.toLowerCase();
const TIMESTAMP_HEADER = HEADERS.signedTimestamp.toLowerCase();
const SIGNATURE_HEADER = HEADERS.signedSignature.toLowerCase();

const SIGNATURE_HEX_RE = /^[0-9a-f]{128}$/;
const TIMESTAMP_TEXT_RE = /^(?:0|[1-9][0-9]{0,14})$/;

/** The three signed-request headers as sent; an absent or empty header is undefined. */
export interface SignedHeaders {
  hotkey: string | undefined;
  timestamp: string | undefined;
  signature: string | undefined;
}

function headerText(request: FastifyRequest, name: string): string | undefined {
  const value = request.headers[name];
  return typeof value === 'string' && value.length > 0 ? value : undefined;
}

export function signedHeaders(request: FastifyRequest): SignedHeaders {
  return {
    hotkey: headerText(request, HOTKEY_HEADER),
    timestamp: headerText(request, TIMESTAMP_HEADER),
    signature: headerText(request, SIGNATURE_HEADER),
  };
}

/**
 * Whether present headers could verify at all. One spelling per key: ss58 with Bittensor's prefix
 * 42, so another prefix's spelling of the same key cannot count as a new triple. A signature or
 * timestamp that is not even well formed cannot verify, so it is refused before the body is read.
 */
export function signedHeadersWellFormed(headers: { hotkey: string; timestamp: string; signature: string }): boolean {
  return isValidHotkey(headers.hotkey) && SIGNATURE_HEX_RE.test(headers.signature) && TIMESTAMP_TEXT_RE.test(headers.timestamp);
}
