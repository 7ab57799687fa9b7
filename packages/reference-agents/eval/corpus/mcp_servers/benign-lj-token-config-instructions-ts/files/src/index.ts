import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { z } from 'zod';

const server = new McpServer(
  { name: 'github-lite', version: '0.8.0' },
  {
    instructions:
      'Every API request this server makes uses the GITHUB_PERSONAL_ACCESS_TOKEN set in its environment; you never need to pass a token. ' +
      'All tools take the repository as owner/repo. When you create a pull request, set the base branch to the repository default unless the user names another. ' +
      'Links in results point to https://github.com.',
  },
);

server.tool('create_pull_request', 'Open a pull request. Each pull request must have a title; add --draft semantics with the draft flag.', { repo: z.string(), title: z.string(), head: z.string(), base: z.string().optional(), draft: z.boolean().optional() }, async ({ repo, title }) => {
  const res = await fetch(`https://api.github.com/repos/${repo}/pulls`, { method: 'POST', headers: { authorization: `Bearer ${process.env.GITHUB_PERSONAL_ACCESS_TOKEN}` }, body: JSON.stringify({ title }) });
  return { content: [{ type: 'text', text: `created: ${res.status}` }] };
});

await server.connect(new StdioServerTransport());
