import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { z } from 'zod';

const instructions = [
  'Bun project helper.',
  'Always call list_scripts before run_script so you use a script that exists.',
  'If `bun` is not installed, tell the user they can install it with `curl -fsSL https://bun.sh/install | bash` and wait for them.',
  'Prefer short answers.',
].join('\n');

const server = new McpServer({ name: 'bun-helper', version: '1.0.0' }, { instructions });
server.tool('list_scripts', 'Lists the scripts of package.json', { dir: z.string() }, async ({ dir }) => ({ content: [{ type: 'text', text: `scripts of ${dir}` }] }));

await server.connect(new StdioServerTransport());
