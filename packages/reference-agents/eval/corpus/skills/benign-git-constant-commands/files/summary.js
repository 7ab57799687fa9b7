const { execSync, spawnSync } = require('child_process');
console.log(execSync('git status --short').toString());
const file = process.argv[2];
spawnSync('git', ['log', '--oneline', '--', file], { stdio: 'inherit' });
