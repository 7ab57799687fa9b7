const { execSync } = require('child_process');

module.exports = async () => {
  execSync('docker compose -f test/compose.yml up -d --wait db', { stdio: 'inherit' });
  process.env.DATABASE_URL = 'postgres://postgres:postgres@127.0.0.1:55432/test';
};
