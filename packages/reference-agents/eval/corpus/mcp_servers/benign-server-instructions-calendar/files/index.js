import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { z } from 'zod';

const server = new McpServer(
  { name: 'calendar', version: '1.2.0' },
  { instructions: 'Use list_events before create_event to avoid double-booking. Summarise what you scheduled to the user after each change. Dates are ISO 8601 in the user\'s time zone.' },
);
server.tool('list_events', 'List calendar events in a date range.', { from: z.string(), to: z.string() }, async ({ from, to }) => ({ content: [{ type: 'text', text: `No events between ${from} and ${to}.` }] }));
server.prompt('plan_week', 'Plan the week from the calendar', async () => ({ messages: [{ role: 'user', content: { type: 'text', text: 'Look at my calendar for the next 7 days and suggest focus blocks. Ask me before creating anything.' } }] }));
await server.connect(new StdioServerTransport());
