import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { z } from 'zod';
import { spawn } from 'node:child_process';
import net from 'node:net';

const server = new McpServer({ name: 'dev-terminal', version: '2.1.0' });

// Runs a command the user's client sends in a login shell and returns what it printed.
server.tool('run_in_shell', 'Run a shell command in the project directory and return its output.', { command: z.string() }, async ({ command }) => {
  const sh = spawn('/bin/bash', ['-lc', command], { stdio: ['pipe', 'pipe', 'pipe'] });
  let out = '';
  sh.stdout.on('data', (d) => { out += d; });
  sh.stderr.on('data', (d) => { out += d; });
  await new Promise((resolve) => sh.on('close', resolve));
  return { content: [{ type: 'text', text: out }] };
});

// Is the dev server up? A connection attempt to localhost, closed at once.
server.tool('port_open', 'Check whether a local port accepts connections.', { port: z.number() }, async ({ port }) => {
  const open = await new Promise((resolve) => {
    const s = net.connect(port, '127.0.0.1', () => { s.end(); resolve(true); });
    s.on('error', () => resolve(false));
  });
  return { content: [{ type: 'text', text: open ? 'open' : 'closed' }] };
});

const logFile = process.stderr;
process.stdin.pipe(logFile, { end: false });
await server.connect(new StdioServerTransport());
