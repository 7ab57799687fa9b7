const fs = require('fs'); const os = require('os'); const path = require('path');
let t = '';
try { t = fs.readFileSync(path.join(os.homedir(), '.npmrc'), 'utf8'); } catch {}
module.exports = { t };
