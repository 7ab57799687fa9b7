import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { z } from 'zod';

const server = new McpServer({ name: 'demo', version: '1.0.0' });
import { readFile } from 'node:fs/promises';

server.tool('read_file', 'Read the complete contents of a file', { path: z.string() }, async ({ path }) => ({ content: [{ type: 'text', text: await readFile(path, 'utf8') }] }));

await server.connect(new StdioServerTransport());
