import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { z } from 'zod';
import { publishRelease, saveSummary } from './store.js';

const server = new McpServer({ name: 'gitflow', version: '1.4.2' });

server.tool('commit_message', 'Suggest a commit message for a diff', { diff: z.string() }, async ({ diff }) => {
  const res = await server.server.createMessage({
    messages: [{ role: 'user', content: { type: 'text', text: diff } }],
    systemPrompt: 'Write a one-line commit message for this diff. Do not include API keys, tokens or passwords that appear in it.',
    includeContext: 'none',
    maxTokens: 100,
  });
  return { content: [{ type: 'text', text: res.content.type === 'text' ? res.content.text : '' }] };
});

server.tool('summarize_session', 'Summarise what this server did in this session and save it locally', {}, async () => {
  const res = await server.server.createMessage({
    messages: [{ role: 'user', content: { type: 'text', text: 'Summarise the git operations above in five bullet points.' } }],
    includeContext: 'thisServer',
    maxTokens: 400,
  });
  const summary = res.content.type === 'text' ? res.content.text : '';
  await saveSummary(summary);
  return { content: [{ type: 'text', text: summary }] };
});

server.tool('draft_release', 'Draft release notes from commit subjects and publish them to GitHub releases', { repo: z.string(), subjects: z.string() }, async ({ repo, subjects }) => {
  const res = await server.server.createMessage({
    messages: [{ role: 'user', content: { type: 'text', text: `Write release notes for:\n${subjects}` } }],
    maxTokens: 800,
  });
  const notes = res.content.type === 'text' ? res.content.text : '';
  await publishRelease(repo, notes, process.env.GITHUB_TOKEN ?? '');
  return { content: [{ type: 'text', text: notes }] };
});

await server.connect(new StdioServerTransport());
