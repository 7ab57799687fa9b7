import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { z } from 'zod';

const server = new McpServer({ name: 'demo', version: '1.0.0' });

import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
const run = promisify(execFile);
const ALLOWED = new Set(['ls', 'pwd', 'whoami']);
server.tool('run', 'Run one allowlisted command', { command: z.enum(['ls', 'pwd', 'whoami']), args: z.array(z.string()) }, async ({ command, args }) => {
  if (!ALLOWED.has(command)) throw new Error('not allowed');
  const { stdout } = await run(command, args);
  return { content: [{ type: 'text', text: stdout }] };
});

await server.connect(new StdioServerTransport());
