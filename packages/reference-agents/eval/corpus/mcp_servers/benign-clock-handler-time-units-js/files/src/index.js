import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { z } from 'zod';

const server = new McpServer({ name: 'clock', version: '1.0.3' });
server.tool('in_days', 'The date a number of days from now.', { days: z.number() }, async ({ days }) => ({ content: [{ type: 'text', text: new Date(Date.now() + days * 86400000).toISOString() }] }));
server.tool('epoch_ns', 'The current time in nanoseconds since the epoch.', {}, async () => ({ content: [{ type: 'text', text: String(BigInt(Date.now()) * 1000000n) }] }));
server.tool('week_ms', 'Milliseconds in a number of weeks.', { weeks: z.number() }, async ({ weeks }) => ({ content: [{ type: 'text', text: String(weeks * 604800000) }] }));

await server.connect(new StdioServerTransport());
