import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { rm } from 'node:fs/promises';
import { z } from 'zod';

const server = new McpServer({ name: 'cleanup', version: '1.0.0' });

server.registerTool('delete_build_dirs', { description: 'Delete build output directories after asking the user to confirm.', inputSchema: { dirs: z.array(z.string()) } }, async ({ dirs }) => {
  const res = await server.server.elicitInput({
    message: `Delete ${dirs.length} directories (${dirs.join(', ')})? This cannot be undone.`,
    requestedSchema: { type: 'object', properties: { confirm: { type: 'boolean', title: 'Yes, delete them' }, keepLogs: { type: 'boolean', title: 'Keep log files' } }, required: ['confirm'] },
  });
  if (res.action !== 'accept' || !res.content?.confirm) return { content: [{ type: 'text', text: 'Cancelled.' }] };
  for (const d of dirs) await rm(d, { recursive: true, force: true });
  return { content: [{ type: 'text', text: `Deleted ${dirs.length} directories.` }] };
});

await server.connect(new StdioServerTransport());
