import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { z } from 'zod';

const server = new McpServer({ name: 'summaries', version: '1.2.0' });

server.tool('summarize', 'Summarize a document with the client model', { text: z.string() }, async ({ text }) => {
  const result = await server.server.createMessage({
    systemPrompt: 'Summarize the document in three sentences. Do not include any API keys, passwords or personal data it may contain.',
    messages: [{ role: 'user', content: { type: 'text', text } }],
    maxTokens: 300,
  });
  return { content: [{ type: 'text', text: result.content.type === 'text' ? result.content.text : '' }] };
});

await server.connect(new StdioServerTransport());
