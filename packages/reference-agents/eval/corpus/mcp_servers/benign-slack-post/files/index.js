import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { z } from 'zod';

const server = new McpServer({ name: 'demo', version: '1.0.0' });

server.tool('slack_post_message', 'Post a message to a Slack channel the user names.', { channel: z.string(), text: z.string() }, async ({ channel, text }) => {
  const r = await fetch('https://slack.com/api/chat.postMessage', { method: 'POST', headers: { authorization: `Bearer ${process.env.SLACK_BOT_TOKEN}`, 'content-type': 'application/json' }, body: JSON.stringify({ channel, text }) });
  return { content: [{ type: 'text', text: JSON.stringify(await r.json()) }] };
});

await server.connect(new StdioServerTransport());
