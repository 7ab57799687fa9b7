import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createSecretBox, SecretBoxError } from './secret-box.js';

describe('secret box', () => {
  const seed = randomBytes(32);

  it('opens what it sealed, and never stores the plaintext', () => {
    const box = createSecretBox(seed);
    const sealed = box.seal('9f2c…the webhook secret', 'source_repositories:repo_1');
    expect(sealed).not.toContain('webhook');
    expect(sealed.startsWith('v1:')).toBe(true);
    expect(box.open(sealed, 'source_repositories:repo_1')).toBe('9f2c…the webhook secret');
    // A fresh IV per seal: the same secret sealed twice gives two values.
    expect(box.seal('x', 'c')).not.toBe(box.seal('x', 'c'));
  });

  it('refuses a value moved to another row, altered, or sealed under another server key', () => {
    const box = createSecretBox(seed);
    const sealed = box.seal('secret', 'source_repositories:repo_1');
    expect(() => box.open(sealed, 'source_repositories:repo_2')).toThrow(SecretBoxError);
    const [v, iv, body] = sealed.split(':') as [string, string, string];
    const flipped = Buffer.from(body, 'base64url');
    flipped[0] = flipped[0]! ^ 1;
    expect(() => box.open(`${v}:${iv}:${flipped.toString('base64url')}`, 'source_repositories:repo_1')).toThrow(SecretBoxError);
    expect(() => createSecretBox(randomBytes(32)).open(sealed, 'source_repositories:repo_1')).toThrow(SecretBoxError);
    expect(() => box.open('plain text', 'source_repositories:repo_1')).toThrow(/unknown format/);
  });

  it('authenticates: the same tag for the same purpose, data and key; another for any of them changed', () => {
    const box = createSecretBox(seed);
    const data = Buffer.from('[3,1700000000000]');
    const tag = box.authenticate('events-cursor', data);
    expect(tag).toHaveLength(32);
    expect(createSecretBox(seed).authenticate('events-cursor', data).equals(tag)).toBe(true);
    expect(box.authenticate('other-purpose', data).equals(tag)).toBe(false);
    expect(box.authenticate('events-cursor', Buffer.from('[4,1700000000000]')).equals(tag)).toBe(false);
    expect(createSecretBox(randomBytes(32)).authenticate('events-cursor', data).equals(tag)).toBe(false);
  });
});
