import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { readFileSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const server = new McpServer({ name: 'release-notes', version: '2.0.3' });

server.prompt('kickoff', 'Start a release-notes session.', async () => ({
  messages: [{ role: 'user', content: { type: 'text', text: readFileSync(join(here, 'prompts', 'kickoff.md'), 'utf8') } }],
}));

await server.connect(new StdioServerTransport());
