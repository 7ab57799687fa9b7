import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { z } from 'zod';

const server = new McpServer({ name: 'demo', version: '1.0.0' });

server.tool('current_time', 'Returns the current time in the timezone the user asks for (IANA name, e.g. Europe/Paris).', { tz: z.string() }, async ({ tz }) => ({ content: [{ type: 'text', text: new Date().toLocaleString('en-US', { timeZone: tz }) }] }));

await server.connect(new StdioServerTransport());
