import { signRequest, toHex } from '@vigil/crypto';
import { describe, expect, it } from 'vitest';
import { KeypairError } from './keypair-error.js';
import { keypairFromSeed, parseKeypairFile } from './keypair.js';
import { signedRequestVector as vector } from './test-support/signed-request-vector.js';

// Alice's well-known sr25519 public key: what a default btcli hotkey file would carry.
const SR25519_PUBLIC = '0xd43593c715fdd31c61141abd04a99fd6822c8558854ccde39a5684e7a56da27d';
const SR25519_ADDRESS = '5GrwvaEF5zXb26Fz9rcQpDWS57CtERHpNehXCPcNoHGKutQY';

function wellFormedFile(): Record<string, unknown> {
  // The shape bittensor's serialized_keypair_to_keyfile_data writes.
  return {
    accountId: `0x${vector.publicKey}`,
    publicKey: `0x${vector.publicKey}`,
    privateKey: null,
    secretPhrase: null,
    secretSeed: `0x${vector.secretKey}`,
    ss58Address: vector.hotkey,
  };
}

function keypairErrorOf(run: () => unknown): KeypairError {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(KeypairError);
    return error as KeypairError;
  }
  throw new Error('expected a KeypairError');
}

describe('keypairFromSeed', () => {
  it('derives the hotkey and signature of the checked-in signed-request vector', () => {
    const keypair = keypairFromSeed(vector.secretKey);
    expect(keypair.hotkey).toBe(vector.hotkey);
    expect(toHex(keypair.publicKey)).toBe(vector.publicKey);
    const signed = signRequest({
      audience: vector.audience,
      method: vector.method,
      pathWithQuery: vector.pathWithQuery,
      body: vector.body,
      timestamp: vector.timestamp,
      secretKey: keypair.secretKey,
    });
    expect(signed.signature).toBe(vector.signature);
    expect(signed.hotkey).toBe(vector.hotkey);
  });

  it('accepts 0x-prefixed, uppercase hex and raw bytes alike, copying the bytes', () => {
    const bytes = Uint8Array.from({ length: 32 }, (_, i) => i);
    const fromBytes = keypairFromSeed(bytes);
    bytes[0] = 0xff;
    expect(fromBytes.hotkey).toBe(vector.hotkey);
    expect(keypairFromSeed(`0x${vector.secretKey.toUpperCase()}`).hotkey).toBe(vector.hotkey);
  });

  it.each([
    ['63 hex digits', vector.secretKey.slice(1)],
    ['non-hex', `${vector.secretKey.slice(0, 62)}zz`],
    ['31 bytes', new Uint8Array(31)],
    ['a number', 42],
  ])('rejects %s, naming seed', (_label, seed) => {
    const error = keypairErrorOf(() => keypairFromSeed(seed as string));
    expect(error.field).toBe('seed');
    expect(error.message).toMatch(/^seed: /);
  });
});

describe('parseKeypairFile', () => {
  it('accepts a well-formed unencrypted keyfile, as an object or as its JSON text', () => {
    expect(parseKeypairFile(wellFormedFile()).hotkey).toBe(vector.hotkey);
    expect(parseKeypairFile(JSON.stringify(wellFormedFile())).hotkey).toBe(vector.hotkey);
  });

  it('accepts a file with only secretSeed', () => {
    expect(parseKeypairFile({ secretSeed: vector.secretKey }).hotkey).toBe(vector.hotkey);
  });

  it('rejects a publicKey that is not the seed’s ed25519 key, naming publicKey and the sr25519 cause', () => {
    const error = keypairErrorOf(() => parseKeypairFile({ ...wellFormedFile(), publicKey: SR25519_PUBLIC }));
    expect(error.field).toBe('publicKey');
    expect(error.message).toContain('sr25519');
    expect(error.message).toContain(vector.publicKey);
  });

  it('rejects a mismatched accountId', () => {
    expect(keypairErrorOf(() => parseKeypairFile({ ...wellFormedFile(), accountId: SR25519_PUBLIC })).field).toBe(
      'accountId',
    );
  });

  it('rejects an ss58Address of another key, naming ss58Address', () => {
    const error = keypairErrorOf(() => parseKeypairFile({ ...wellFormedFile(), ss58Address: SR25519_ADDRESS }));
    expect(error.field).toBe('ss58Address');
    expect(error.message).toContain(vector.hotkey);
  });

  it('rejects a file without secretSeed, naming secretSeed', () => {
    const { secretSeed: _unused, ...withoutSeed } = wellFormedFile();
    expect(keypairErrorOf(() => parseKeypairFile(withoutSeed)).field).toBe('secretSeed');
    expect(keypairErrorOf(() => parseKeypairFile({ ...wellFormedFile(), secretSeed: null })).field).toBe('secretSeed');
  });

  it('rejects a malformed secretSeed, naming secretSeed', () => {
    expect(keypairErrorOf(() => parseKeypairFile({ secretSeed: '0x1234' })).field).toBe('secretSeed');
  });

  it('explains an encrypted keyfile and rejects non-objects, naming keyfile', () => {
    const encrypted = keypairErrorOf(() => parseKeypairFile('$NACL\u0013q\u0083...'));
    expect(encrypted.field).toBe('keyfile');
    expect(encrypted.message).toContain('encrypted');
    expect(keypairErrorOf(() => parseKeypairFile('{not json')).field).toBe('keyfile');
    expect(keypairErrorOf(() => parseKeypairFile([vector.secretKey])).field).toBe('keyfile');
  });
});
