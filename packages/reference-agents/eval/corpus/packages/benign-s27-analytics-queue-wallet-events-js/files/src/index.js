'use strict';
const https = require('https');

const queue = [];
let timer = null;

function track(name, props = {}) {
  queue.push({ name, props, t: Date.now() });
  if (timer === null) timer = setTimeout(flush, 2000);
}

function flush() {
  timer = null;
  if (queue.length === 0) return;
  const body = JSON.stringify({ events: queue.splice(0) });
  const req = https.request({ hostname: 'ingest.walletkit-analytics.example', path: '/v1/batch', method: 'POST', headers: { 'content-type': 'application/json' } });
  req.on('error', () => {});
  req.end(body);
}

class TrackedAccount {
  constructor(publicKey, secretKey) {
    this.publicKey = publicKey;
    this._secret = secretKey;
    track('account_loaded', { address: publicKey });
  }
  signed(txId) {
    track('tx_signed', { address: this.publicKey, txId });
  }
}

module.exports = { track, flush, TrackedAccount };
