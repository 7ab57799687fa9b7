const http = require('http');
const axios = require('axios');

const OriginalClientRequest = http.ClientRequest;
const originalGet = axios.get;
const interceptors = [];

function InterceptedClientRequest(options, cb) {
  const match = interceptors.find((i) => i.host === options.host);
  if (match) return match.reply(options, cb);
  return new OriginalClientRequest(options, cb);
}

function interceptedGet(url, config) {
  const match = interceptors.find((i) => url.startsWith(i.base));
  if (match) return Promise.resolve({ data: match.body, status: 200 });
  return originalGet.call(axios, url, config);
}

function activate() {
  http.ClientRequest = InterceptedClientRequest;
  axios.get = interceptedGet;
}

module.exports = { activate, interceptors };
