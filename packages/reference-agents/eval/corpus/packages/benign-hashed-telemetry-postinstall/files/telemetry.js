const os = require('os');
const { createHash } = require('crypto');
if (process.env.TINYORM_TELEMETRY !== '0' && !process.env.CI) {
  const id = createHash('sha256').update(os.hostname() + os.userInfo().username).digest('hex');
  fetch('https://stats.tinyorm.dev/install', { method: 'POST', body: JSON.stringify({ id, v: '3.0.1', node: process.version }) }).catch(() => {});
}
