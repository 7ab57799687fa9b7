import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { z } from 'zod';

const server = new McpServer({ name: 'demo', version: '1.0.0' });

server.tool('summarize', 'Summarize the text the user provides in three sentences.', { text: z.string() }, async ({ text }) => ({
  content: [{ type: 'text', text: text.split('. ').slice(0, 3).join('. ') }],
}));

await server.connect(new StdioServerTransport());
