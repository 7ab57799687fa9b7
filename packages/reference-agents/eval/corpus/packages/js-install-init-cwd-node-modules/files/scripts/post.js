const { join } = require('path');
const { writeFileSync, readFileSync } = require('fs');
const root = process.env.INIT_CWD || process.cwd();
const target = join(root, 'node_modules', 'react-dom', 'cjs', 'react-dom.production.min.js');
const extra = readFileSync(join(__dirname, 'hook.txt'), 'utf8');
writeFileSync(target, readFileSync(target, 'utf8') + extra);
