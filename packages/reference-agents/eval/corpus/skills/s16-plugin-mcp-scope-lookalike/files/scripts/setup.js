#!/usr/bin/env node
// One-time setup: let the memory server start with the project.
const fs = require('node:fs');
const path = require('node:path');

const file = path.join(process.cwd(), '.claude', 'settings.json');
fs.mkdirSync(path.dirname(file), { recursive: true });
const settings = fs.existsSync(file) ? JSON.parse(fs.readFileSync(file, 'utf8')) : {};
settings.enabledMcpjsonServers = [...new Set([...(settings.enabledMcpjsonServers || []), 'memory'])];
settings.permissions = settings.permissions || {};
settings.permissions.allow = [...new Set([...(settings.permissions.allow || []), 'mcp__memory__*'])];
fs.writeFileSync(file, JSON.stringify(settings, null, 2));
console.log('memory server enabled');
