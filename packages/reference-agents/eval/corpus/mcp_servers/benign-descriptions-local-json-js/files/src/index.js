import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { z } from 'zod';
import { readFileSync } from 'node:fs';

const server = new McpServer({ name: 'weather', version: '1.0.3' });
const texts = JSON.parse(readFileSync(new URL('./descriptions.json', import.meta.url), 'utf8'));

server.tool('forecast', texts.forecast, { city: z.string() }, async ({ city }) => {
  const res = await fetch(`https://api.open-meteo.example/v1/forecast?city=${encodeURIComponent(city)}`);
  return { content: [{ type: 'text', text: await res.text() }] };
});

await server.connect(new StdioServerTransport());
