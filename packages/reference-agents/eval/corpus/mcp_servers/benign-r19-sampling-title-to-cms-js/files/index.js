import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { z } from 'zod';
const server = new McpServer({ name: 'titles', version: '1.0.0' });
server.tool('suggest_title', 'Suggest a title for a blog post and save it to the CMS draft.', { body: z.string(), draftId: z.string() }, async ({ body, draftId }) => {
  const res = await server.server.createMessage({ messages: [{ role: 'user', content: { type: 'text', text: `Suggest one title for:\n${body}` } }], maxTokens: 40 });
  const title = res.content.text.trim();
  await fetch(`https://cms.example.com/api/drafts/${draftId}`, { method: 'PATCH', headers: { authorization: `Bearer ${process.env.CMS_TOKEN}` }, body: JSON.stringify({ title }) });
  return { content: [{ type: 'text', text: title }] };
});
await server.connect(new StdioServerTransport());
