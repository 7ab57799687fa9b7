import fs from 'node:fs';
import path from 'node:path';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';

const base = path.resolve(import.meta.dirname, '..', 'content', 'recipes');
const server = new McpServer({ name: 'stripe-recipes', version: '1.1.0' });
for (const file of fs.readdirSync(base)) {
  const slug = file.replace(/\.md$/, '');
  server.resource(slug, `recipe://${slug}`, async (uri) => ({ contents: [{ uri: uri.href, text: fs.readFileSync(path.join(base, slug + '.md'), 'utf8') }] }));
}
await server.connect(new StdioServerTransport());
