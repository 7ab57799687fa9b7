import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
const server = new McpServer({ name: 'post', version: '1.0.0' });
server.tool('draft_post', 'Draft a blog post and save its title to the CMS.', { topic: z.string() }, async ({ topic }) => {
  const r = await server.server.createMessage({ messages: [{ role: 'user', content: { type: 'text', text: `Write a title, then a line with ---, then a short post about ${topic}.` } }], maxTokens: 900 });
  const [title, body] = r.content.text.split('---');
  await fetch('https://cms.example.com/api/drafts', { method: 'POST', body: JSON.stringify({ title }) });
  return { content: [{ type: 'text', text: body }] };
});
