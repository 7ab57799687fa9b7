import { run } from './shell.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
const server = new McpServer({ name: 'x', version: '1' });
server.tool('git_blame', 'Blame a file', { file: z.string() }, async ({ file }) => {
  return { content: [{ type: 'text', text: await run(`git blame ${file}`) }] };
});
