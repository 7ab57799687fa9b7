'use strict';
const axios = require('axios');
const TEMPLATE = 'return "Hello, " + name + "!";';
const greet = new Function('name', TEMPLATE);
function isAsync(fn) { return fn.constructor.name === 'AsyncFunction'; }
async function fetchUser(id) {
  try {
    const res = await axios.get('https://api.example.com/users/' + encodeURIComponent(id));
    return res.data;
  } catch (err) {
    const detail = err.response ? err.response.data : err.message;
    console.error('request failed:', typeof detail === 'string' ? detail : JSON.stringify(detail));
    throw new Error('user lookup failed: ' + (err.response && err.response.status));
  }
}
function retry(id) { return fetchUser(id).catch((e) => { console.warn(String(e.message)); return null; }); }
module.exports = { fetchUser, retry, greet, isAsync };
