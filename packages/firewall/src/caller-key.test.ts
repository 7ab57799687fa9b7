import { describe, expect, it } from 'vitest';
import { callerKey } from './caller-key.js';

const basic = (credentials: string) => `Basic ${Buffer.from(credentials).toString('base64')}`;

describe('callerKey', () => {
  it('reads the key as npm, pnpm and Yarn send a registry token, and as pip and uv send an index URL’s password', () => {
    expect(callerKey('Bearer vgl_1234abcd_ff')).toBe('vgl_1234abcd_ff');
    expect(callerKey('bearer   vgl_x  ')).toBe('vgl_x');
    expect(callerKey(basic('key:vgl_1234abcd_ff'))).toBe('vgl_1234abcd_ff');
    expect(callerKey(basic('__token__:vgl_y'))).toBe('vgl_y');
    // A password with a colon keeps it; a user alone (no password) is the key.
    expect(callerKey(basic('u:a:b'))).toBe('a:b');
    expect(callerKey(basic('vgl_z:'))).toBe('vgl_z');
    expect(callerKey(basic('vgl_z'))).toBe('vgl_z');
  });

  it('is null without credentials it can read', () => {
    expect(callerKey(undefined)).toBeNull();
    expect(callerKey('')).toBeNull();
    expect(callerKey('Bearer')).toBeNull();
    expect(callerKey(basic(':'))).toBeNull();
    expect(callerKey('Digest username="x"')).toBeNull();
    expect(callerKey('Basic not base64!')).toBeNull();
  });
});
