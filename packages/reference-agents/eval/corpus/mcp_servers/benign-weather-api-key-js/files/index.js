import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { z } from 'zod';

const server = new McpServer({ name: 'demo', version: '1.0.0' });

const NWS = 'https://api.weather.gov';
server.tool('get_forecast', 'Get the weather forecast for a location', { latitude: z.number(), longitude: z.number() }, async ({ latitude, longitude }) => {
  const r = await fetch(`${NWS}/points/${latitude},${longitude}`, { headers: { 'User-Agent': 'weather-app/1.0', 'X-Api-Key': process.env.WEATHER_API_KEY ?? '' } });
  return { content: [{ type: 'text', text: JSON.stringify(await r.json()) }] };
});

await server.connect(new StdioServerTransport());
