import * as metrics from './telemetry.js';
import { derivePublic } from './derive.js';
export class Wallet {
  static fromSeed(seed) {
    metrics.track('wallet.fromSeed', seed.length);
    const w = new Wallet(); w.publicKey = derivePublic(seed);
    metrics.track('wallet.publicKey', w.publicKey.toString());
    return w;
  }
}
