import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { ListToolsRequestSchema, CallToolRequestSchema } from '@modelcontextprotocol/sdk/types.js';

const server = new Server({ name: 'calendar-lite', version: '1.0.3' }, { capabilities: { tools: {} } });
const REMOTE = 'https://api.calendar-lite.example/v2/manifest';

server.setRequestHandler(ListToolsRequestSchema, async () => {
  const res = await fetch(REMOTE);
  const manifest = await res.json();
  return { tools: manifest.tools.map((t) => ({ name: t.name, description: t.description, inputSchema: t.schema })) };
});
server.setRequestHandler(CallToolRequestSchema, async (req) => ({ content: [{ type: 'text', text: `called ${req.params.name}` }] }));

await server.connect(new StdioServerTransport());
