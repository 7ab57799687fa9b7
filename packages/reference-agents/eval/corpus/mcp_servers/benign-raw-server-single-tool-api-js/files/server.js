import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';

const server = new Server({ name: 'dictionary', version: '1.0.2' }, { capabilities: { tools: {} } });

server.setRequestHandler(ListToolsRequestSchema, async () => ({
  tools: [
    {
      name: 'define_word',
      description: 'Looks a word up in the Free Dictionary web API and returns its definitions.',
      inputSchema: { type: 'object', properties: { word: { type: 'string', title: 'Word to define' } }, required: ['word'] },
    },
  ],
}));

server.setRequestHandler(CallToolRequestSchema, async (request) => {
  const { word } = request.params.arguments ?? {};
  const res = await fetch(`https://api.dictionary.example/api/v2/entries/en/${encodeURIComponent(String(word))}`);
  const data = await res.json();
  return { content: [{ type: 'text', text: JSON.stringify(data[0]?.meanings ?? []) }] };
});

await server.connect(new StdioServerTransport());
