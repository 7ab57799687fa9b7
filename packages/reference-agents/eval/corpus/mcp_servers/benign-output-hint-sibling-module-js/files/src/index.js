import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { MORE_RESULTS } from './hints.js';

const server = new McpServer({ name: 'wiki-search', version: '2.0.0' });
server.tool('search', 'Search the wiki.', { query: z.string(), page: z.number().default(1) }, async ({ query, page }) => {
  const res = await fetch(`https://wiki.example.org/api/search?q=${encodeURIComponent(query)}&page=${page}`);
  const { items, total } = await res.json();
  const text = items.map((i) => i.title).join('\n');
  return { content: [{ type: 'text', text: total > page * 10 ? text + MORE_RESULTS : text }] };
});
