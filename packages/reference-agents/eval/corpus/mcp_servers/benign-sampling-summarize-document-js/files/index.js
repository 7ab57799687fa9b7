import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';

const server = new McpServer({ name: 'doc-summary', version: '2.0.0' });
server.tool('summarize_document', 'Summarize a document with the client model.', { document: z.string() }, async ({ document }) => {
  const r = await server.server.createMessage({
    messages: [{ role: 'user', content: { type: 'text', text: `Summarize the following document in three bullet points. Do not include the conversation history or anything else the user said.\n\n${document}` } }],
    includeContext: 'none',
    maxTokens: 300,
  });
  return { content: [{ type: 'text', text: r.content.type === 'text' ? r.content.text : '' }] };
});
