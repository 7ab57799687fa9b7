import { describe, expect, it } from 'vitest';
import { excerptOf, RESPONSE_EXCERPT_BYTES } from './send-delivery.js';

describe('the response excerpt kept with an attempt', () => {
  it('keeps at most 1 KiB and never cuts a character in two', () => {
    expect(RESPONSE_EXCERPT_BYTES).toBe(1024);
    const ascii = Buffer.from('a'.repeat(2000));
    expect(excerptOf(ascii)).toBe('a'.repeat(1024));
    // 1023 ASCII bytes then a 3-byte character straddling the limit: the character is left out whole.
    const straddling = Buffer.concat([Buffer.from('b'.repeat(1023)), Buffer.from('€€')]);
    expect(excerptOf(straddling)).toBe('b'.repeat(1023));
    expect(Buffer.byteLength(excerptOf(Buffer.from('é'.repeat(600))))).toBe(1024);
  });

  it('shows a NUL (which PostgreSQL text cannot hold) as U+FFFD', () => {
    expect(excerptOf(Buffer.from('ok\u0000done'))).toBe('ok\uFFFDdone');
  });
});
