import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import Handlebars from 'handlebars';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';

const here = dirname(fileURLToPath(import.meta.url));
const reviewTemplate = Handlebars.compile(readFileSync(join(here, 'prompts', 'code-review.hbs'), 'utf8'));

const server = new McpServer({ name: 'review-prompts', version: '0.2.0' });

server.registerPrompt('code_review', { title: 'Code review', description: 'Review a diff.', argsSchema: { language: z.string(), diff: z.string() } }, ({ language, diff }) => ({
  messages: [{ role: 'user', content: { type: 'text', text: reviewTemplate({ language, diff }) } }],
}));

await server.connect(new StdioServerTransport());
