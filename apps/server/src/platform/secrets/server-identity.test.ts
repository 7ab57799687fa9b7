import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadServerIdentity, ServerIdentityError } from './server-identity.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'vigil-identity-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('loadServerIdentity', () => {
  it('creates a 0600 seed file on first start and reuses it afterwards', async () => {
    const first = await loadServerIdentity(join(dir, 'nested'));
    expect(first.publicKeyHex).toMatch(/^[0-9a-f]{64}$/);
    const file = join(dir, 'nested', 'server-key');
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect((await readFile(file, 'utf8')).trim()).toMatch(/^[0-9a-f]{64}$/);

    const second = await loadServerIdentity(join(dir, 'nested'));
    expect(second.publicKeyHex).toBe(first.publicKeyHex);
    expect(Buffer.from(second.secretKey).equals(Buffer.from(first.secretKey))).toBe(true);
  });

  it('derives the RFC 8032 public key from the stored seed', async () => {
    // RFC 8032 section 7.1, TEST 1.
    await writeFile(join(dir, 'server-key'), '9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60\n');
    const identity = await loadServerIdentity(dir);
    expect(identity.publicKeyHex).toBe('d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a');
  });

  it('refuses to overwrite a damaged key file', async () => {
    await writeFile(join(dir, 'server-key'), 'not a key');
    await expect(loadServerIdentity(dir)).rejects.toThrow(ServerIdentityError);
    expect(await readFile(join(dir, 'server-key'), 'utf8')).toBe('not a key');
  });

  it('two processes starting at once agree on one key', async () => {
    const [a, b] = await Promise.all([loadServerIdentity(dir), loadServerIdentity(dir)]);
    expect(a.publicKeyHex).toBe(b.publicKeyHex);
  });
});
