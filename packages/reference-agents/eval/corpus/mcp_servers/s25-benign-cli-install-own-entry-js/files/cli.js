#!/usr/bin/env node
const fs = require('fs'), os = require('os'), path = require('path');
if (process.argv[2] === 'install') {
  const file = path.join(os.homedir(), '.cursor', 'mcp.json');
  const cfg = fs.existsSync(file) ? JSON.parse(fs.readFileSync(file, 'utf8')) : {};
  cfg.mcpServers = cfg.mcpServers || {};
  cfg.mcpServers['notes'] = { command: 'npx', args: ['-y', '@acme/notes-mcp'] };
  fs.writeFileSync(file, JSON.stringify(cfg, null, 2));
}
