/**
 * The MCP server's own answers when the Vigil API fails, through the SDK's Client over its
 * in-memory transport: an API that refuses connections, one that answers 503, one whose error
 * detail echoes the request's Authorization header (the key must not reach the agent), no key at
 * all, and arguments the tools refuse. The tools against a real Vigil server, over stdio and
 * Streamable HTTP: packages/cli/test/mcp.test.ts.
 */
import { createServer, type Server } from 'node:http';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createVigilMcpServer, MAX_CHECK_PACKAGES, type VigilMcpOptions } from '../src/index.js';

const KEY = `vgl_12345678_${'a'.repeat(48)}`;
let failing: Server;
let failingUrl: string;
let closedUrl: string;

async function connect(options: VigilMcpOptions): Promise<Client> {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await createVigilMcpServer(options).connect(serverSide);
  const client = new Client({ name: 'vigil-mcp-test', version: '1.0.0' });
  await client.connect(clientSide);
  return client;
}

const text = (r: CallToolResult) => r.content.map((c) => (c.type === 'text' ? c.text : '')).join('\n');
const call = async (client: Client, name: string, args: Record<string, unknown>) => (await client.callTool({ name, arguments: args })) as CallToolResult;

beforeAll(async () => {
  // An API in trouble: verify answers 503 with a problem body; artifacts/… answers 502 quoting the request's Authorization header.
  failing = createServer((req, res) => {
    if (req.url?.startsWith('/v1/artifacts/verify')) {
      res.writeHead(503, { 'content-type': 'application/problem+json' }).end(JSON.stringify({ type: 'about:blank', title: 'Service Unavailable', status: 503, detail: 'database unavailable' }));
    } else {
      res.writeHead(502, { 'content-type': 'application/problem+json' }).end(JSON.stringify({ type: 'about:blank', title: 'Bad Gateway', status: 502, detail: `upstream refused ${req.headers.authorization ?? ''}` }));
    }
  });
  await new Promise<void>((resolve) => failing.listen(0, '127.0.0.1', resolve));
  failingUrl = `http://127.0.0.1:${(failing.address() as { port: number }).port}`;
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  closedUrl = `http://127.0.0.1:${(probe.address() as { port: number }).port}`;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
});

afterAll(() => failing?.close());

describe('the Vigil MCP server when the API fails', () => {
  it('an API that refuses connections is a tool error saying so, and the server answers the next call', async () => {
    const client = await connect({ baseUrl: closedUrl, apiKey: KEY });
    const result = await call(client, 'check_package', { package: 'npm:left-pad@1.3.0' });
    expect(result.isError).toBe(true);
    expect(text(result)).toMatch(new RegExp(`^The Vigil API at ${closedUrl.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')} cannot be reached \\(connection failed: .*ECONNREFUSED.*\\)\\. No verdict is known: treat the package as unchecked, not as safe\\.$`));
    expect((await client.listTools()).tools).toHaveLength(5);
    await client.close();
  });

  it('a 5xx is a tool error naming the status and detail; a key echoed by the API is redacted', async () => {
    const client = await connect({ baseUrl: failingUrl, apiKey: KEY });
    const down = await call(client, 'check_packages', { packages: ['npm:left-pad@1.3.0', 'pypi:requests@2.32.3'] });
    expect(down.isError).toBe(true);
    expect(text(down)).toMatch(/^The Vigil API at http:\/\/127\.0\.0\.1:\d+ failed: 503 database unavailable \(request id [^)]+\)\. No verdict is known/);
    const echoed = await call(client, 'explain_verdict', { artifact_id: 'art_1' });
    expect(echoed.isError).toBe(true);
    expect(text(echoed)).toMatch(/failed: 502 upstream refused Bearer \[redacted\]/);
    expect(JSON.stringify(echoed)).not.toContain(KEY);
    await client.close();
  });

  it('without a key, the API tools say how to set one and the local tools still run', async () => {
    const client = await connect({ baseUrl: failingUrl, apiKey: null });
    const result = await call(client, 'check_package', { package: 'npm:left-pad@1.3.0' });
    expect(result.isError).toBe(true);
    expect(text(result)).toBe(`No Vigil API key: set VIGIL_API_KEY (or VIGIL_API_TOKEN) in the MCP server's environment, or run vigil login. Verdicts come from ${failingUrl}; check_skill and check_mcp_server with a path work without a key.`);
    const missing = await call(client, 'check_skill', { path: '/nonexistent/vigil-skill' });
    expect(text(missing)).toBe('path: /nonexistent/vigil-skill does not exist');
    await client.close();
  });

  it('refuses arguments the schemas refuse, before calling the API', async () => {
    const client = await connect({ baseUrl: closedUrl, apiKey: KEY });
    const tooMany = await call(client, 'check_packages', { packages: Array.from({ length: MAX_CHECK_PACKAGES + 1 }, (_, i) => `npm:p${i}@1.0.0`) });
    expect(tooMany.isError).toBe(true);
    expect(text(tooMany)).toMatch(/^MCP error -32602: Input validation error: Invalid arguments for tool check_packages: Too big: expected array to have <=1000 items at packages$/);
    const wrongType = await call(client, 'check_package', { package: 42 });
    expect(text(wrongType)).toMatch(/^MCP error -32602: Input validation error: Invalid arguments for tool check_package: .* at package$/);
    const bothSkill = await call(client, 'check_mcp_server', {});
    expect(text(bothSkill)).toMatch(/^expected exactly one of package/);
    await client.close();
  });
});
