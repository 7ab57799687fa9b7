import { createHash } from 'node:crypto';
import { HEADERS, LIMITS } from '@vigil/core';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { VigilError } from '../errors.js';

/** Page size when the request does not send `X-Vigil-Page-Size`. */
export const DEFAULT_PAGE_SIZE = 50;

export interface PageRequest {
  /** 1-based. */
  page: number;
  size: number;
}

const PAGE_RE = /^[1-9]\d{0,8}$/;

/**
 * Reads `X-Vigil-Page` (default 1) and `X-Vigil-Page-Size` (1–100, default 50) from the request
 * headers (spec part 4, "Pagination headers"); anything else is 422 naming `headers.<name>`.
 */
export function readPage(request: FastifyRequest): PageRequest {
  return { page: readHeaderInteger(request, HEADERS.page, 1, 999_999_999), size: readPageSize(request) };
}

/** `X-Vigil-Page-Size`: 1–100, default 50; anything else is 422 naming `headers.x-vigil-page-size`. */
export function readPageSize(request: FastifyRequest): number {
  return readHeaderInteger(request, HEADERS.pageSize, DEFAULT_PAGE_SIZE, LIMITS.maxPageSize);
}

function readHeaderInteger(request: FastifyRequest, name: string, fallback: number, max: number): number {
  const raw = request.headers[name.toLowerCase()];
  if (raw === undefined) return fallback;
  const text = Array.isArray(raw) ? raw.join(',') : raw.trim();
  if (!PAGE_RE.test(text) || Number(text) > max) {
    throw new VigilError('validation_error', {
      issues: [{ path: `headers.${name.toLowerCase()}`, message: `expected an integer 1-${max}` }],
    });
  }
  return Number(text);
}

/**
 * Answers the page headers: `X-Vigil-Page` and `X-Vigil-Page-Size` as served, and `X-Vigil-Next-Page`
 * only when another page exists (the only signal of more: a short page is not the end).
 */
export function sendPageHeaders(reply: FastifyReply, page: PageRequest, hasMore: boolean): void {
  reply.header(HEADERS.page, String(page.page));
  reply.header(HEADERS.pageSize, String(page.size));
  if (hasMore) reply.header(HEADERS.nextPage, String(page.page + 1));
}

/**
 * A keyset-paged request (docs/customer-attestations.md, "Pagination"): `X-Vigil-Page` is absent or
 * `1` for the first page, or the opaque token the previous answer sent in `X-Vigil-Next-Page`.
 * The token carries the page number, where the next page starts (`after`, the last row's sort key)
 * and a fingerprint of the query it belongs to.
 */
export interface KeysetPage<K> {
  /** 1-based page number, echoed in the answer's `X-Vigil-Page`. */
  page: number;
  size: number;
  /** Null on the first page. */
  after: K | null;
  /** Ties a token to the query it was issued for. */
  fingerprint: string;
}

const TOKEN_PREFIX = 'c1.';
const TOKEN_RE = /^c1\.[A-Za-z0-9_-]{1,1024}$/;

function pageHeaderError(message: string): VigilError {
  return new VigilError('validation_error', { issues: [{ path: `headers.${HEADERS.page.toLowerCase()}`, message }] });
}

/** A short hash of the route and its parsed query: a token is only valid for the query it came from. */
export function queryFingerprint(route: string, query: unknown): string {
  const entries = Object.entries((query ?? {}) as Record<string, unknown>)
    .filter(([, value]) => value !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : 1));
  return createHash('sha256').update(JSON.stringify([route, entries])).digest('base64url').slice(0, 16);
}

/**
 * Reads a keyset page: `X-Vigil-Page-Size` as readPage does; `X-Vigil-Page` absent, `1`, or a token
 * of this same query whose key `parseKey` accepts. Anything else is 422 naming `headers.x-vigil-page`:
 * a page number above 1 cannot be served without counting every row before it, which this endpoint
 * never does.
 */
export function readKeysetPage<K>(request: FastifyRequest, fingerprint: string, parseKey: (key: unknown) => K | null): KeysetPage<K> {
  const size = readPageSize(request);
  const raw = request.headers[HEADERS.page.toLowerCase()];
  const text = raw === undefined ? '1' : Array.isArray(raw) ? raw.join(',') : raw.trim();
  if (text === '1') return { page: 1, size, after: null, fingerprint };
  if (PAGE_RE.test(text)) throw pageHeaderError('only page 1 is addressed by number; send the X-Vigil-Next-Page value of the previous answer');
  if (!TOKEN_RE.test(text)) throw pageHeaderError('expected 1 or the X-Vigil-Next-Page value of the previous answer');
  let decoded: { n?: unknown; f?: unknown; k?: unknown };
  try {
    decoded = JSON.parse(Buffer.from(text.slice(TOKEN_PREFIX.length), 'base64url').toString('utf8')) as typeof decoded;
  } catch {
    throw pageHeaderError('expected 1 or the X-Vigil-Next-Page value of the previous answer');
  }
  const key = decoded === null || typeof decoded !== 'object' ? null : parseKey(decoded.k);
  if (key === null || !Number.isSafeInteger(decoded.n) || (decoded.n as number) < 2) {
    throw pageHeaderError('expected 1 or the X-Vigil-Next-Page value of the previous answer');
  }
  if (decoded.f !== fingerprint) throw pageHeaderError('this page token belongs to another query: the filters changed');
  return { page: decoded.n as number, size, after: key, fingerprint };
}

/**
 * Answers a keyset page's headers: `X-Vigil-Page` (the page number), `X-Vigil-Page-Size`, and
 * `X-Vigil-Next-Page` (the token of the next page) only when another page exists.
 */
export function sendKeysetPageHeaders<K>(reply: FastifyReply, page: KeysetPage<K>, next: unknown): void {
  reply.header(HEADERS.page, String(page.page));
  reply.header(HEADERS.pageSize, String(page.size));
  if (next !== null && next !== undefined) {
    const token = Buffer.from(JSON.stringify({ n: page.page + 1, f: page.fingerprint, k: next }), 'utf8').toString('base64url');
    reply.header(HEADERS.nextPage, `${TOKEN_PREFIX}${token}`);
  }
}
