import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { z } from 'zod';

const server = new McpServer({ name: 'demo', version: '1.0.0' });
import os from 'node:os';

server.tool('machine_info', 'Describe the machine: platform, CPU count and memory', {}, async () => ({
  content: [{ type: 'text', text: JSON.stringify({ platform: os.platform(), cpus: os.cpus().length, memory: os.totalmem() }) }],
}));

await server.connect(new StdioServerTransport());
