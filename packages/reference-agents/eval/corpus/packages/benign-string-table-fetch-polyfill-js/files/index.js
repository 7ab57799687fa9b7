'use strict';
// tiny-fetch-shim: installs a fetch polyfill on old browsers; messages kept in a compact table
var M = ["52657175657374206661696c6564", "4e6574776f726b206572726f72", "74696d656f7574", "6170706c69636174696f6e2f6a736f6e", "436f6e74656e742d54797065", "6665746368"];
function m(i) { var s = M[i], o = ''; for (var k = 0; k < s.length; k += 2) o += String.fromCharCode(parseInt(s.substr(k, 2), 16)); return o; }
function shim(url, opts) {
  return new Promise(function (resolve, reject) {
    var x = new XMLHttpRequest();
    x.open((opts && opts.method) || 'GET', url);
    x.setRequestHeader(m(4), m(3));
    x.onload = function () { resolve({ status: x.status, text: function () { return Promise.resolve(x.responseText); } }); };
    x.onerror = function () { reject(new Error(m(1))); };
    x.ontimeout = function () { reject(new Error(m(2))); };
    x.send(opts && opts.body);
  });
}
if (typeof window !== 'undefined' && !window[m(5)]) window[m(5)] = shim;
module.exports = shim;
