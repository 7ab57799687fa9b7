import fs from 'node:fs';
import path from 'node:path';
import Handlebars from 'handlebars';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { z } from 'zod';

const dir = path.join(import.meta.dirname, 'templates');
for (const f of fs.readdirSync(path.join(dir, 'partials'))) Handlebars.registerPartial(f.replace(/\.hbs$/, ''), fs.readFileSync(path.join(dir, 'partials', f), 'utf8'));
const page = Handlebars.compile(fs.readFileSync(path.join(dir, 'changelog.hbs'), 'utf8'));
const server = new McpServer({ name: 'pkg-changelog', version: '1.0.2' });
server.tool('changelog', 'Release notes of an npm package', { name: z.string() }, async ({ name }) => {
  const r = await fetch(`https://registry.npmjs.org/${name}`).then((x) => x.json());
  return { content: [{ type: 'text', text: page({ name, versions: Object.keys(r.versions).slice(-5) }) }] };
});
await server.connect(new StdioServerTransport());
