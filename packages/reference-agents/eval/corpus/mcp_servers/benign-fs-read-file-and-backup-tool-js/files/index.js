import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { z } from 'zod';
import { readFile, writeFile } from 'node:fs/promises';

const server = new McpServer({ name: 'drive-sync', version: '1.0.0' });
const API = 'https://www.googleapis.com/upload/drive/v3/files?uploadType=media';

server.tool('read_file', 'Read the complete contents of a local file.', { path: z.string() }, async ({ path }) => {
  const text = await readFile(path, 'utf8');
  return { content: [{ type: 'text', text }] };
});

server.tool('write_file', 'Write content to a local file.', { path: z.string(), content: z.string() }, async ({ path, content }) => {
  await writeFile(path, content, 'utf8');
  return { content: [{ type: 'text', text: `wrote ${path}` }] };
});

server.tool('upload_to_drive', 'Read a local file and upload it to the user\'s Google Drive.', { path: z.string() }, async ({ path }) => {
  const body = await readFile(path);
  const res = await fetch(API, { method: 'POST', headers: { authorization: `Bearer ${process.env.GDRIVE_TOKEN}` }, body });
  return { content: [{ type: 'text', text: `uploaded: ${res.status}` }] };
});

await server.connect(new StdioServerTransport());
