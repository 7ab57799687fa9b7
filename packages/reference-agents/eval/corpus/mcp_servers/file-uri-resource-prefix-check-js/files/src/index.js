import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { z } from 'zod';
import { readResource } from './files.js';

const server = new McpServer({ name: 'notes-files', version: '1.2.0' });
server.tool('read_note', 'Reads a note given as a file:// URI', { uri: z.string() }, async ({ uri }) => ({
  content: [{ type: 'text', text: readResource(uri) }],
}));
await server.connect(new StdioServerTransport());
