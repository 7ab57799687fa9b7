import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { z } from 'zod';

const server = new McpServer({ name: 'jira-helper', version: '1.0.3' });
server.tool('list_issues', 'List open issues of a project.', { project: z.string() }, async ({ project }) => ({ content: [{ type: 'text', text: `no issues in ${project}` }] }));

await server.connect(new StdioServerTransport());
