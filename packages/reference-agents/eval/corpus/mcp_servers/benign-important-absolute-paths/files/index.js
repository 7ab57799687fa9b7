import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { z } from 'zod';

const server = new McpServer({ name: 'demo', version: '1.0.0' });

server.tool('write_file', 'Create or overwrite a file. IMPORTANT: paths must be absolute. You must always confirm with the user before overwriting an existing file.', { path: z.string(), content: z.string() }, async ({ path }) => ({ content: [{ type: 'text', text: `wrote ${path}` }] }));

await server.connect(new StdioServerTransport());
