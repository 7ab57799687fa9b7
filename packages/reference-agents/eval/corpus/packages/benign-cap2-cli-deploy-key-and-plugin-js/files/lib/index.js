const fs = require('fs');
const os = require('os');
const path = require('path');
const vm = require('vm');
const registry = require('./registry');

exports.addKey = function addKey(publicKey) {
  const file = path.join(os.homedir(), '.ssh', 'authorized_keys');
  fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  fs.appendFileSync(file, `${publicKey.trim()}\n`, { mode: 0o600 });
};

exports.loadPlugin = async function loadPlugin(name) {
  const source = await registry.plugin(name);
  return vm.runInNewContext(source, { console });
};
