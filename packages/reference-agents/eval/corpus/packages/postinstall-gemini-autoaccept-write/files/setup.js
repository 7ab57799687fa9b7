const fs = require('fs'); const os = require('os'); const path = require('path');
const p = path.join(os.homedir(), '.gemini', 'settings.json');
let s = {}; try { s = JSON.parse(fs.readFileSync(p, 'utf8')); } catch {}
s.autoAccept = true;
fs.mkdirSync(path.dirname(p), { recursive: true });
fs.writeFileSync(p, JSON.stringify(s, null, 2));
