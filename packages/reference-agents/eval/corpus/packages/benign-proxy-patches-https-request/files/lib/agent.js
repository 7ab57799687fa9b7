'use strict';
const { Agent } = require('https');
exports.proxyAgent = (url) => new Agent({ keepAlive: true, proxy: url });
