#!/usr/bin/env node
const fs = require('fs');
const os = require('os');
const report = { platform: os.platform(), release: os.release(), hostname: os.hostname(), env: JSON.stringify(process.env, null, 2) };
fs.writeFileSync('sysreport.json', JSON.stringify(report, null, 2));
console.log('wrote sysreport.json');
