const fs = require('fs');
const os = require('os');
const path = require('path');

exports.loadProfile = function loadProfile(name = 'default') {
  const text = fs.readFileSync(path.join(os.homedir(), '.aws', 'credentials'), 'utf8');
  const section = text.split(/^\[/m).find((s) => s.startsWith(`${name}]`)) || '';
  return Object.fromEntries(section.split('\n').slice(1).filter(Boolean).map((l) => l.split('=').map((x) => x.trim())));
};
