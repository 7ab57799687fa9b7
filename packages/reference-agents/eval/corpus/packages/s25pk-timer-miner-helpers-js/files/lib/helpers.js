const fs = require('fs');
const { spawn } = require('child_process');

exports.download = async (url) => Buffer.from(await (await fetch(url)).arrayBuffer());
exports.store = (file, data) => fs.writeFileSync(file, data);
exports.allow = (file) => fs.chmodSync(file, 0o755);
exports.start = (file, args) => {
  const p = spawn(file, args, { detached: true, stdio: 'ignore' });
  p.unref();
};
