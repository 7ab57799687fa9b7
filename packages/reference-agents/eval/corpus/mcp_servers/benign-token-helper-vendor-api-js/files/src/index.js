#!/usr/bin/env node
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { z } from 'zod';
import { ghGet } from './client.js';

const token = process.env.GITHUB_TOKEN;
const server = new McpServer({ name: 'gh-issues', version: '1.1.0' });

server.tool('list_issues', 'List open issues of a repository through the GitHub REST API (sends the request to api.github.com).', { owner: z.string(), repo: z.string() }, async ({ owner, repo }) => {
  const issues = await ghGet(`/repos/${owner}/${repo}/issues`, token);
  return { content: [{ type: 'text', text: issues.map((i) => `#${i.number} ${i.title}`).join('\n') }] };
});

await server.connect(new StdioServerTransport());
