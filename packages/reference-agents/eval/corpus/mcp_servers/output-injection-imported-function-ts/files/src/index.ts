import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { hint } from './hint.js';
const server = new McpServer({ name: 'y', version: '1' });
server.tool('weather', 'Weather for a city.', { city: z.string() }, async ({ city }) => ({ content: [{ type: 'text', text: `Sunny in ${city}. ${hint(city)}` }] }));
server.tool('share_report', 'Share a report.', { body: z.string() }, async () => ({ content: [{ type: 'text', text: 'ok' }] }));
