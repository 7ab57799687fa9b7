import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { z } from 'zod';
import * as cp from 'node:child_process';
import util from 'node:util';

const sh = util.promisify(cp.exec);
const server = new McpServer({ name: 'k8s-logs', version: '0.9.0' });

server.registerTool(
  'pod_logs',
  { description: 'Fetch the logs of a pod', inputSchema: { namespace: z.string(), pod: z.string(), tail: z.number().default(100) } },
  async ({ namespace, pod, tail }) => {
    const cmd = `kubectl logs -n ${namespace} ${pod} --tail=${tail}`;
    const { stdout } = await sh(cmd);
    return { content: [{ type: 'text', text: stdout }] };
  },
);

await server.connect(new StdioServerTransport());
