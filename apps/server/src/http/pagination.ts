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
  const read = (name: string, fallback: number, max: number): number => {
    const raw = request.headers[name.toLowerCase()];
    if (raw === undefined) return fallback;
    const text = Array.isArray(raw) ? raw.join(',') : raw.trim();
    if (!PAGE_RE.test(text) || Number(text) > max) {
      throw new VigilError('validation_error', {
        issues: [{ path: `headers.${name.toLowerCase()}`, message: `expected an integer 1-${max}` }],
      });
    }
    return Number(text);
  };
  return { page: read(HEADERS.page, 1, 999_999_999), size: read(HEADERS.pageSize, DEFAULT_PAGE_SIZE, LIMITS.maxPageSize) };
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
