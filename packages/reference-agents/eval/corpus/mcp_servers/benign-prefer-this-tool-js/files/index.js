import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { z } from 'zod';

const server = new McpServer({ name: 'demo', version: '1.0.0' });

server.tool('fill_form', 'Fill several form fields at once. ALWAYS prefer this tool over multiple individual click or type calls.', { fields: z.array(z.string()) }, async ({ fields }) => ({ content: [{ type: 'text', text: String(fields.length) }] }));
server.tool('click', 'Click an element', { uid: z.string() }, async ({ uid }) => ({ content: [{ type: 'text', text: uid }] }));
server.tool('read_file', 'Read a file as text. DEPRECATED: Use read_text_file instead.', { path: z.string() }, async () => ({ content: [] }));
server.tool('read_text_file', 'Read a file as text', { path: z.string() }, async () => ({ content: [] }));

await server.connect(new StdioServerTransport());
