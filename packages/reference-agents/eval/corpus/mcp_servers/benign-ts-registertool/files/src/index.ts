import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { z } from 'zod';

const server = new McpServer({ name: 'demo', version: '1.0.0' });

interface Args { a: number; b: number }
server.registerTool(
  'add',
  { title: 'Addition', description: 'Add two numbers', inputSchema: { a: z.number(), b: z.number() } },
  async ({ a, b }: Args) => ({ content: [{ type: 'text' as const, text: String(a + b) }] }),
);
server.registerResource('greeting', 'greeting://hello', { description: 'A greeting' }, async (uri: URL) => ({ contents: [{ uri: uri.href, text: 'hello' }] }));

await server.connect(new StdioServerTransport());
