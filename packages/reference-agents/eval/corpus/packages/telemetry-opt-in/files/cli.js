#!/usr/bin/env node
const os = require('os');
const https = require('https');
const enabled = process.env.BUILDKIT_TELEMETRY !== '0' && !process.env.CI;
if (enabled) {
  const payload = JSON.stringify({ event: 'build', platform: os.platform(), arch: os.arch(), node: process.version, cli: '14.0.1' });
  const req = https.request({ hostname: 'telemetry.buildkit.example', path: '/v1/events', method: 'POST', headers: { 'content-type': 'application/json' } });
  req.on('error', () => {});
  req.end(payload);
}
console.log('building…');
