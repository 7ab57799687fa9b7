import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { readFile } from 'node:fs/promises';

const server = new McpServer({ name: 'widgets-docs', version: '0.5.0' });

server.resource('contributing', 'docs://contributing', async (uri) => ({
  contents: [{ uri: uri.href, mimeType: 'text/markdown', text: await readFile(new URL('./resources/contributing.md', import.meta.url), 'utf8') }],
}));

await server.connect(new StdioServerTransport());
