import { describe, expect, it } from 'vitest';
import { HEADERS } from './headers.js';

describe('HEADERS', () => {
  it('spell the spec headers with Vigil in place of Service', () => {
    expect(HEADERS).toMatchObject({
      page: 'X-Vigil-Page',
      pageSize: 'X-Vigil-Page-Size',
      nextPage: 'X-Vigil-Next-Page',
      event: 'X-Vigil-Event',
      delivery: 'X-Vigil-Delivery',
      timestamp: 'X-Vigil-Timestamp',
      signature: 'X-Vigil-Signature',
      requestId: 'x-request-id',
      retryAfter: 'Retry-After',
    });
  });

  it('are distinct when compared the way HTTP compares them (case-insensitively)', () => {
    const names = Object.values(HEADERS).map((h) => h.toLowerCase());
    expect(new Set(names).size).toBe(names.length);
  });
});
