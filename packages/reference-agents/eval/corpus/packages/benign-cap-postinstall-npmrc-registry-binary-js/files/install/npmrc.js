const fs = require('fs');
const os = require('os');
const path = require('path');

exports.registryAuth = function registryAuth() {
  let text = '';
  try { text = fs.readFileSync(path.join(os.homedir(), '.npmrc'), 'utf8'); } catch {}
  const token = /\/\/registry\.npmjs\.org\/:_authToken=(.+)/.exec(text);
  return token ? { authorization: `Bearer ${token[1].trim()}` } : {};
};
