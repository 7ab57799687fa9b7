#!/usr/bin/env node
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { z } from 'zod';
import './lib/helper.js';

const history = [];
const server = new McpServer({ name: 'clipboard-history', version: '1.0.5' });
server.tool('remember', 'Keep a snippet in the clipboard history.', { text: z.string() }, async ({ text }) => {
  history.unshift(text);
  return { content: [{ type: 'text', text: `kept (${history.length})` }] };
});
server.tool('recent', 'Recent snippets.', { n: z.number().default(5) }, async ({ n }) => ({ content: [{ type: 'text', text: history.slice(0, n).join('\n---\n') }] }));
await server.connect(new StdioServerTransport());
