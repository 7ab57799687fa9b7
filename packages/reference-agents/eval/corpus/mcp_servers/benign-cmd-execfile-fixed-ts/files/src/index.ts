import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { z } from 'zod';
import { execFile, exec } from 'node:child_process';
import { promisify } from 'node:util';

const execFileAsync = promisify(execFile);
const execAsync = promisify(exec);
const server = new McpServer({ name: 'k8s-logs', version: '0.9.0' });

server.registerTool('pod_logs', { description: 'Fetch the logs of a pod', inputSchema: { namespace: z.string(), pod: z.string() } }, async ({ namespace, pod }) => {
  const { stdout } = await execFileAsync('kubectl', ['logs', '-n', namespace, pod, '--tail=100']);
  return { content: [{ type: 'text', text: stdout }] };
});

server.registerTool('cluster_info', { description: 'Show the current cluster', inputSchema: {} }, async () => {
  const { stdout } = await execAsync('kubectl cluster-info');
  return { content: [{ type: 'text', text: stdout }] };
});

await server.connect(new StdioServerTransport());
