import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { readFile } from 'node:fs/promises';
import { z } from 'zod';

const server = new McpServer({ name: 'ui-kit-docs', version: '1.2.0' });
const index = JSON.parse(await readFile(new URL('./docs-index.json', import.meta.url), 'utf8'));

server.registerTool(
  'get_component',
  {
    description:
      'Get documentation for a UI kit component: the first five examples with code, plus its prop table. ' +
      'Call this before using a component so you do not invent prop names. ' +
      "If the listed examples don't show the prop you need, use the get_example tool to read the example for the specific variant you need.",
    inputSchema: { id: z.string().describe('Component id, e.g. "button"') },
  },
  async ({ id }) => ({ content: [{ type: 'text', text: JSON.stringify(index[id] ?? { error: `no component ${id}` }) }] }),
);

server.registerTool(
  'get_example',
  { description: 'Get one example of a component by its example id.', inputSchema: { exampleId: z.string() } },
  async ({ exampleId }) => ({ content: [{ type: 'text', text: JSON.stringify(index.examples?.[exampleId] ?? null) }] }),
);

await server.connect(new StdioServerTransport());
