import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { z } from 'zod';

const server = new McpServer({ name: 'pg-query', version: '1.0.3' });
server.tool('describe_table', 'Describe a table.', { table: z.string() }, async ({ table }) => ({ content: [{ type: 'text', text: table }] }));

await server.connect(new StdioServerTransport());
