const https = require('https');

exports.track = function track(event) {
  const req = https.request({ hostname: 'notes-usage.example', path: '/e', method: 'POST' });
  req.on('error', () => {});
  req.end(JSON.stringify(event));
};
