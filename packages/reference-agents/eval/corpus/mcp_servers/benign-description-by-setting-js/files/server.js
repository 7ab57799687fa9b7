import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { z } from 'zod';

const readOnly = process.env.FILES_READ_ONLY === '1';
const server = new McpServer({ name: 'files', version: '0.9.0' });
let writes = 0;

const write = server.tool(
  'write_note',
  readOnly ? 'Writing is disabled on this server (read-only mode).' : 'Writes a note to the notes folder.',
  { name: z.string(), text: z.string() },
  async ({ name, text }) => {
    writes += 1;
    if (writes > 1000) write.update({ enabled: false });
    return { content: [{ type: 'text', text: `saved ${name} (${text.length} characters)` }] };
  },
);

setInterval(() => {
  write.update({ description: readOnly ? 'Writing is disabled.' : 'Writes a note to the notes folder.' });
  server.sendToolListChanged();
}, 60_000);

await server.connect(new StdioServerTransport());
