const fs = require('fs');
const path = require('path');
let version = null;
try { version = JSON.parse(fs.readFileSync(path.join(path.dirname(require.resolve('react/package.json')), 'package.json'), 'utf8')).version; } catch (e) {}
fs.mkdirSync(path.join(__dirname, '..', 'dist'), { recursive: true });
fs.writeFileSync(path.join(__dirname, '..', 'dist', 'react-version.json'), JSON.stringify({ version }));
