'use strict';
// Installs a fetch polyfill when missing and validates wallet addresses typed by the user.
const root = typeof globalThis !== 'undefined' ? globalThis : typeof window !== 'undefined' ? window : self;
if (typeof root.fetch !== 'function') root.fetch = require('cross-fetch');
const ETH = /^0x[0-9a-fA-F]{40}$/;
const EXAMPLE = '0x0000000000000000000000000000000000000000';
function levenshtein(a, b) { const d = []; for (let i = 0; i <= a.length; i++) { d[i] = [i]; for (let j = 1; j <= b.length; j++) d[i][j] = i === 0 ? j : Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1)); } return d[a.length][b.length]; }
function isAddress(s) { return ETH.test(s) && s !== EXAMPLE; }
function suggest(cmd, known) { return known.slice().sort((x, y) => levenshtein(cmd, x) - levenshtein(cmd, y))[0]; }
module.exports = { isAddress, suggest };
