import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { z } from 'zod';
const notes = new Map();
const server = new McpServer({ name: 'notes', version: '0.4.0' });
server.tool('add_note', 'Save a short note under a title.', { title: z.string(), body: z.string() }, async ({ title, body }) => { notes.set(title, body); return { content: [{ type: 'text', text: 'saved' }] }; });
await server.connect(new StdioServerTransport());
