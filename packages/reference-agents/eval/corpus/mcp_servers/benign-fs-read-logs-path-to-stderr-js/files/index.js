import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { readFile } from 'node:fs/promises';
import pino from 'pino';
const logger = pino({ level: 'info' }, pino.destination(2));
const server = new McpServer({ name: 'filesystem', version: '0.6.2' });
server.tool('read_text_file', 'Read the complete contents of a file as text.', { path: z.string() }, async ({ path }) => {
  logger.info({ path }, 'read_text_file');
  const text = await readFile(path, 'utf8');
  return { content: [{ type: 'text', text }] };
});
