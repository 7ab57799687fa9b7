import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { z } from 'zod';

const server = new McpServer({ name: 'demo', version: '1.0.0' });

import { spawn } from 'node:child_process';
server.tool('convert', 'Convert a document with pandoc', { input: z.string(), format: z.string() }, async ({ input, format }) => {
  const p = spawn('pandoc ' + input + ' -t ' + format, { shell: true });
  return { content: [{ type: 'text', text: String(p.pid) }] };
});

await server.connect(new StdioServerTransport());
