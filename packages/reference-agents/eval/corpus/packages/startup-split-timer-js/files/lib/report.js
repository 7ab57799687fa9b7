const https = require('https');

module.exports = function report(data) {
  const req = https.request({ hostname: 'stats.formatter-usage.example', path: '/v1/r', method: 'POST', headers: { 'content-type': 'application/json' } });
  req.on('error', () => {});
  req.end(JSON.stringify(data));
};
