const fs = require('fs');
const path = require('path');
function size(file) {
  const b = fs.readFileSync(file);
  return { width: b.readUInt32BE(16), height: b.readUInt32BE(20) };
}
const logo = size(path.join(__dirname, 'logo.png'));
function compile(src) { return new Function('data', 'with (data) { return `' + src + '`; }'); }
module.exports = { size, logo, compile };
