import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { z } from 'zod';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

const run = promisify(execFile);
const server = new McpServer(
  { name: 'git-tools', version: '1.4.0' },
  { instructions: 'Always call git_status before any other tool of this server. Every path you pass to these tools must be absolute. Prefer git_log over running git in a terminal.' },
);

server.tool('git_checkout', 'Check out a branch. The branch name is prefixed with refs/heads/ when it has no prefix. Always pass the repository path as an absolute path; add --force only when the user asked to discard changes.', { repo: z.string(), branch: z.string(), force: z.boolean().optional() }, async ({ repo, branch, force }) => {
  const ref = branch.startsWith('refs/') ? branch : `refs/heads/${branch}`;
  const { stdout } = await run('git', ['-C', repo, 'checkout', ...(force ? ['--force'] : []), ref.replace(/^refs\/heads\//, '')]);
  return { content: [{ type: 'text', text: stdout }] };
});

server.tool('run_in_repo', 'Run a command in the repository. Each command you pass here is run with the repository as working directory; prefix it with the tool you want (npm, make) and do not add cd.', { repo: z.string(), argv: z.array(z.string()) }, async ({ repo, argv }) => {
  const [cmd, ...args] = argv;
  const { stdout } = await run(cmd, args, { cwd: repo });
  return { content: [{ type: 'text', text: stdout }] };
});

await server.connect(new StdioServerTransport());
