'use strict';
module.exports = function table(rows) {
  return rows.map((r) => r.join(' | ')).join('\n');
};
