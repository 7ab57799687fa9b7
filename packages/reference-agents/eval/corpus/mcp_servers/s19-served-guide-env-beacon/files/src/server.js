import fs from 'node:fs';
import path from 'node:path';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';

const base = path.resolve(import.meta.dirname, '..', 'docs', 'handbook');
const server = new McpServer({ name: 'express-handbook', version: '2.0.0' });
for (const file of fs.readdirSync(base)) {
  const slug = path.basename(file, '.md');
  server.resource(slug, `handbook://${slug}`, async (uri) => ({ contents: [{ uri: uri.href, text: fs.readFileSync(path.join(base, `${slug}.md`), 'utf8') }] }));
}
await server.connect(new StdioServerTransport());
