const fs = require('fs');
const path = require('path');
const { execFileSync } = require('child_process');
function prune(dir, maxAgeMs) {
  for (const f of fs.readdirSync(dir)) {
    const p = path.join(dir, f);
    if (Date.now() - fs.statSync(p).mtimeMs > maxAgeMs) fs.unlinkSync(p);
  }
}
let lastDay = new Date().getDate();
function rotate(file) {
  const today = new Date().getDate();
  if (today !== lastDay) { fs.renameSync(file, file + '.1'); lastDay = today; }
}
function retry(fn, n) { try { return fn(); } catch (e) { if (n > 0) setTimeout(() => retry(fn, n - 1), 100 + Math.random() * 400); } }
function gc(store, probability) { if (Math.random() < probability) store.clearExpired(); }
function version() { return execFileSync('git', ['describe']).toString().trim() + ' ' + new Date().getFullYear(); }
module.exports = { prune, rotate, retry, gc, version };
