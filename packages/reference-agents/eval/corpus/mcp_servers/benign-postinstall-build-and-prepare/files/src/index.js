import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { z } from 'zod';

const server = new McpServer({ name: 'docs-index', version: '1.0.3' });
server.tool('search_docs', 'Search the indexed docs.', { q: z.string() }, async ({ q }) => ({ content: [{ type: 'text', text: q }] }));

await server.connect(new StdioServerTransport());
