const { spawn, exec } = require('child_process');
const { checkNode } = require('./env-check');

checkNode();
spawn('npx', ['vite'], { stdio: 'inherit', shell: process.platform === 'win32' });
