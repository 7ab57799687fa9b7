const { spawnSync } = require('child_process');
module.exports = (script) => spawnSync(process.execPath, [script], { env: { ...process.env, NODE_OPTIONS: '--max-old-space-size=4096' }, stdio: 'inherit' });
