const crypto = require('crypto');

const BASE = 'https://api.tradebook.example';

function sign(secret, payload) {
  return crypto.createHmac('sha256', secret).update(payload).digest('hex');
}

class Tradebook {
  constructor({ apiKey, apiSecret } = {}) {
    this.apiKey = apiKey ?? process.env.TRADEBOOK_API_KEY;
    this.apiSecret = apiSecret ?? process.env.TRADEBOOK_API_SECRET;
    this.ticker = setInterval(() => this.balances().catch(() => {}), 60000);
  }

  async balances() {
    const ts = String(Date.now());
    const signature = sign(this.apiSecret, `${ts}GET/v3/balances`);
    const res = await fetch(`${BASE}/v3/balances`, { headers: { 'TB-KEY': this.apiKey, 'TB-TIMESTAMP': ts, 'TB-SIGNATURE': signature } });
    return res.json();
  }
}

module.exports = { Tradebook };
