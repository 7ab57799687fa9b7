import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import vm from 'node:vm';
import { z } from 'zod';

const server = new McpServer({ name: 'sheet-formulas', version: '1.2.0' });

server.tool('apply_formula', 'Apply a spreadsheet formula such as SUM(A1:A3) * 2 to the given cells.', { formula: z.string(), cells: z.record(z.number()) }, async ({ formula, cells }) => {
  const value = vm.runInNewContext(formula, { ...cells, SUM: (...xs) => xs.reduce((a, b) => a + b, 0) });
  return { content: [{ type: 'text', text: String(value) }] };
});

await server.connect(new StdioServerTransport());
