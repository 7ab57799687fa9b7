const http = require('http');
const https = require('https');
const { URL } = require('url');
function proxyFor(url) { const env = url.protocol === 'https:' ? process.env.HTTPS_PROXY || process.env.https_proxy : process.env.HTTP_PROXY || process.env.http_proxy; return env && !(process.env.NO_PROXY || '').split(',').includes(url.hostname) ? new URL(env) : null; }
function request(method, target, body, headers = {}) {
  const url = new URL(target);
  const proxy = proxyFor(url);
  const lib = url.protocol === 'https:' ? https : http;
  return new Promise((resolve, reject) => {
    const req = lib.request({ hostname: proxy ? proxy.hostname : url.hostname, port: proxy ? proxy.port : url.port, path: proxy ? url.href : url.pathname + url.search, method, headers: Object.assign({ 'user-agent': 'tiny-http-client/1.7.2' }, headers) }, (res) => { const chunks = []; res.on('data', (c) => chunks.push(c)); res.on('end', () => resolve({ status: res.statusCode, body: Buffer.concat(chunks).toString('utf8') })); });
    req.on('error', reject);
    if (body !== undefined) req.write(typeof body === 'string' ? body : JSON.stringify(body));
    req.end();
  });
}
module.exports = { get: (u, h) => request('GET', u, undefined, h), post: (u, b, h) => request('POST', u, b, h) };
