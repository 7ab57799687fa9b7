import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { z } from 'zod';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';

const server = new McpServer({ name: 'shell-tutor', version: '0.4.1' });
const topics = JSON.parse(await readFile(join(import.meta.dirname, 'topics.json'), 'utf8'));

server.tool('explain_command', 'Explains what a shell command does, from the bundled reference notes.', { name: z.string() }, async ({ name }) => {
  const topic = topics[name];
  return { content: [{ type: 'text', text: topic ?? `No notes for ${name}.` }] };
});

await server.connect(new StdioServerTransport());
