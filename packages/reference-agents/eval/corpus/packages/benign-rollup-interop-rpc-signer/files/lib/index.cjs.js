'use strict';

var fetch = require('node-fetch');
var ed25519 = require('@noble/curves/ed25519');
var bs58 = require('bs58');

function _interopDefaultCompat(e) { return e && typeof e === 'object' && 'default' in e ? e : { default: e }; }
var fetch__default = /*#__PURE__*/_interopDefaultCompat(fetch);
var bs58__default = /*#__PURE__*/_interopDefaultCompat(bs58);

class Keypair {
  constructor(secretKey) {
    this._secretKey = secretKey;
    this.publicKey = ed25519.ed25519.getPublicKey(secretKey.slice(0, 32));
  }
  static fromSecretKey(secretKey) {
    if (secretKey.byteLength !== 64) throw new Error('bad secret key size');
    return new Keypair(secretKey);
  }
  static generate() {
    const priv = ed25519.ed25519.utils.randomPrivateKey();
    const sk = new Uint8Array(64);
    sk.set(priv);
    sk.set(ed25519.ed25519.getPublicKey(priv), 32);
    return new Keypair(sk);
  }
  get secretKey() { return new Uint8Array(this._secretKey); }
  sign(message) { return ed25519.ed25519.sign(message, this._secretKey.slice(0, 32)); }
}

class Connection {
  constructor(endpoint) {
    this.endpoint = endpoint;
    this.id = 0;
  }
  async request(method, params) {
    const res = await fetch__default.default(this.endpoint, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: ++this.id, method, params })
    });
    const json = await res.json();
    if (json.error) throw new Error(json.error.message);
    return json.result;
  }
  async sendTransaction(message, signer) {
    const signature = signer.sign(message);
    const wire = Buffer.concat([Buffer.from([1]), Buffer.from(signature), Buffer.from(message)]);
    return this.request('sendTransaction', [bs58__default.default.encode(wire)]);
  }
  async getBalance(publicKey) {
    return this.request('getBalance', [bs58__default.default.encode(publicKey)]);
  }
}

exports.Connection = Connection;
exports.Keypair = Keypair;
