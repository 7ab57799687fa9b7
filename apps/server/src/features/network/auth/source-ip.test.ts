import { describe, expect, it } from 'vitest';
import { isIpAllowed, normalizeIp } from './source-ip.js';

describe('normalizeIp', () => {
  it('maps IPv4-mapped IPv6 to IPv4, in dotted and hex form', () => {
    expect(normalizeIp('::ffff:10.0.0.1')).toBe('10.0.0.1');
    expect(normalizeIp('::FFFF:10.0.0.1')).toBe('10.0.0.1');
    expect(normalizeIp('::ffff:a00:1')).toBe('10.0.0.1');
  });

  it('compresses and lowercases IPv6', () => {
    expect(normalizeIp('2001:DB8:0:0:0:0:0:1')).toBe('2001:db8::1');
  });

  it('leaves IPv4 and non-addresses alone', () => {
    expect(normalizeIp('192.0.2.1')).toBe('192.0.2.1');
    expect(normalizeIp('localhost')).toBe('localhost');
  });
});

describe('isIpAllowed', () => {
  it('matches exact addresses in any spelling and nothing else', () => {
    expect(isIpAllowed('::ffff:192.0.2.1', ['192.0.2.1'])).toBe(true);
    expect(isIpAllowed('2001:db8::1', ['2001:0db8:0000::1'])).toBe(true);
    expect(isIpAllowed('192.0.2.10', ['192.0.2.1'])).toBe(false);
    expect(isIpAllowed('192.0.2.1', [])).toBe(false);
  });
});
