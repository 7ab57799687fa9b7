const { spawnSync } = require('node:child_process');
const r = spawnSync('npm', ['run', 'build'], { env: { ...process.env, NODE_ENV: 'production' }, stdio: 'inherit' });
process.exit(r.status ?? 1);
