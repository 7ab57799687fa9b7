/**
 * The outsider's findings on `vigil mcp` that need the real command (F1, F3, F5, F8, F9), kept as
 * cases: messages over the stdio limit and malformed JSON-RPC answered without ending the server,
 * malformed options refused at start, SIGTERM/SIGINT during a local scan removing its temporary
 * directory, stale scan directories swept at start, and the HTTP transport's bearer scheme, parse
 * error code and in-flight requests on SIGTERM. No Vigil server is needed: the API is a closed
 * port, or a small fake on loopback.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { createServer, request as httpRequest, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI_BIN, until, vigil } from './support/cli.js';

const KEY = `vgl_12345678_${'ab'.repeat(24)}`;
let dir: string;
let closedUrl: string;
let slowApi: Server;
let slowUrl: string;

const text = (r: CallToolResult) => r.content.map((c) => (c.type === 'text' ? c.text : '')).join('\n');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** `vigil mcp` over stdio with raw JSON-RPC lines: what it answers, by id, and how it ends. */
class RawMcp {
  readonly child: ChildProcessWithoutNullStreams;
  readonly answers: Record<string, unknown>[] = [];
  stderr = '';
  exit: [number | null, NodeJS.Signals | null] | null = null;
  private buffer = '';

  constructor(env: Record<string, string>) {
    this.child = spawn(process.execPath, [CLI_BIN, 'mcp'], { env: { PATH: process.env.PATH ?? '', HOME: join(dir, 'home'), VIGIL_BASE_URL: closedUrl, VIGIL_API_KEY: KEY, ...env }, stdio: ['pipe', 'pipe', 'pipe'] });
    this.child.stdout.on('data', (c: Buffer) => {
      this.buffer += c.toString();
      let nl: number;
      while ((nl = this.buffer.indexOf('\n')) !== -1) {
        this.answers.push(JSON.parse(this.buffer.slice(0, nl)) as Record<string, unknown>);
        this.buffer = this.buffer.slice(nl + 1);
      }
    });
    this.child.stderr.on('data', (c: Buffer) => (this.stderr += c.toString()));
    this.child.on('exit', (code, signal) => (this.exit = [code, signal]));
  }

  send(line: string | Buffer): Promise<void> {
    return new Promise((resolve, reject) => this.child.stdin.write(line, (err) => (err ? reject(err) : resolve())));
  }

  async answer(count: number): Promise<Record<string, unknown>> {
    await until(`answer #${count}`, () => this.answers.length >= count || this.exit !== null);
    if (this.answers.length < count) throw new Error(`vigil mcp ended (${JSON.stringify(this.exit)}) before answer #${count}; stderr: ${this.stderr}`);
    return this.answers[count - 1]!;
  }

  async initialize(): Promise<void> {
    await this.send(`${JSON.stringify({ jsonrpc: '2.0', id: 'init', method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } })}\n`);
    expect(await this.answer(1)).toMatchObject({ id: 'init', result: { serverInfo: { name: 'vigil' } } });
    await this.send('{"jsonrpc":"2.0","method":"notifications/initialized"}\n');
  }

  async ended(ms = 30_000): Promise<[number | null, NodeJS.Signals | null]> {
    await until('vigil mcp to exit', () => this.exit !== null, ms);
    return this.exit!;
  }
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'vigil-mcp-stdio-test-'));
  mkdirSync(join(dir, 'home'));
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  closedUrl = `http://127.0.0.1:${(probe.address() as { port: number }).port}`;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  // An API answering verify after 1.5 s: a request in flight when the HTTP server is stopped.
  slowApi = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      const artifact = 'pkg:npm/left-pad@1.3.0';
      const answer = { artifact, state: 'pending', queued: false, artifact_id: null, sha256: null, verdict: null, risk_score: null, round_id: null, decided_at: null, findings_summary: null, attestations: [] };
      setTimeout(() => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(answer)), 1_500);
    });
  });
  await new Promise<void>((resolve) => slowApi.listen(0, '127.0.0.1', resolve));
  slowUrl = `http://127.0.0.1:${(slowApi.address() as { port: number }).port}`;
});

afterAll(() => {
  slowApi?.closeAllConnections();
  slowApi?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('vigil mcp over stdio: input the transport cannot take (F1, F8)', () => {
  it('a tools/call over 16 MiB (a non-ASCII lockfile inside the character limit) is a tool error in bytes, and the server goes on', async () => {
    const transport = new StdioClientTransport({ command: process.execPath, args: [CLI_BIN, 'mcp'], env: { PATH: process.env.PATH ?? '', HOME: join(dir, 'home'), VIGIL_BASE_URL: closedUrl, VIGIL_API_KEY: KEY }, stderr: 'pipe' });
    let stderr = '';
    transport.stderr?.on('data', (c: Buffer) => (stderr += c.toString()));
    const client = new Client({ name: 'vigil-test-big', version: '1.0.0' });
    await client.connect(transport);
    try {
      // 6,000,000 characters (under the 8 Mi-character limit), 18,000,000 bytes of UTF-8.
      const big = (await client.callTool({ name: 'check_packages', arguments: { lockfile: { file_name: 'package-lock.json', content: '€'.repeat(6_000_000) } } })) as CallToolResult;
      expect(big.isError).toBe(true);
      expect(text(big)).toMatch(/^This message is 18000\d{3} bytes; the Vigil MCP server reads messages of at most 16777216 bytes \(UTF-8, one line\) over stdio, and skipped it\. Send less: a lockfile's non-ASCII characters take 2 to 4 bytes each/);
      // Still serving.
      expect((await client.listTools()).tools).toHaveLength(5);
      const after = (await client.callTool({ name: 'check_package', arguments: { package: 'npm:left-pad@1.3.0' } })) as CallToolResult;
      expect(text(after)).toMatch(/^The Vigil API at .* cannot be reached/);
      expect(stderr).toMatch(/vigil: mcp: stdio: skipped a message of 18000\d{3} bytes, over the limit of 16777216 \(id \d+\)/);
    } finally {
      await client.close();
    }
  });

  it('malformed lines are answered -32700 or -32600 (with the id when it has one), and an oversized line without id with id null', async () => {
    const raw = new RawMcp({});
    await raw.initialize();
    const cases: [string | Buffer, Record<string, unknown>][] = [
      ['hello world\n', { id: null, error: { code: -32700, message: 'Parse error: the line is not JSON' } }],
      [Buffer.from([0, 1, 2, 255, 254, 10]), { id: null, error: { code: -32700 } }],
      ['{"jsonrpc":"2.0","id":6,"method":"tools/call","params":"x"}\n', { id: 6, error: { code: -32600, message: expect.stringMatching(/^Invalid Request: expected a JSON-RPC 2\.0 object/) } }],
      ['{"jsonrpc":"1.0","id":"v1","method":"tools/list"}\n', { id: 'v1', error: { code: -32600 } }],
      ['{"jsonrpc":"2.0","id":{"a":1},"method":"tools/list"}\n', { id: null, error: { code: -32600 } }],
      ['[{"jsonrpc":"2.0","id":2,"method":"tools/list"}]\n', { id: null, error: { code: -32600 } }],
      [`${'z'.repeat(17 * 1024 * 1024)}\n`, { id: null, error: { code: -32600, message: expect.stringMatching(/^Invalid Request: this message is 17825792 bytes; the Vigil MCP server reads messages of at most 16777216 bytes/) } }],
      // The id first (as most clients but the TypeScript SDK write it), a method other than tools/call.
      [`{"jsonrpc":"2.0","id":77,"method":"prompts/get","params":{"name":"${'p'.repeat(17 * 1024 * 1024)}"}}\n`, { id: 77, error: { code: -32600, message: expect.stringMatching(/^Invalid Request: this message is \d+ bytes/) } }],
      ['{"jsonrpc":"2.0","id":9,"method":"tools/list"}\n', { id: 9, result: { tools: expect.any(Array) } }],
    ];
    let n = 1;
    for (const [line, expected] of cases) {
      await raw.send(line);
      expect(await raw.answer(++n), JSON.stringify(String(line).slice(0, 80))).toMatchObject({ jsonrpc: '2.0', ...expected });
    }
    // A malformed response is not answered (JSON-RPC), only reported on stderr.
    await raw.send('{"jsonrpc":"2.0","id":5,"result":"x","error":1}\n');
    await raw.send('{"jsonrpc":"2.0","id":10,"method":"ping"}\n');
    expect(await raw.answer(++n)).toMatchObject({ id: 10, result: {} });
    expect(raw.stderr).toContain('vigil: mcp: stdio: skipped a malformed JSON-RPC response (not answered)');
    expect(raw.exit).toBeNull();
    raw.child.stdin.end();
    expect(await raw.ended()).toEqual([0, null]);
  });
});

describe('vigil mcp refuses malformed options at start (F3)', () => {
  it('a malformed key, a malformed base URL, or one with credentials: exit 2 with the usual message, nothing echoed', async () => {
    const env = (extra: Record<string, string>) => ({ env: { VIGIL_BASE_URL: closedUrl, VIGIL_API_KEY: KEY, ...extra }, stdin: '' });
    const badKey = await vigil(['mcp'], env({ VIGIL_API_KEY: 'not-a-key-SECRET123' }));
    expect(badKey.code).toBe(2);
    expect(badKey.stderr).toMatch(/^vigil: token \(--token, VIGIL_API_TOKEN\): expected a token of the form vgl_<8 hex>_<48 hex>\n/);
    expect(badKey.stderr).not.toContain('SECRET123');
    for (const [url, message] of [
      ['not a url', 'vigil: base URL (--base-url, VIGIL_BASE_URL): not a valid URL: "not a url"\n'],
      ['ftp://127.0.0.1/', 'vigil: base URL (--base-url, VIGIL_BASE_URL): expected http or https, got ftp:\n'],
      [`${closedUrl}/?token=abc`, 'vigil: base URL (--base-url, VIGIL_BASE_URL): must not carry a query or fragment\n'],
      ['http://user:hunter2@127.0.0.1:9/', 'vigil: base URL (--base-url, VIGIL_BASE_URL): must not carry credentials (user:password@)\n'],
    ]) {
      const result = await vigil(['mcp'], env({ VIGIL_BASE_URL: url! }));
      expect(result.code, url).toBe(2);
      expect(result.stderr.startsWith(message!), `${url}: ${result.stderr}`).toBe(true);
      expect(result.stdout).toBe('');
    }
    const http = await vigil(['mcp', '--http', '--port', '0'], env({ VIGIL_BASE_URL: 'http://user:hunter2@127.0.0.1:9/' }));
    expect(http.code).toBe(2);
    expect(http.stderr).not.toContain('hunter2');
    // A good configuration serves until stdin ends.
    expect((await vigil(['mcp'], env({}))).code).toBe(0);
  });
});

describe('vigil mcp stopped during a local scan (F5)', () => {
  const scanDirs = (tmp: string) => readdirSync(tmp).filter((n) => n.startsWith('vigil-mcp-scan-'));

  for (const [signal, code] of [['SIGTERM', 130], ['SIGINT', 130]] as const) {
    it(`${signal} stops the scan, removes its temporary directory and exits ${code}`, async () => {
      const tmp = mkdtempSync(join(dir, 'tmp-'));
      const raw = new RawMcp({ TMPDIR: tmp });
      await raw.initialize();
      // /usr/lib: enough files that the reference agent is still reading when the signal comes.
      await raw.send(`${JSON.stringify({ jsonrpc: '2.0', id: 'scan', method: 'tools/call', params: { name: 'check_skill', arguments: { path: '/usr/lib' } } })}\n`);
      await until('the scan directory', () => scanDirs(tmp).length > 0);
      await until('the agent bundle to be written', () => existsSync(join(tmp, scanDirs(tmp)[0]!, 'agent')));
      expect(raw.answers).toHaveLength(1);
      raw.child.kill(signal);
      expect(await raw.ended()).toEqual([code, null]);
      // The aborted scan may still be answered before the exit: never as a verdict.
      expect(raw.answers.length).toBeLessThanOrEqual(2);
      if (raw.answers.length === 2) expect(raw.answers[1]).toMatchObject({ id: 'scan', result: { structuredContent: { verdict: null, advice: 'unknown' } } });
      expect(scanDirs(tmp)).toEqual([]);
    });
  }

  it('sweeps scan directories older than an hour (left by SIGKILL) at start, and keeps newer ones', async () => {
    const tmp = mkdtempSync(join(dir, 'tmp-'));
    const stale = join(tmp, 'vigil-mcp-scan-stale1');
    const fresh = join(tmp, 'vigil-mcp-scan-fresh1');
    for (const d of [stale, fresh]) {
      mkdirSync(join(d, 'agent'), { recursive: true });
      writeFileSync(join(d, 'agent', 'agent.mjs'), '// left behind\n');
    }
    const twoHoursAgo = new Date(Date.now() - 2 * 60 * 60 * 1000);
    utimesSync(stale, twoHoursAgo, twoHoursAgo);
    const raw = new RawMcp({ TMPDIR: tmp });
    await raw.initialize();
    await until('the stale directory to be swept', () => !existsSync(stale), 20_000);
    expect(existsSync(fresh)).toBe(true);
    raw.child.stdin.end();
    expect(await raw.ended()).toEqual([0, null]);
  });
});

describe('vigil mcp --http (F9)', () => {
  const init = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'x', version: '1' } } };
  const headers = (auth?: string) => ({ 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...(auth ? { authorization: auth } : {}) });

  async function start(baseUrl: string): Promise<{ child: ChildProcessWithoutNullStreams; url: string; stderr: () => string; exit: () => [number | null, string | null] | null }> {
    const child = spawn(process.execPath, [CLI_BIN, 'mcp', '--http', '--port', '0'], { env: { PATH: process.env.PATH ?? '', HOME: join(dir, 'home'), VIGIL_BASE_URL: baseUrl, VIGIL_API_KEY: KEY, VIGIL_MCP_HTTP_TOKEN: 'tok-123' }, stdio: ['pipe', 'pipe', 'pipe'] });
    let stderr = '';
    let exit: [number | null, string | null] | null = null;
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.on('exit', (c, s) => (exit = [c, s]));
    await until('the HTTP server to listen', () => /on (http:\/\/\S+\/mcp),/.test(stderr));
    return { child, url: /on (http:\/\/\S+\/mcp),/.exec(stderr)![1]!, stderr: () => stderr, exit: () => exit };
  }

  it('takes the bearer scheme in any letter case, answers -32700 for a body that is not JSON, and prints the documented start line', async () => {
    const server = await start(closedUrl);
    try {
      expect(server.stderr()).toBe(`vigil: MCP server (Streamable HTTP) on ${server.url}, bearer token required; verdicts from ${closedUrl}; Ctrl-C stops it\n`);
      for (const scheme of ['Bearer', 'bearer', 'BEARER']) {
        expect((await fetch(server.url, { method: 'POST', headers: headers(`${scheme} tok-123`), body: JSON.stringify(init) })).status, scheme).toBe(200);
      }
      for (const auth of ['Basic tok-123', 'Bearer tok-12', 'Bearertok-123', undefined]) {
        expect((await fetch(server.url, { method: 'POST', headers: headers(auth), body: JSON.stringify(init) })).status, String(auth)).toBe(401);
      }
      // A declared Content-Length over 16 MiB is refused before the body is sent.
      const declared = await new Promise<number>((resolve, reject) => {
        const req = httpRequest(server.url, { method: 'POST', headers: { ...headers('Bearer tok-123'), 'content-length': String(17 * 1024 * 1024) } }, (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
          req.destroy();
        });
        req.on('error', reject);
        req.write('{');
      });
      expect(declared).toBe(413);
      const notJson = await fetch(server.url, { method: 'POST', headers: headers('Bearer tok-123'), body: '{' });
      expect(notJson.status).toBe(400);
      expect(await notJson.json()).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32700, message: expect.stringMatching(/^Parse error: /) } });
    } finally {
      server.child.kill('SIGTERM');
    }
  });

  it('on SIGTERM, a request in flight gets its answer before the server exits 0', async () => {
    const server = await start(slowUrl);
    const call = { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'check_package', arguments: { package: 'npm:left-pad@1.3.0' } } };
    const answer = fetch(server.url, { method: 'POST', headers: headers('Bearer tok-123'), body: JSON.stringify(call) });
    await sleep(500);
    server.child.kill('SIGTERM');
    const res = await answer;
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ id: 2, result: { structuredContent: { artifact: 'pkg:npm/left-pad@1.3.0', state: 'pending' } } });
    await until('the HTTP server to exit', () => server.exit() !== null, 15_000);
    expect(server.exit()).toEqual([0, null]);
  });
});
