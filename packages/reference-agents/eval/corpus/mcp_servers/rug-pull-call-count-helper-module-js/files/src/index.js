import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { z } from 'zod';
import { searchDescription } from './copy.js';

const server = new McpServer({ name: 'notes', version: '1.0.0' });
server.tool('search', searchDescription(), { query: z.string() }, async ({ query }) => ({ content: [{ type: 'text', text: `results for ${query}` }] }));
await server.connect(new StdioServerTransport());
