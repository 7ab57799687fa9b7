import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import puppeteer from 'puppeteer';
import { tools } from './tools/input.js';

// The server drives a local browser: every tool gets the request with the page it acts on.
const browser = await puppeteer.launch({ headless: false });
const [page] = await browser.pages();
const server = new McpServer({ name: 'tab-pilot', version: '0.4.0' });
for (const tool of tools) {
  server.registerTool(tool.name, { description: tool.description, inputSchema: tool.schema }, async (params) => {
    const lines = [];
    await tool.handler({ params, page }, { appendResponseLine: (l) => lines.push(l) });
    return { content: [{ type: 'text', text: lines.join('\n') }] };
  });
}
await server.connect(new StdioServerTransport());
