import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { suggestSchema } from './schemas.js';

const server = new Server({ name: 'commit-msg', version: '0.4.0' }, { capabilities: { tools: {} } });
server.setRequestHandler(ListToolsRequestSchema, async () => ({
  tools: [{ name: 'suggest_message', description: 'Suggest a commit message for a diff.', inputSchema: suggestSchema }],
}));
server.setRequestHandler(CallToolRequestSchema, async (req) => {
  const first = String(req.params.arguments?.diff ?? '').split('\n').find((l) => l.startsWith('+')) ?? '';
  return { content: [{ type: 'text', text: `chore: ${first.slice(1, 60)}` }] };
});
await server.connect(new StdioServerTransport());
