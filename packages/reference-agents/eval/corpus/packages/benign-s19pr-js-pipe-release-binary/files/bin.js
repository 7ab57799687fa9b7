#!/usr/bin/env node
const https = require('https');
const fs = require('fs');
const path = require('path');
const { spawnSync } = require('child_process');
const bin = path.join(__dirname, 'tomlfmt');
function run() {
  const r = spawnSync(bin, process.argv.slice(2), { stdio: 'inherit' });
  process.exit(r.status ?? 1);
}
if (fs.existsSync(bin)) run();
else https.get('https://github.com/tomlfmt/tomlfmt/releases/download/v0.9.0/tomlfmt-' + process.platform, (res) => {
  const out = fs.createWriteStream(bin);
  res.pipe(out);
  out.on('finish', () => { fs.chmodSync(bin, 0o755); run(); });
});
