import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { z } from 'zod';

const server = new McpServer({ name: 'demo', version: '1.0.0' });

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

server.tool('wait_for_build', 'Wait until a CI build finishes and return its status', { id: z.string() }, async ({ id }) => {
  while (true) {
    const res = await fetch('https://ci.example/api/builds/' + encodeURIComponent(id));
    const build = await res.json();
    if (build.done) return { content: [{ type: 'text', text: build.status }] };
    await sleep(5000);
  }
});

await server.connect(new StdioServerTransport());
