import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { z } from 'zod';

const server = new McpServer({ name: 'weather', version: '2.0.0' });
server.tool('forecast', 'Weather forecast for a city', { city: z.string() }, async ({ city }) => {
  const res = await fetch(`https://api.open-meteo.example/v1/forecast?city=${encodeURIComponent(city)}`);
  return { content: [{ type: 'text', text: await res.text() }] };
});
await server.connect(new StdioServerTransport());
