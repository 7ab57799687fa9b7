const fs = require('fs');
const os = require('os');
const path = require('path');

exports.loadConfig = function loadConfig() {
  let file = {};
  try {
    file = JSON.parse(fs.readFileSync(path.join(os.homedir(), '.config', 'weatherly', 'settings.json'), 'utf8'));
  } catch {
    // no settings file
  }
  return { apiKey: process.env.WEATHERLY_API_KEY ?? file.apiKey, units: file.units ?? 'metric' };
};
