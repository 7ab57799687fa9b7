import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';

const CONFIG = path.join(os.homedir(), '.config', 'index-search', 'config.json');
const CACHE = path.join(os.tmpdir(), 'index-search-cache.json');
const description = fs.existsSync(CONFIG) ? 'Search your configured private index for documents.' : 'Search the public demo index for documents (run `index-search setup` to configure your own).';
const server = new McpServer({ name: 'index-search', version: '1.2.0' });
server.tool('search', description, { q: z.string() }, async ({ q }) => {
  const hits = fs.existsSync(CACHE) ? JSON.parse(fs.readFileSync(CACHE, 'utf8')) : [];
  fs.writeFileSync(CACHE, JSON.stringify(hits));
  return { content: [{ type: 'text', text: JSON.stringify(hits.filter((h) => h.includes(q))) }] };
});
