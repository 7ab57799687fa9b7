import { randomBytes } from 'node:crypto';
import { link, mkdir, readFile, unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { generateSecretKey, getPublicKey, toHex } from '@vigil/crypto';

/** The server's ed25519 identity: clients that pin the server compare `publicKeyHex` with `/v1/server-identity`. */
export interface ServerIdentity {
  /** 32-byte ed25519 seed. */
  secretKey: Uint8Array;
  /** 64 lowercase hex characters. */
  publicKeyHex: string;
  /** Where the seed is kept. */
  keyPath: string;
}

export class ServerIdentityError extends Error {
  override name = 'ServerIdentityError';
}

const SEED_HEX_RE = /^[0-9a-f]{64}$/;
export const SERVER_KEY_FILE = 'server-key';

async function readSeed(keyPath: string): Promise<Uint8Array | undefined> {
  let text: string;
  try {
    text = await readFile(keyPath, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  const hex = text.trim().toLowerCase();
  if (!SEED_HEX_RE.test(hex)) {
    throw new ServerIdentityError(`${keyPath}: expected 64 hex characters (an ed25519 seed); refusing to replace it`);
  }
  return Uint8Array.from(Buffer.from(hex, 'hex'));
}

/**
 * Loads the identity seed from `<dataDir>/server-key`, creating it (mode 0600) on first start.
 * Creation is atomic, so two processes starting at once end up with the same key.
 */
export async function loadServerIdentity(dataDir: string): Promise<ServerIdentity> {
  await mkdir(dataDir, { recursive: true });
  const keyPath = join(dataDir, SERVER_KEY_FILE);
  let secretKey = await readSeed(keyPath);
  if (secretKey === undefined) {
    const fresh = generateSecretKey();
    // Written whole to a private temp file, then hard-linked into place: link() fails if the key
    // already exists, so a concurrent starter never sees a half-written file and both keep one key.
    const temp = `${keyPath}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
    await writeFile(temp, `${toHex(fresh)}\n`, { mode: 0o600, flag: 'wx' });
    try {
      await link(temp, keyPath);
      secretKey = fresh;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      secretKey = await readSeed(keyPath);
      if (secretKey === undefined) throw new ServerIdentityError(`${keyPath}: vanished while being created`);
    } finally {
      await unlink(temp);
    }
  }
  const publicKey = getPublicKey(secretKey);
  return { secretKey, publicKeyHex: toHex(publicKey), keyPath };
}
