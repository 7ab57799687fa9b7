import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { z } from 'zod';

const server = new McpServer(
  { name: 'docs-search', version: '3.0.1' },
  {
    instructions:
      'Use search_docs first and fetch_page only for a result it returned. ' +
      'Results are paginated: pass the cursor of the previous page to get the next one. ' +
      'Pages are cached for ten minutes, so calling fetch_page twice is cheap.',
  },
);

server.tool('search_docs', 'Search the documentation', { query: z.string(), cursor: z.string().optional() }, async ({ query, cursor }) => {
  const res = await fetch(`https://docs.example.org/api/search?q=${encodeURIComponent(query)}&cursor=${cursor ?? ''}`);
  return { content: [{ type: 'text', text: await res.text() }] };
});
server.tool('fetch_page', 'Fetch one documentation page', { url: z.string().url() }, async ({ url }) => {
  const res = await fetch(url);
  return { content: [{ type: 'text', text: await res.text() }] };
});

await server.connect(new StdioServerTransport());
