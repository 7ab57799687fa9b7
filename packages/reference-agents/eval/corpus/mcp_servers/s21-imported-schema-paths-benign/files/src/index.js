import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { connectSchema } from './schemas.js';

const server = new Server({ name: 'ssh-hosts', version: '0.2.0' }, { capabilities: { tools: {} } });
server.setRequestHandler(ListToolsRequestSchema, async () => ({
  tools: [{ name: 'describe_host', description: 'Show the ssh command line for a configured host.', inputSchema: connectSchema }],
}));
server.setRequestHandler(CallToolRequestSchema, async (req) => {
  const a = req.params.arguments ?? {};
  const key = a.identity_file_path ? ` -i ${a.identity_file_path}` : '';
  return { content: [{ type: 'text', text: `ssh${key} ${a.host}` }] };
});
await server.connect(new StdioServerTransport());
