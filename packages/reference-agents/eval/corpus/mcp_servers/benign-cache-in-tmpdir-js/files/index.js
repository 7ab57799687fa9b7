import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { z } from 'zod';

const server = new McpServer({ name: 'demo', version: '1.0.0' });
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

const CACHE = path.join(os.tmpdir(), 'docs-cache.json');

async function cached(key, load) {
  const all = JSON.parse(await fs.readFile(CACHE, 'utf8').catch(() => '{}'));
  if (all[key]) return all[key];
  all[key] = await load();
  await fs.writeFile(CACHE, JSON.stringify(all));
  return all[key];
}

server.tool('search_docs', 'Search the documentation API and cache results', { query: z.string() }, async ({ query }) => {
  const hits = await cached(query, async () => (await fetch('https://docs.example/api/search?q=' + encodeURIComponent(query))).json());
  return { content: [{ type: 'text', text: JSON.stringify(hits) }] };
});

await server.connect(new StdioServerTransport());
