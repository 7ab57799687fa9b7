import { SS58_DEFAULT_PREFIX, fromHex, getPublicKey, ss58Encode, toHex } from '@vigil/crypto';
import { KeypairError } from './keypair-error.js';

/** An ed25519 signing key and the hotkey (ss58, prefix 42) it signs as. */
export interface VigilKeypair {
  /** 32-byte RFC 8032 seed. */
  readonly secretKey: Uint8Array;
  /** 32-byte ed25519 public key. */
  readonly publicKey: Uint8Array;
  readonly hotkey: string;
}

const SEED_HEX_RE = /^(?:0x)?([0-9a-fA-F]{64})$/;
const PUBLIC_KEY_HEX_RE = /^(?:0x)?([0-9a-fA-F]{64})$/;

function seedBytes(seed: unknown, field: string): Uint8Array {
  if (seed instanceof Uint8Array) {
    if (seed.length !== 32) throw new KeypairError(field, `expected 32 bytes, got ${seed.length}`);
    return Uint8Array.from(seed);
  }
  if (typeof seed === 'string') {
    const match = SEED_HEX_RE.exec(seed.trim());
    if (!match?.[1]) throw new KeypairError(field, 'expected 64 hex digits, optionally prefixed with 0x');
    return fromHex(match[1]);
  }
  throw new KeypairError(field, 'expected a 32-byte Uint8Array or 64 hex digits');
}

/**
 * The ed25519 keypair of a 32-byte seed (a `Uint8Array`, or 64 hex digits with or without `0x`).
 * The seed is copied, so later changes to the caller's array do not change the key.
 */
export function keypairFromSeed(seed: Uint8Array | string): VigilKeypair {
  return fromSeed(seed, 'seed');
}

function fromSeed(seed: unknown, field: string): VigilKeypair {
  const secretKey = seedBytes(seed, field);
  const publicKey = getPublicKey(secretKey);
  return { secretKey, publicKey, hotkey: ss58Encode(publicKey, SS58_DEFAULT_PREFIX) };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

// btcli writes the same ed25519 seed → sr25519 key mismatch for every default hotkey; say so,
// because "publicKey does not match" alone sends operators hunting for a corrupted file.
const SR25519_HINT =
  'Vigil signs with ed25519; a Bittensor hotkey made by btcli is sr25519 by default, and the same seed gives a different public key under sr25519';

function checkPublicKey(file: Record<string, unknown>, field: 'publicKey' | 'accountId', keypair: VigilKeypair): void {
  const value = file[field];
  if (value === undefined || value === null) return;
  const match = typeof value === 'string' ? PUBLIC_KEY_HEX_RE.exec(value.trim()) : null;
  if (!match?.[1]) throw new KeypairError(field, 'expected 64 hex digits, optionally prefixed with 0x');
  const expected = toHex(keypair.publicKey);
  if (match[1].toLowerCase() !== expected) {
    throw new KeypairError(
      field,
      `0x${match[1].toLowerCase()} is not the ed25519 public key of secretSeed (0x${expected}). ${SR25519_HINT}`,
    );
  }
}

/**
 * A keypair from the JSON of an unencrypted Bittensor/substrate keyfile (what btcli writes under
 * `~/.bittensor/wallets/<wallet>/hotkeys/<name>`): `{ accountId, publicKey, privateKey,
 * secretPhrase, secretSeed, ss58Address }`. Only `secretSeed` is required; `publicKey`,
 * `accountId` and `ss58Address`, when present and not null, must belong to that seed's ed25519
 * key, so a file for another key (or an sr25519 file) is refused rather than signing as a hotkey
 * the server does not know. Accepts the parsed JSON or its text; reading the file is the caller's job.
 */
export function parseKeypairFile(json: unknown): VigilKeypair {
  let file: unknown = json;
  if (typeof json === 'string') {
    const text = json.trim();
    if (text.startsWith('$NACL') || text.startsWith('$ANSIBLE_VAULT') || text.startsWith('gAAAAA')) {
      throw new KeypairError('keyfile', 'the keyfile is encrypted; decrypt it (or export an unencrypted hotkey) first');
    }
    try {
      file = JSON.parse(text);
    } catch {
      throw new KeypairError('keyfile', 'not valid JSON');
    }
  }
  if (!isRecord(file)) throw new KeypairError('keyfile', 'expected a JSON object');
  if (file.secretSeed === undefined || file.secretSeed === null) {
    throw new KeypairError(
      'secretSeed',
      'missing; the keyfile must hold the 32-byte seed ("secretSeed": "0x" + 64 hex digits), a keyfile with only a public key or a phrase cannot sign',
    );
  }
  const keypair = fromSeed(file.secretSeed, 'secretSeed');
  checkPublicKey(file, 'publicKey', keypair);
  checkPublicKey(file, 'accountId', keypair);
  const address = file.ss58Address;
  if (address !== undefined && address !== null) {
    if (typeof address !== 'string') throw new KeypairError('ss58Address', 'expected a string');
    if (address !== keypair.hotkey) {
      throw new KeypairError(
        'ss58Address',
        `${address} is not the hotkey of secretSeed (${keypair.hotkey}). ${SR25519_HINT}`,
      );
    }
  }
  return keypair;
}
