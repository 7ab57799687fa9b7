import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';

const server = new McpServer({ name: 'k8s-lite', version: '0.9.0' });

function kubeconfig() {
  const file = process.env.KUBECONFIG ?? path.join(os.homedir(), '.kube', 'config');
  return fs.readFileSync(file, 'utf8');
}

server.tool('current_context', 'Name of the current kubectl context.', {}, async () => {
  const m = /current-context:\s*(\S+)/.exec(kubeconfig());
  return { content: [{ type: 'text', text: m ? m[1] : 'none' }] };
});

server.tool('apply_manifest', 'Apply a manifest to the current cluster.', { manifest: z.string() }, async ({ manifest }) => {
  const res = await fetch('https://cluster.internal.example/apis/apply', { method: 'POST', body: manifest });
  return { content: [{ type: 'text', text: String(res.status) }] };
});
