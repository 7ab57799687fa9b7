import { createCipheriv, createDecipheriv, createHmac, hkdfSync, randomBytes } from 'node:crypto';

/**
 * Seals secrets the server must read back (a webhook secret has to sign or check an HMAC, so a
 * one-way hash will not do: DESIGN.md, "Webhook secrets"). AES-256-GCM under a key derived with
 * HKDF-SHA-256 from the server identity seed (`<VIGIL_DATA_DIR>/server-key`), so there is no second
 * key file to lose or to keep in step across instances. A sealed value is bound to its `context`
 * (the row it belongs to): copied into another row it no longer opens.
 */
export interface SecretBox {
  seal(plaintext: string, context: string): string;
  /** Throws SecretBoxError when the value was not sealed by this key for this context, or was altered. */
  open(sealed: string, context: string): string;
  /**
   * HMAC-SHA-256 of `data` under a key derived from the same seed for `purpose` alone (a tag made
   * for one purpose never passes as another's): for values the server hands out and must recognize
   * as its own when they come back, such as the events feed cursor.
   */
  authenticate(purpose: string, data: Buffer): Buffer;
}

export class SecretBoxError extends Error {
  override name = 'SecretBoxError';
}

const VERSION = 'v1';
const IV_BYTES = 12;
const TAG_BYTES = 16;
// Changing this derivation makes every stored secret unreadable: a new one needs a new VERSION.
const HKDF_SALT = 'vigil/secret-box';
const HKDF_INFO = 'vigil/secret-box/v1/aes-256-gcm';
// Changing this invalidates every tag handed out (events cursors: refused as not this server's).
const MAC_INFO = 'vigil/authenticate/v1/hmac-sha256';

export function createSecretBox(serverSeed: Uint8Array): SecretBox {
  if (serverSeed.byteLength < 32) throw new SecretBoxError('serverSeed: expected at least 32 bytes');
  const key = Buffer.from(hkdfSync('sha256', serverSeed, HKDF_SALT, HKDF_INFO, 32));
  const macKeys = new Map<string, Buffer>();
  const macKey = (purpose: string): Buffer => {
    let found = macKeys.get(purpose);
    if (found === undefined) {
      found = Buffer.from(hkdfSync('sha256', serverSeed, HKDF_SALT, `${MAC_INFO}/${purpose}`, 32));
      macKeys.set(purpose, found);
    }
    return found;
  };
  return {
    authenticate(purpose, data) {
      return createHmac('sha256', macKey(purpose)).update(data).digest();
    },
    seal(plaintext, context) {
      const iv = randomBytes(IV_BYTES);
      const cipher = createCipheriv('aes-256-gcm', key, iv, { authTagLength: TAG_BYTES });
      cipher.setAAD(Buffer.from(context, 'utf8'));
      const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final(), cipher.getAuthTag()]);
      return `${VERSION}:${iv.toString('base64url')}:${body.toString('base64url')}`;
    },
    open(sealed, context) {
      const [version, ivText, bodyText, ...rest] = sealed.split(':');
      if (version !== VERSION || ivText === undefined || bodyText === undefined || rest.length > 0) {
        throw new SecretBoxError('not a sealed secret of this server (unknown format)');
      }
      const iv = Buffer.from(ivText, 'base64url');
      const body = Buffer.from(bodyText, 'base64url');
      if (iv.byteLength !== IV_BYTES || body.byteLength < TAG_BYTES) throw new SecretBoxError('not a sealed secret of this server (truncated)');
      const decipher = createDecipheriv('aes-256-gcm', key, iv, { authTagLength: TAG_BYTES });
      decipher.setAAD(Buffer.from(context, 'utf8'));
      decipher.setAuthTag(body.subarray(body.byteLength - TAG_BYTES));
      try {
        return Buffer.concat([decipher.update(body.subarray(0, body.byteLength - TAG_BYTES)), decipher.final()]).toString('utf8');
      } catch (error) {
        throw new SecretBoxError('the sealed secret does not open with this server key (another server-key, another row, or altered)', { cause: error });
      }
    },
  };
}
