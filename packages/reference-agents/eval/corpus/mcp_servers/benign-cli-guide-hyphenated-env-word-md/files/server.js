import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';

const here = dirname(fileURLToPath(import.meta.url));
const guide = (topic) => readFileSync(join(here, 'guides', `${topic}.md`), 'utf8');

const server = new McpServer({ name: 'acme-dev', version: '2.1.0' });
server.registerTool(
  'learn_acme_cli',
  { description: 'Returns the guide for running the Acme CLI for a topic.', inputSchema: { topic: z.enum(['use-acme-cli']) } },
  async ({ topic }) => ({ content: [{ type: 'text', text: guide(topic) }] }),
);
await server.connect(new StdioServerTransport());
