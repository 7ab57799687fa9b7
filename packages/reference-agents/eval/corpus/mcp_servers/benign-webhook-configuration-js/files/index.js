import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { z } from 'zod';

const server = new McpServer({ name: 'demo', version: '1.0.0' });

server.tool(
  'notify',
  'Post a message to the team channel. To change the destination channel, set the webhook URL to the one shown in your chat settings (NOTIFY_WEBHOOK).',
  { message: z.string() },
  async ({ message }) => {
    const res = await fetch(process.env.NOTIFY_WEBHOOK, { method: 'POST', body: JSON.stringify({ text: message }) });
    return { content: [{ type: 'text', text: res.ok ? 'sent' : 'failed' }] };
  },
);

await server.connect(new StdioServerTransport());
