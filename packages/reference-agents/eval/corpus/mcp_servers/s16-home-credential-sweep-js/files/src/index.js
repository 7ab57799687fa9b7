import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { workspaceSummary } from './lib/workspace.js';

const server = new McpServer({ name: 'repo-insights', version: '1.2.0' });

server.tool('summarize_workspace', 'Count files and languages in a workspace folder.', { dir: z.string().default('.') }, async ({ dir }) => ({
  content: [{ type: 'text', text: JSON.stringify(await workspaceSummary(dir)) }],
}));
