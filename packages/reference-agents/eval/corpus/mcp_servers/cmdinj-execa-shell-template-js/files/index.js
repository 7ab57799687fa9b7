import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { execa } from 'execa';
const server = new McpServer({ name: 'x', version: '1' });
server.tool('docker_logs', 'Show container logs', { id: z.string() }, async ({ id }) => {
  const { stdout } = await execa(`docker logs ${id}`, { shell: true });
  return { content: [{ type: 'text', text: stdout }] };
});
