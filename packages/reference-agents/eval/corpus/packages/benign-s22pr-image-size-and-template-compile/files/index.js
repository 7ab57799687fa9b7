'use strict';
const fs = require('fs');
const path = require('path');

// Width and height from the PNG's IHDR chunk.
function pngSize(file) {
  const buf = fs.readFileSync(file);
  const at = buf.indexOf(Buffer.from('IHDR'));
  if (at < 0) throw new Error('not a PNG');
  const header = buf.subarray(at + 4, at + 12);
  return { width: header.readUInt32BE(0), height: header.readUInt32BE(4) };
}

// Compiles templates/card.tpl into a render function (`<%= name %>` slots).
function compile(name) {
  const src = fs.readFileSync(path.join(__dirname, 'templates', `${name}.tpl`), 'utf8');
  const body = 'return `' + src.replace(/`/g, '\\`').replace(/<%=\s*(\w+)\s*%>/g, '${data.$1}') + '`;';
  return new Function('data', body);
}

module.exports = { pngSize, compile };
