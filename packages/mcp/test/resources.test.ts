/**
 * The resources' failure paths that need an API misbehaving (the happy paths and URI errors run
 * against a real server in packages/cli/test/mcp.test.ts): an API echoing the key, an API that
 * never answers (the call deadline), no key at all, and a URI with escape and bidi characters.
 * Through the SDK's Client over its in-memory transport, against a fake Vigil API on loopback.
 */
import { createServer, type Server } from 'node:http';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createVigilMcpServer, type VigilMcpOptions } from '../src/index.js';

const SECRET = '0123456789abcdef0123456789abcdef0123456789abcdef';
const KEY = `vgl_0badf00d_${SECRET}`;
let api: Server;
let apiUrl: string;

async function connect(options: VigilMcpOptions): Promise<Client> {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await createVigilMcpServer(options).connect(serverSide);
  const client = new Client({ name: 'vigil-mcp-resources-test', version: '1.0.0' });
  await client.connect(clientSide);
  return client;
}

const failure = (client: Client, uri: string) => client.readResource({ uri }).then(() => null, (e: unknown) => e as { code: number; message: string });

beforeAll(async () => {
  api = createServer((req, res) => {
    const mode = (req.url ?? '/').split('/')[1]!;
    if (mode === 'hang') return;
    // A proxy that quotes the Authorization header it was sent, in a 403.
    res.writeHead(403, { 'content-type': 'application/problem+json', 'x-request-id': 'fake-req-1' }).end(JSON.stringify({ detail: `refused ${req.headers.authorization ?? ''}` }));
  });
  await new Promise<void>((resolve) => api.listen(0, '127.0.0.1', resolve));
  apiUrl = `http://127.0.0.1:${(api.address() as { port: number }).port}`;
});

afterAll(() => new Promise<void>((resolve) => api.close(() => resolve())));

describe('resources', () => {
  it('an API error that quotes the key is an MCP error without it', async () => {
    const client = await connect({ baseUrl: `${apiUrl}/echo`, apiKey: KEY });
    for (const uri of ['vigil://policies', 'vigil://policy/strict', `vigil://verdict/${encodeURIComponent('npm:left-pad@1.3.0')}`]) {
      const error = await failure(client, uri);
      expect(error, uri).toMatchObject({ code: -32603, message: expect.stringContaining('The Vigil API refused the request: 403 refused Bearer [redacted] (request id fake-req-1).') });
      expect(error!.message).not.toContain(SECRET);
    }
  });

  it('a read past the call deadline is an MCP error saying how far it got', async () => {
    const client = await connect({ baseUrl: `${apiUrl}/hang`, apiKey: KEY, callDeadlineMs: 300 });
    const error = await failure(client, `vigil://verdict/${encodeURIComponent('pkg:npm/left-pad@1.3.0')}`);
    expect(error).toMatchObject({
      code: -32603,
      message: expect.stringContaining('The Vigil MCP server gave up on this call after 0.3 s (its deadline for a tool call); the verdict lookup (POST /v1/artifacts/verify) had no answer yet.'),
    });
  });

  it('without a key the guide is read and the others say how to set one', async () => {
    const client = await connect({ baseUrl: apiUrl, apiKey: null });
    const guide = await client.readResource({ uri: 'vigil://guide/reading-verdicts' });
    expect(guide.contents).toEqual([{ uri: 'vigil://guide/reading-verdicts', mimeType: 'text/markdown', text: expect.stringContaining('## What ALLOW does not prove') }]);
    for (const uri of ['vigil://policies', 'vigil://policy/default', `vigil://verdict/${encodeURIComponent('npm:a@1')}`]) {
      expect(await failure(client, uri), uri).toMatchObject({ code: -32602, message: expect.stringContaining('No Vigil API key: set VIGIL_API_KEY (or VIGIL_API_TOKEN)') });
    }
  });

  it('a URI with escape or bidi characters is quoted with them escaped', async () => {
    const client = await connect({ baseUrl: apiUrl, apiKey: null });
    const error = await failure(client, 'vigil://x/\u001b[31mred\u202eevil');
    expect(error).toMatchObject({ code: -32002 });
    expect(error!.message).toContain('Resource "vigil://x/\\u001b[31mred\\u202eevil" not found; ');
    expect(error!.message).not.toMatch(/[\u001b\u202e]/);
  });
});
