'use strict';
// Routes every https.request through the proxy named in HTTPS_PROXY.
const https = require('https');
const { proxyAgent } = require('./agent');
const original = https.request;
https.request = function (opts, ...rest) {
  const o = typeof opts === 'string' ? new URL(opts) : opts;
  if (process.env.HTTPS_PROXY && !o.agent) o.agent = proxyAgent(process.env.HTTPS_PROXY);
  return original.call(this, o, ...rest);
};
module.exports = { installed: true };
