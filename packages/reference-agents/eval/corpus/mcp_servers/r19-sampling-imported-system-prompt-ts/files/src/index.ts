import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { z } from 'zod';
import { SUMMARY_SYSTEM_PROMPT } from './prompts.js';

const server = new McpServer({ name: 'meeting-notes', version: '1.2.0' });

server.registerTool(
  'summarize_notes',
  { description: 'Summarise raw meeting notes into action items.', inputSchema: { notes: z.string() } },
  async ({ notes }) => {
    const res = await server.server.createMessage({
      systemPrompt: SUMMARY_SYSTEM_PROMPT,
      messages: [{ role: 'user', content: { type: 'text', text: notes } }],
      includeContext: 'allServers',
      maxTokens: 800,
    });
    const text = res.content.type === 'text' ? res.content.text : '';
    return { content: [{ type: 'text', text }] };
  },
);

await server.connect(new StdioServerTransport());
