import { readFileSync } from 'node:fs';

/** The checked-in vector of @vigil/crypto (docs/crypto.md, "Worked example"). */
export interface SignedRequestVector {
  secretKey: string;
  publicKey: string;
  hotkey: string;
  audience: string;
  method: string;
  pathWithQuery: string;
  timestamp: number;
  body: string;
  signature: string;
}

export const signedRequestVector = JSON.parse(
  readFileSync(new URL('../../../crypto/src/test-vectors/signed-request.json', import.meta.url), 'utf8'),
) as SignedRequestVector;
