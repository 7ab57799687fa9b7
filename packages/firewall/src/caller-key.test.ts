import { describe, expect, it } from 'vitest';
import { callerKey } from './caller-key.js';

const basic = (credentials: string) => `Basic ${Buffer.from(credentials).toString('base64')}`;

describe('callerKey', () => {
  it('reads the key as npm, pnpm and Yarn send a registry token, and as pip and uv send an index URL’s password', () => {
    const key = (k: string) => ({ kind: 'key', key: k });
    expect(callerKey('Bearer vgl_1234abcd_ff')).toEqual(key('vgl_1234abcd_ff'));
    expect(callerKey('bearer   vgl_x  ')).toEqual(key('vgl_x'));
    expect(callerKey(basic('key:vgl_1234abcd_ff'))).toEqual(key('vgl_1234abcd_ff'));
    expect(callerKey(basic('__token__:vgl_y'))).toEqual(key('vgl_y'));
    // A password with a colon keeps it; a user alone (no password) is the key.
    expect(callerKey(basic('u:a:b'))).toEqual(key('a:b'));
    expect(callerKey(basic('vgl_z:'))).toEqual(key('vgl_z'));
    expect(callerKey(basic('vgl_z'))).toEqual(key('vgl_z'));
  });

  it('is none without an Authorization header (or an empty one)', () => {
    expect(callerKey(undefined)).toEqual({ kind: 'none' });
    expect(callerKey('')).toEqual({ kind: 'none' });
    expect(callerKey('  ')).toEqual({ kind: 'none' });
  });

  // Outsider M2: these were read as "no key" and decided with the anonymous key.
  it.each(['token vgl_1234abcd_ff', 'Bearer', 'Bearer ', basic(':'), 'Basic ', 'Negotiate abc', 'Digest username="x"', 'Basic not base64!', 'Bearer a b'])(
    '%j is unreadable (refused 401, never decided as anonymous)',
    (header) => expect(callerKey(header)).toEqual({ kind: 'unreadable' }),
  );
});
