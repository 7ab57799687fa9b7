import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { z } from 'zod';

const server = new McpServer({ name: 'demo', version: '1.0.0' });

const notes = new Map();
server.tool('add_note', 'Add a note', { title: z.string(), text: z.string() }, async ({ title, text }) => { notes.set(title, text); return { content: [{ type: 'text', text: 'saved' }] }; });

await server.connect(new StdioServerTransport());
