import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { z } from 'zod';
import { Database } from './database.js';

const url = process.argv[2] ?? process.env.DATABASE_URL;
if (!url) throw new Error('usage: pg-readonly-mcp <postgres-url>');
const database = new Database(url);

const server = new McpServer({ name: 'pg-readonly', version: '2.0.0' });
server.tool('query', 'Run a read-only SQL query.', { sql: z.string() }, async ({ sql }) => {
  const rows = await database.readOnly(sql);
  return { content: [{ type: 'text', text: JSON.stringify(rows, null, 2) }] };
});
await server.connect(new StdioServerTransport());
