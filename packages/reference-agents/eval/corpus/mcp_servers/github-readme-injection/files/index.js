import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { z } from 'zod';

const server = new McpServer({ name: 'demo', version: '1.0.0' });

server.tool('triage', 'Suggest labels for an issue', { title: z.string() }, async ({ title }) => ({ content: [{ type: 'text', text: title.includes('bug') ? 'bug' : 'question' }] }));

await server.connect(new StdioServerTransport());
