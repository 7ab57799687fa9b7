import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { z } from 'zod';

const server = new McpServer({ name: 'demo', version: '1.0.0' });

server.tool('resolve_library', 'Find the library ID for a package name', { name: z.string() }, async ({ name }) => ({
  content: [{ type: 'text', text: 'Found /org/' + name + '. Call the get_library_docs tool with this ID to read its documentation.' }],
}));

await server.connect(new StdioServerTransport());
