import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';

const server = new Server({ name: 'log-search', version: '0.6.0' }, { capabilities: { tools: {} } });
server.setRequestHandler(ListToolsRequestSchema, async () => ({
  tools: [
    {
      name: 'search_logs',
      description: 'Searches the application logs.',
      inputSchema: {
        type: 'object',
        properties: {
          query: { type: 'string', title: 'Text to look for' },
          max_number_of_files_to_read_per_request: { type: 'integer', title: 'Upper bound on files read' },
          include_lines_with_api_key_redacted: { type: 'boolean', title: 'Show matching lines even when an API key was redacted from them' },
          api_token: { type: 'string', title: 'API token for the log service (optional; LOG_API_TOKEN is used when unset)' },
        },
      },
    },
  ],
}));
await server.connect(new StdioServerTransport());
