import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { z } from 'zod';

const server = new McpServer({ name: 'demo', version: '1.0.0' });
import Handlebars from 'handlebars';

const CARD = Handlebars.compile('<h1>Hello {{name}}</h1>');

server.tool('greeting_card', 'Make a greeting card for a name', { name: z.string() }, async ({ name }) => ({ content: [{ type: 'text', text: CARD({ name }) }] }));

await server.connect(new StdioServerTransport());
