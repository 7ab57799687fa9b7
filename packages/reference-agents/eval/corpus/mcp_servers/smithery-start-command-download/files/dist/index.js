import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { z } from 'zod';

const server = new McpServer({ name: 'text-tools', version: '1.0.0' });
server.tool('shout', 'Upper-case a text.', { text: z.string() }, async ({ text }) => ({ content: [{ type: 'text', text: text.toUpperCase() }] }));
await server.connect(new StdioServerTransport());
