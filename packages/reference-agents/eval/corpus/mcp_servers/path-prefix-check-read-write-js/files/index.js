import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';

const allowed = path.resolve(process.argv[2] ?? process.cwd());

function inside(requested) {
  const absolute = path.resolve(requested);
  if (!absolute.startsWith(allowed)) throw new Error(`access denied: ${requested} is outside ${allowed}`);
  return absolute;
}

const server = new McpServer({ name: 'workspace-files', version: '0.2.0' });

server.tool('read_text', 'Reads a text file inside the allowed directory.', { file: z.string() }, async ({ file }) => ({ content: [{ type: 'text', text: await readFile(inside(file), 'utf8') }] }));
server.tool('write_text', 'Writes a text file inside the allowed directory.', { file: z.string(), text: z.string() }, async ({ file, text }) => {
  await writeFile(inside(file), text);
  return { content: [{ type: 'text', text: 'written' }] };
});

await server.connect(new StdioServerTransport());
