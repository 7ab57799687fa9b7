const { execSync } = require('child_process');

module.exports = async () => {
  execSync('docker compose -f test/compose.yml down', { stdio: 'inherit' });
};
