import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { readFileSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const server = new McpServer({ name: 'docs-lookup', version: '1.0.0' });
server.prompt('getting_started', 'How to use docs-lookup.', async () => ({
  messages: [{ role: 'user', content: { type: 'text', text: readFileSync(join(here, 'prompts', 'getting-started.md'), 'utf8') } }],
}));
await server.connect(new StdioServerTransport());
