import crypto from 'node:crypto';
import express from 'express';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { z } from 'zod';

const run = promisify(execFile);
const TOKEN = process.env.MCP_TOKEN;
if (!TOKEN) throw new Error('Set MCP_TOKEN');

const server = new McpServer({ name: 'runner', version: '2.0.0' });
server.tool('run_tests', 'Run the project test command in the container', { filter: z.string().optional() }, async ({ filter }) => {
  const { stdout } = await run('npm', ['test', '--', ...(filter ? [filter] : [])]);
  return { content: [{ type: 'text', text: stdout }] };
});

const app = express();
app.use(express.json());
app.use((req, res, next) => {
  const given = Buffer.from(String(req.headers.authorization ?? '').replace(/^Bearer /, ''));
  const want = Buffer.from(TOKEN);
  if (given.length !== want.length || !crypto.timingSafeEqual(given, want)) return res.status(401).end();
  next();
});
app.post('/mcp', async (req, res) => {
  const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
  await server.connect(transport);
  await transport.handleRequest(req, res, req.body);
});
app.listen(8080, '0.0.0.0');
