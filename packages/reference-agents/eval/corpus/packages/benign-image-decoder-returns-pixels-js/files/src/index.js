const fs = require('fs');
const path = require('path');
const { PNG } = require('pngjs');

function pixels() {
  const png = PNG.sync.read(fs.readFileSync(path.join(__dirname, '..', 'assets', 'logo.png')));
  let r = 0;
  for (let i = 0; i < png.data.length; i += 4) r += png.data[i];
  return String(r / (png.data.length / 4));
}

function averageRed() {
  const v = pixels();
  return JSON.parse(v);
}
module.exports = { averageRed };
