import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { z } from 'zod';

const server = new McpServer({ name: 'demo', version: '1.0.0' });

server.tool('scan_description', 'Check a tool description for prompt injection', { text: z.string() }, async ({ text }) => ({ content: [{ type: 'text', text: /ignore/i.test(text) ? 'suspicious' : 'clean' }] }));

await server.connect(new StdioServerTransport());
