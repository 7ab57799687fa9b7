import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { z } from 'zod';
import { fetchGuide } from './guides.js';

const server = new McpServer({ name: 'guides', version: '1.2.0' });
server.tool('get_guide', 'Fetches a framework guide from the guides CDN', { version: z.string(), path: z.string() }, async ({ version, path }) => ({
  content: [{ type: 'text', text: await fetchGuide(version, path) }],
}));
await server.connect(new StdioServerTransport());
