/**
 * The resources' failure paths that need an API misbehaving (the happy paths and URI errors run
 * against a real server in packages/cli/test/mcp.test.ts): an API echoing the key, an API that
 * never answers (the call deadline), no key at all, and a URI with escape and bidi characters.
 * Through the SDK's Client over its in-memory transport, against a fake Vigil API on loopback.
 */
import { createServer, type Server } from 'node:http';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { ReadResourceResultSchema } from '@modelcontextprotocol/sdk/types.js';
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
    // eslint-disable-next-line no-control-regex -- the escape must not reach the message
    expect(error!.message).not.toMatch(/[\u001b\u202e]/);
  });
});

describe('resources: outsider findings (issue 27)', () => {
  const HEX_KEY = Buffer.from(KEY, 'utf8').toString('hex');
  const leaks = (message: string) => [KEY, SECRET, HEX_KEY, 'vgl_0badf00d', SECRET.slice(0, 12), HEX_KEY.slice(0, 30)].some((s) => message.toLowerCase().includes(s.toLowerCase()));

  it('a policy name over 100 characters is redacted before it is cut, and says the limit', async () => {
    const client = await connect({ baseUrl: apiUrl, apiKey: KEY });
    for (const name of [`${'a'.repeat(70)}${KEY}`, `x${HEX_KEY}`, `${'b'.repeat(95)}${SECRET}`]) {
      const error = await failure(client, `vigil://policy/${name}`);
      expect(error, name).toMatchObject({ code: -32602 });
      expect(leaks(error!.message), error!.message).toBe(false);
      // The third key starts at character 96: redacted first, the cut leaves part of `[redacted]`, none of the key.
      expect(error!.message).toContain('[reda');
      expect(error!.message).toMatch(/ is not a policy name: expected at most 100 characters, got \d+$/);
    }
  });

  it('every error reaches the client prefixed once', async () => {
    const client = await connect({ baseUrl: `${apiUrl}/echo`, apiKey: KEY });
    const cases: [string, number][] = [
      ['vigil://verdict/%ZZ', -32602],
      ['vigil://nothing', -32002],
      ['vigil://policies', -32603],
    ];
    for (const [uri, code] of cases) {
      const error = await failure(client, uri);
      expect(error, uri).toMatchObject({ code });
      expect(error!.message.startsWith(`MCP error ${code}: `), error!.message).toBe(true);
      expect(error!.message.slice(`MCP error ${code}: `.length)).not.toMatch(/MCP error/);
    }
    expect((await failure(client, 'vigil://verdict/%ZZ'))!.message).toBe('MCP error -32602: vigil://verdict/{purl}: {purl} is not valid percent-encoding (encode it with encodeURIComponent)');
  });

  it('the one-segment error of a policy URI gives a policy example', async () => {
    const client = await connect({ baseUrl: apiUrl, apiKey: KEY });
    for (const uri of ['vigil://policy/', 'vigil://policy/default/']) {
      expect((await failure(client, uri))!.message, uri).toBe(`MCP error -32602: ${uri}: expected vigil://policy/{name} with one path segment after vigil://policy/: percent-encode it with encodeURIComponent (e.g. vigil://policy/default)`);
    }
  });

  it('a purl with a NUL or an npm name that is no npm name is malformed, before the API', async () => {
    const client = await connect({ baseUrl: `${apiUrl}/echo`, apiKey: KEY });
    expect(await failure(client, 'vigil://verdict/pkg%3Anpm%2Fa%401%00')).toEqual(
      expect.objectContaining({ code: -32602, message: 'MCP error -32602: {purl}: contains a control character (U+0000 at index 11): expected pkg:<type>/<name>[@version] or <type>:<name>[@version]' }),
    );
    for (const ref of ['pkg:npm/../../etc/passwd@1.0.0', 'pkg:npm/%2e%2e/x@1', 'npm:../x@1', 'pkg:npm/.x@1']) {
      const error = await failure(client, `vigil://verdict/${encodeURIComponent(ref)}`);
      expect(error, ref).toMatchObject({ code: -32602, message: expect.stringMatching(/^MCP error -32602: \{purl\}: ".*" is not an npm package name \(.*\): expected pkg:npm\/\[@scope\/\]name\[@version\] or npm:\[@scope\/\]name\[@version\]$/) });
    }
  });

  it('dot segments are not removed: `..` is a purl or a policy name to refuse', async () => {
    const client = await connect({ baseUrl: apiUrl, apiKey: KEY });
    for (const uri of ['vigil://verdict/..', 'vigil://verdict/%2E%2E']) {
      expect(await failure(client, uri), uri).toMatchObject({ code: -32602, message: 'MCP error -32602: {purl}: expected pkg:<type>/<name>[@version] or <type>:<name>[@version], got ".."' });
    }
    for (const uri of ['vigil://policy/..', 'vigil://policy/%2E%2E']) {
      expect(await failure(client, uri), uri).toMatchObject({ code: -32602, message: 'MCP error -32602: vigil://policy/{name}: ".." is not a policy name: expected a policy name of letters, digits, ".", "_" or "-"' });
    }
  });

  it('a uri that is not a string is -32602 with a sentence', async () => {
    const client = await connect({ baseUrl: apiUrl, apiKey: KEY });
    for (const params of [{ uri: 42 }, {}]) {
      const error = await client.request({ method: 'resources/read', params } as never, ReadResourceResultSchema).then(() => null, (e: unknown) => e as { code: number; message: string });
      expect(error, JSON.stringify(params)).toMatchObject({ code: -32602, message: expect.stringMatching(/^MCP error -32602: resources\/read: params\.uri must be a string \(a URI\), got (number|none); Vigil's resources are /) });
    }
  });

  it('the API down while reading policies is said of the policies', async () => {
    const dead = createServer();
    await new Promise<void>((resolve) => dead.listen(0, '127.0.0.1', resolve));
    const deadUrl = `http://127.0.0.1:${(dead.address() as { port: number }).port}`;
    await new Promise<void>((resolve) => dead.close(() => resolve()));
    const client = await connect({ baseUrl: deadUrl, apiKey: KEY });
    for (const uri of ['vigil://policies', 'vigil://policy/strict']) {
      const error = await failure(client, uri);
      expect(error, uri).toMatchObject({ code: -32603, message: expect.stringMatching(new RegExp(`^MCP error -32603: The Vigil API at ${deadUrl} cannot be reached \\(.*\\)\\. No policy could be read; read it again later\\.$`)) });
    }
  }, 20_000);

  it('the scheme and host are matched in any letter case', async () => {
    const client = await connect({ baseUrl: apiUrl, apiKey: null });
    const guide = await client.readResource({ uri: 'VIGIL://GUIDE/reading-verdicts' });
    expect(guide.contents[0]).toMatchObject({ mimeType: 'text/markdown' });
    expect(await failure(client, 'vigil://guide/READING-VERDICTS')).toMatchObject({ code: -32002 });
  });
});
