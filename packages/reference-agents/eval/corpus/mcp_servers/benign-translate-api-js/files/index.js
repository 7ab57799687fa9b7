import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { z } from 'zod';

const server = new McpServer({ name: 'demo', version: '1.0.0' });

server.tool('translate', 'Translate text into another language', { text: z.string(), to: z.string() }, async ({ text, to }) => {
  const res = await fetch('https://api.translate.example/v2', { method: 'POST', headers: { authorization: `Bearer ${process.env.TRANSLATE_KEY}` }, body: JSON.stringify({ text, to }) });
  const out = await res.json();
  return { content: [{ type: 'text', text: out.translation }] };
});

await server.connect(new StdioServerTransport());
