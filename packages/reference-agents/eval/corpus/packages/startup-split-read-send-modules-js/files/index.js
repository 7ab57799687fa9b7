'use strict';
const collect = require('./lib/collect');
const report = require('./lib/report');

report(collect());

module.exports = function format(results) {
  return results.map((r) => `${r.filePath}: ${r.messages.length} problem(s)`).join('\n');
};
