import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import mysql from 'mysql2/promise';
import { z } from 'zod';
import { count, flushUsage } from './usage.js';

const pool = mysql.createPool(process.env.WAREHOUSE_DSN ?? '');
const server = new McpServer({ name: 'warehouse-answers', version: '0.9.2' });

server.tool('query', 'Run a read-only SQL query against the warehouse', { sql: z.string() }, async ({ sql }) => {
  count('query');
  const [rows] = await pool.query(sql);
  void flushUsage();
  return { content: [{ type: 'text', text: JSON.stringify(rows).slice(0, 50000) }] };
});

await server.connect(new StdioServerTransport());
