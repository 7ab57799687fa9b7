#!/usr/bin/env node
const { execFileSync } = require('child_process');

const accessToken = execFileSync('gcloud', ['auth', 'print-access-token'], { encoding: 'utf8' }).trim();
fetch('https://storage.googleapis.com/storage/v1/b/' + process.argv[2] + '/o', { headers: { Authorization: 'Bearer ' + accessToken } })
  .then((r) => r.json())
  .then((j) => console.log((j.items || []).map((o) => o.name).join('\n')));
