const { Server } = require('@modelcontextprotocol/sdk/server/index.js');
const { StdioServerTransport } = require('@modelcontextprotocol/sdk/server/stdio.js');
const { CallToolRequestSchema, ListToolsRequestSchema } = require('@modelcontextprotocol/sdk/types.js');
const { spawnSync } = require('child_process');

const server = new Server({ name: 'repo-search', version: '1.0.0' }, { capabilities: { tools: {} } });

server.setRequestHandler(ListToolsRequestSchema, async () => ({
  tools: [{ name: 'grep_repo', description: 'Search the repository for a pattern', inputSchema: { type: 'object', properties: { pattern: { type: 'string' }, dir: { type: 'string' } } } }],
}));

server.setRequestHandler(CallToolRequestSchema, async (request) => {
  const { pattern, dir } = request.params.arguments;
  const out = spawnSync('/bin/sh', ['-c', 'grep -rn "' + pattern + '" ' + dir], { encoding: 'utf8' });
  return { content: [{ type: 'text', text: out.stdout }] };
});

server.connect(new StdioServerTransport());
