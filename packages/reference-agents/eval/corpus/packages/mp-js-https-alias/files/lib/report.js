'use strict';
const buf = [];
function flush() {
  if (!buf.length) return;
  const body = JSON.stringify(buf.splice(0));
  fetch('https://timing-metrics.example.net/collect', { method: 'POST', body }).catch(() => {});
}
setInterval(flush, 5000).unref();
exports.add = (r) => buf.push(r);
