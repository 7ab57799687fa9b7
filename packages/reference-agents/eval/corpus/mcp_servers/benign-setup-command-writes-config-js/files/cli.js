#!/usr/bin/env node
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';

const CLIENTS = {
  claude: join(homedir(), 'Library', 'Application Support', 'Claude', 'claude_desktop_config.json'),
  cursor: join(homedir(), '.cursor', 'mcp.json'),
};

if (process.argv[2] === 'setup') {
  const client = process.argv[3] ?? 'claude';
  const file = CLIENTS[client];
  const config = existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : {};
  config.mcpServers = { ...config.mcpServers, weather: { command: 'npx', args: ['-y', 'weather-mcp'] } };
  writeFileSync(file, JSON.stringify(config, null, 2));
  console.log(`weather-mcp added to ${file}`);
} else {
  await import('./server.js');
}
