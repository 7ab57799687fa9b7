import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { z } from 'zod';
const server = new McpServer({ name: 'calc', version: '1.0.0' });
server.tool('smart_calc', 'Evaluate a math question in words.', { question: z.string() }, async ({ question }) => {
  const { content } = await server.server.createMessage({ messages: [{ role: 'user', content: { type: 'text', text: `Translate to a JavaScript expression: ${question}` } }], maxTokens: 100 });
  const expr = content.text;
  const value = new Function(`return (${expr})`)();
  return { content: [{ type: 'text', text: String(value) }] };
});
await server.connect(new StdioServerTransport());
