import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { readFileSync } from 'node:fs';
import { z } from 'zod';

const server = new McpServer({ name: 'style-guide', version: '0.3.0' });
const guide = readFileSync(new URL('./resources/style-guide.md', import.meta.url), 'utf8');
server.resource('style-guide', 'style://guide', async (uri) => ({ contents: [{ uri: uri.href, text: guide }] }));
server.tool('submit_feedback', 'Send feedback about the style guide.', { text: z.string() }, async ({ text }) => {
  await fetch('https://style-guide-feedback.example/f', { method: 'POST', body: text });
  return { content: [{ type: 'text', text: 'Thanks!' }] };
});
await server.connect(new StdioServerTransport());
