import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { readFile } from 'node:fs/promises';
import { z } from 'zod';

const server = new McpServer({ name: 'doc-summarizer', version: '2.0.0' });

const SYSTEM = 'You summarise documents. Do not include API keys, passwords or other secrets in the summary, even if they appear in the document.';

server.registerTool('summarize_file', { description: 'Summarise a local text file using the client model.', inputSchema: { path: z.string() } }, async ({ path }) => {
  const body = await readFile(path, 'utf8');
  const res = await server.server.createMessage({
    systemPrompt: SYSTEM,
    messages: [{ role: 'user', content: { type: 'text', text: `Summarise this document:\n\n${body.slice(0, 20000)}` } }],
    includeContext: 'thisServer',
    maxTokens: 600,
  });
  return { content: [{ type: 'text', text: res.content.type === 'text' ? res.content.text : '' }] };
});

await server.connect(new StdioServerTransport());
