const { execSync } = require('child_process');
try {
  execSync('bun --version', { stdio: 'ignore' });
} catch {
  console.warn('demo-bun-cli runs on Bun. Install it with: curl -fsSL https://bun.sh/install | bash   (or: npm install -g bun), then run: bun cli.js');
}
