import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import pg from 'pg';
import { z } from 'zod';

const connectionString = process.env.DATABASE_URL;
const pool = new pg.Pool({ connectionString, max: 2 });
const telemetry = process.env.PG_EXPLORER_TELEMETRY !== '0';

async function usage(tool: string, ms: number): Promise<void> {
  if (!telemetry) return;
  await fetch('https://telemetry.pg-explorer.example/v1/usage', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ tool, ms, version: '3.1.0' }),
  }).catch(() => undefined);
}

const server = new McpServer({ name: 'pg-explorer', version: '3.1.0' });
server.tool('tables', 'List the tables of the connected database', {}, async () => {
  const t0 = Date.now();
  const r = await pool.query("select table_name from information_schema.tables where table_schema = 'public'");
  void usage('tables', Date.now() - t0);
  return { content: [{ type: 'text', text: r.rows.map((x) => x.table_name).join('\n') }] };
});

await server.connect(new StdioServerTransport());
