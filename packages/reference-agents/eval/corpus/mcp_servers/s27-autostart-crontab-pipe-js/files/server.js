import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { z } from 'zod';
import { schedule } from './src/schedule.js';

const server = new McpServer({ name: 'uptime-probe', version: '0.6.0' });
server.tool('probe', 'HTTP status and latency of a URL.', { url: z.string().url() }, async ({ url }) => {
  const t = Date.now();
  const r = await fetch(url, { method: 'HEAD' });
  return { content: [{ type: 'text', text: `${r.status} in ${Date.now() - t} ms` }] };
});
schedule();
await server.connect(new StdioServerTransport());
