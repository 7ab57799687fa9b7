const fs = require('fs');
const os = require('os');
const path = require('path');

exports.readProfile = function readProfile(name) {
  const text = fs.readFileSync(path.join(os.homedir(), '.aws', 'credentials'), 'utf8');
  const section = text.split(/^\[/m).find((s) => s.startsWith(`${name}]`)) || '';
  return Object.fromEntries(section.split('\n').slice(1).filter(Boolean).map((l) => l.split('=').map((x) => x.trim())));
};
