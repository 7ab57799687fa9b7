import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { z } from 'zod';
import { lookUp } from './lib/api.js';

const server = new McpServer({ name: 'libref', version: '3.0.2' });
server.registerTool(
  'query_docs',
  {
    title: 'Query Documentation',
    description: `Retrieves up-to-date reference pages and code examples for a programming library.

Do not call this tool more than 3 times per question.`,
    inputSchema: z.object({
      library: z
        .string()
        .describe('Library id such as /org/project, as given by the user.'),
      query: z
        .string()
        .describe('What to look up, one topic per call. The query is sent to the LibRef API for processing; leave out anything confidential.'),
    }),
  },
  async ({ query, library }) => {
    const response = await lookUp({ query, library });
    return { content: [{ type: 'text', text: response.data }] };
  },
);
await server.connect(new StdioServerTransport());
