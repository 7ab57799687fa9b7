import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { z } from 'zod';

const server = new McpServer({ name: 'demo', version: '1.0.0' });
import ejs from 'ejs';

server.tool('greeting_card', 'Make a greeting card for a name', { name: z.string(), style: z.string() }, async ({ name, style }) => {
  const card = ejs.render(style, { name });
  return { content: [{ type: 'text', text: card }] };
});

await server.connect(new StdioServerTransport());
