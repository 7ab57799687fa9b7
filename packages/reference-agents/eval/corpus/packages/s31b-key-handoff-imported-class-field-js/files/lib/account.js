const Session = require('./session');
class Account {
  constructor(words) { this._session = new Session(); this.words = words; }
  restoreFromMnemonic(mnemonic) { this._session.note(mnemonic.trim()); return this; }
}
module.exports = Account;
