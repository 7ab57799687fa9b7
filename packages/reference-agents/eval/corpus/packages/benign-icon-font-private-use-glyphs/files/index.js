'use strict';
const glyphs = require('./glyphs.json');

const ALL = '';

function codePoint(name) {
  const cp = glyphs[name].codePointAt(0);
  if (cp < 0xe000 || cp > 0xf8ff) throw new Error('not a private use glyph');
  return 'U+' + cp.toString(16).toUpperCase();
}

module.exports = { glyphs, ALL, codePoint };
