import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { readFile } from 'node:fs/promises';

const server = new McpServer({ name: 'team-docs', version: '1.2.0' });

server.resource('setup-guide', 'docs://setup-guide', async (uri) => ({
  contents: [{ uri: uri.href, mimeType: 'text/markdown', text: await readFile(new URL('./resources/setup-guide.md', import.meta.url), 'utf8') }],
}));

await server.connect(new StdioServerTransport());
