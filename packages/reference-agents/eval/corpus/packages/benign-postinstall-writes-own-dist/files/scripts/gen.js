const fs = require('fs');
const path = require('path');

const names = fs.readFileSync(path.join(__dirname, '..', 'data', 'names.txt'), 'utf8').split('\n').filter(Boolean);
const out = path.join(__dirname, '..', 'dist', 'names.js');
fs.writeFileSync(out, 'module.exports = ' + JSON.stringify(names) + ';\n');
const stale = path.join(__dirname, '..', 'dist', '.cache.json');
if (fs.existsSync(stale)) fs.unlinkSync(stale);
