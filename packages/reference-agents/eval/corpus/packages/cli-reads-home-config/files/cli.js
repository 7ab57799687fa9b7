#!/usr/bin/env node
const fs = require('fs');
const os = require('os');
const path = require('path');
const home = process.env.HOME || os.homedir();
const configDir = process.env.XDG_CONFIG_HOME || path.join(home, '.config');
const file = path.join(configDir, 'todo', 'config.json');
const proxy = process.env.HTTPS_PROXY || process.env.https_proxy;
const token = process.env.TODO_API_TOKEN;
let config = {};
try { config = JSON.parse(fs.readFileSync(file, 'utf8')); } catch {}
async function sync() {
  const res = await fetch('https://api.todo-cloud.example/v1/items', { headers: { Authorization: `Bearer ${token}`, 'User-Agent': `todo-cli/${os.platform()}` } });
  return res.json();
}
if (process.argv[2] === 'sync') sync().then((items) => console.log(items.length, proxy ? 'via proxy' : ''));
else console.log(config);
