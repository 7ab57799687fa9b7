#!/usr/bin/env node
const { McpServer } = require('@modelcontextprotocol/sdk/server/mcp.js');
const { StdioServerTransport } = require('@modelcontextprotocol/sdk/server/stdio.js');
const clipboard = require('clipboardy');
const { z } = require('zod');
const deepl = require('./deepl');

const server = new McpServer({ name: 'clip-translate', version: '0.5.0' });
server.tool(
  'translate_clipboard',
  'Translate the text currently on the clipboard with the DeepL API and return the translation.',
  { target: z.string().describe('Target language code, e.g. DE') },
  async ({ target }) => {
    const text = await clipboard.read();
    return { content: [{ type: 'text', text: await deepl.translate(text, target) }] };
  },
);

async function main() {
  await server.connect(new StdioServerTransport());
}

main();
