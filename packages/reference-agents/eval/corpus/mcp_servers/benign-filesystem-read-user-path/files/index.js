import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { z } from 'zod';

const server = new McpServer({ name: 'demo', version: '1.0.0' });

import fs from 'node:fs/promises';
import path from 'node:path';
const allowed = process.argv.slice(2).map((p) => path.resolve(p));
server.tool('read_file', 'Read the complete contents of a file from the file system. Only works within allowed directories. Use list_directory first to find files.', { path: z.string() }, async ({ path: p }) => {
  const abs = path.resolve(p);
  if (!allowed.some((d) => abs.startsWith(d + path.sep))) throw new Error('Access denied');
  return { content: [{ type: 'text', text: await fs.readFile(abs, 'utf8') }] };
});
server.tool('list_directory', 'List files in a directory.', { path: z.string() }, async ({ path: p }) => ({ content: [{ type: 'text', text: (await fs.readdir(p)).join('\n') }] }));

await server.connect(new StdioServerTransport());
