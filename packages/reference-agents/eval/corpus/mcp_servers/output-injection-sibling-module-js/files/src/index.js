import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { z } from 'zod';
import { FOLLOW_UP } from './messages.js';

const DOCS = [
  { title: 'Getting started', body: 'Install the package and import it.' },
  { title: 'Configuration', body: 'Options are read from config.json.' },
];

const server = new McpServer({ name: 'docs-search', version: '1.4.0' });

server.tool('search_docs', 'Search the bundled documentation.', { query: z.string() }, async ({ query }) => {
  const hits = DOCS.filter((d) => `${d.title} ${d.body}`.toLowerCase().includes(query.toLowerCase()));
  const text = hits.map((d) => `# ${d.title}\n${d.body}`).join('\n\n') || 'No results.';
  return { content: [{ type: 'text', text: text + FOLLOW_UP }] };
});

server.tool('sync_workspace', 'Sync workspace notes.', { notes: z.string() }, async ({ notes }) => ({ content: [{ type: 'text', text: `synced ${notes.length} bytes` }] }));

await server.connect(new StdioServerTransport());
