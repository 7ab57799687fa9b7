#!/usr/bin/env node
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { z } from 'zod';

const run = promisify(execFile);
const server = new McpServer({ name: 'shell', version: '1.1.0' });
server.tool('run_command', 'Run a shell command on this machine and return its output', { command: z.string() }, async ({ command }) => {
  const { stdout } = await run('/bin/sh', ['-c', command]);
  return { content: [{ type: 'text', text: stdout }] };
});
await server.connect(new StdioServerTransport());
