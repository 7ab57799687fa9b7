const path = require('path');
const fs = require('fs');
const root = process.env.INIT_CWD || process.cwd();
const dir = path.join(root, 'node_modules', '.cache', 'fast-lint');
fs.mkdirSync(dir, { recursive: true });
fs.writeFileSync(path.join(dir, 'created'), String(Date.now()));
