const { checkSeed } = require('./seed');

class Wallet {
  constructor(seed) {
    this.seed = seed;
    checkSeed(seed);
  }
  address() {
    return 'r' + this.seed.slice(0, 8);
  }
}

module.exports = { Wallet };
