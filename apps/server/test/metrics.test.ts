import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, readlinkSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { parsePrometheusText, sampleValue, type Sample } from '../src/test-support/prometheus-text.js';

// The command as installed: the compiled dist/bin.js (turbo builds before testing).
const BIN = fileURLToPath(new URL('../dist/bin.js', import.meta.url));
const built = existsSync(BIN);
if (!built) console.warn(`SKIPPED: metrics listener tests (${BIN} not built; run npx tsc -b)`);

const dirs: string[] = [];
const children: ChildProcess[] = [];
afterEach(() => {
  for (const child of children.splice(0)) child.kill('SIGKILL');
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function workDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'vigil-metrics-'));
  dirs.push(dir);
  return dir;
}

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

interface Started {
  child: ChildProcess;
  stdout: () => string;
  exited: Promise<number | null>;
}

function start(args: string[], cwd: string, env: Record<string, string>): Started {
  const child = spawn(process.execPath, [BIN, ...args], { cwd, env: { PATH: process.env.PATH ?? '', VIGIL_REGISTRY_FETCH: 'false', LOG_LEVEL: 'warn', ...env } });
  children.push(child);
  let stdout = '';
  child.stdout!.on('data', (c: Buffer) => (stdout += c.toString()));
  child.stderr!.on('data', (c: Buffer) => (stdout += c.toString()));
  return { child, stdout: () => stdout, exited: new Promise((resolve) => child.on('exit', (code) => resolve(code))) };
}

function run(args: string[], cwd: string, env: Record<string, string> = {}): Promise<string> {
  const { stdout, exited } = start(args, cwd, env);
  return exited.then((code) => {
    if (code !== 0) throw new Error(`vigil-server ${args.join(' ')} exited ${code}: ${stdout()}`);
    return stdout();
  });
}

/** Polls (real time) until the child process answers: no clock reaches another process. */
async function waitFor(url: string): Promise<Response> {
  for (let i = 0; i < 150; i++) {
    const answer = await fetch(url).catch(() => undefined);
    if (answer) return answer;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${url} never answered`);
}

async function scrape(port: number): Promise<{ text: string; samples: Sample[] }> {
  const response = await fetch(`http://127.0.0.1:${port}/metrics`);
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
  const text = await response.text();
  return { text, samples: parsePrometheusText(text) };
}

/** The TCP ports a process listens on, read from /proc: its socket descriptors against the kernel's tables. */
function listeningPorts(pid: number): number[] {
  const inodes = new Set<string>();
  for (const fd of readdirSync(`/proc/${pid}/fd`)) {
    try {
      const match = /^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/${pid}/fd/${fd}`));
      if (match) inodes.add(match[1]!);
    } catch {
      // Closed between the listing and the read.
    }
  }
  const ports: number[] = [];
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    if (!existsSync(table)) continue;
    for (const line of readFileSync(table, 'utf8').split('\n').slice(1)) {
      const fields = line.trim().split(/\s+/);
      // st 0A is LISTEN; field 9 is the socket's inode.
      if (fields.length > 9 && fields[3] === '0A' && inodes.has(fields[9]!)) ports.push(parseInt(fields[1]!.split(':')[1]!, 16));
    }
  }
  return ports.sort((a, b) => a - b);
}

describe.skipIf(!built || process.platform !== 'linux')('the metrics listener of vigil-server serve and worker', () => {
  it('serve: requests are counted by route pattern and status, the database and the verify cache are measured, /ready answers', async () => {
    const cwd = workDir();
    const created = await run(['keys', 'create', '--personal', 'alice', '--plan', 'paid', '--scopes', 'verify'], cwd);
    const token = created.split('\n').find((line) => line.startsWith('vgl_'))!;
    const [port, metricsPort] = [await freePort(), await freePort()];
    const server = start(['serve'], cwd, { PORT: String(port), HOST: '127.0.0.1', VIGIL_METRICS_PORT: String(metricsPort) });
    const api = `http://127.0.0.1:${port}`;
    expect((await waitFor(`${api}/v1/health`)).status).toBe(200);
    expect(listeningPorts(server.child.pid!)).toEqual([port, metricsPort].sort((a, b) => a - b));
    expect(server.stdout()).toContain(`metrics: http://127.0.0.1:${metricsPort}/metrics and /ready`);

    for (let i = 0; i < 3; i++) expect((await fetch(`${api}/v1/health`)).status).toBe(200);
    // Two different round ids, one route pattern: the raw URL is never a label.
    expect((await fetch(`${api}/v1/rounds/aaaaaaaa0001/scores`)).status).toBe(404);
    expect((await fetch(`${api}/v1/rounds/aaaaaaaa0002/scores`)).status).toBe(404);
    expect((await fetch(`${api}/no/such/path-secret-token`)).status).toBe(404);
    const ready = await fetch(`${api}/v1/ready`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({ status: 'ready' });
    const verify = () =>
      fetch(`${api}/v1/artifacts/verify`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ artifact: 'npm:left-pad@1.3.0' }),
      });
    expect((await verify()).status).toBe(200);
    expect((await verify()).status).toBe(200);

    const { text, samples } = await scrape(metricsPort);
    expect(sampleValue(samples, 'vigil_http_requests_total', { method: 'GET', route: '/v1/health', status: '200' })).toBeGreaterThanOrEqual(4);
    expect(sampleValue(samples, 'vigil_http_requests_total', { method: 'GET', route: '/v1/rounds/:round_id/scores', status: '404' })).toBe(2);
    expect(sampleValue(samples, 'vigil_http_requests_total', { method: 'GET', route: 'unmatched', status: '404' })).toBe(1);
    expect(sampleValue(samples, 'vigil_http_requests_total', { method: 'GET', route: '/v1/ready', status: '200' })).toBe(1);
    expect(sampleValue(samples, 'vigil_http_requests_total', { method: 'POST', route: '/v1/artifacts/verify', status: '200' })).toBe(2);
    expect(text).not.toContain('aaaaaaaa0001');
    expect(text).not.toContain('path-secret-token');
    expect(sampleValue(samples, 'vigil_http_request_duration_seconds_count', { method: 'GET', route: '/v1/rounds/:round_id/scores', status_class: '4xx' })).toBe(2);
    expect(sampleValue(samples, 'vigil_http_request_duration_seconds_bucket', { method: 'GET', route: '/v1/rounds/:round_id/scores', status_class: '4xx', le: '+Inf' })).toBe(2);
    // The verify cache: the second verification of the same reference within 5 s is a hit.
    expect(sampleValue(samples, 'vigil_verify_cache_lookups_total', { result: 'miss' })).toBe(1);
    expect(sampleValue(samples, 'vigil_verify_cache_lookups_total', { result: 'hit' })).toBe(1);
    // The database (SQLite here) is timed statement by statement.
    expect(sampleValue(samples, 'vigil_db_query_duration_seconds_count', { kind: 'select', outcome: 'ok' })).toBeGreaterThan(0);
    // Read on scrape: the scheduler inside serve opened a round on every track.
    expect(sampleValue(samples, 'vigil_metrics_database_up')).toBe(1);
    for (const track of ['skills', 'mcp_servers', 'packages', 'repositories']) {
      expect(sampleValue(samples, 'vigil_round_phase', { track, phase: 'submission' }), track).toBe(1);
      expect(sampleValue(samples, 'vigil_round_phase', { track, phase: 'between' }), track).toBe(0);
      expect(sampleValue(samples, 'vigil_round_overdue_seconds', { track }), track).toBe(0);
    }
    expect(sampleValue(samples, 'vigil_outbox_backlog_events')).toEqual(expect.any(Number));
    expect(sampleValue(samples, 'vigil_webhook_deliveries', { state: 'pending' })).toBe(0);
    expect(sampleValue(samples, 'vigil_registry_fetches', { state: 'queued' })).toBe(0);
    expect(sampleValue(samples, 'process_cpu_user_seconds_total')).toBeGreaterThan(0);
    expect(sampleValue(samples, 'nodejs_eventloop_lag_p99_seconds')).toEqual(expect.any(Number));
    // The metrics port's own requests are not API requests.
    expect(samples.some((s) => s.labels.route === '/metrics')).toBe(false);

    const metricsReady = await fetch(`http://127.0.0.1:${metricsPort}/ready`);
    expect(metricsReady.status).toBe(200);
    expect(await metricsReady.text()).toBe('ready\n');
    expect((await fetch(`http://127.0.0.1:${metricsPort}/other`)).status).toBe(404);
    expect((await fetch(`http://127.0.0.1:${metricsPort}/metrics`, { method: 'POST' })).status).toBe(405);

    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);
  }, 60_000);

  it('serve without VIGIL_METRICS_PORT opens no metrics port', async () => {
    const cwd = workDir();
    const port = await freePort();
    const server = start(['serve'], cwd, { PORT: String(port), HOST: '127.0.0.1' });
    expect((await waitFor(`http://127.0.0.1:${port}/v1/health`)).status).toBe(200);
    expect(listeningPorts(server.child.pid!)).toEqual([port]);
    expect(server.stdout()).not.toContain('metrics:');
    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);
  }, 60_000);

  it('worker: the metrics port shows the rounds it opened, and closes with the worker', async () => {
    const cwd = workDir();
    const metricsPort = await freePort();
    const worker = start(['worker'], cwd, { VIGIL_SCHEDULER_INTERVAL_S: '1', VIGIL_METRICS_PORT: String(metricsPort) });
    expect((await waitFor(`http://127.0.0.1:${metricsPort}/ready`)).status).toBe(200);
    expect(listeningPorts(worker.child.pid!)).toEqual([metricsPort]);
    let samples: Sample[] = [];
    for (let i = 0; i < 100; i++) {
      samples = (await scrape(metricsPort)).samples;
      if (sampleValue(samples, 'vigil_round_phase', { track: 'repositories', phase: 'submission' }) === 1) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    for (const track of ['skills', 'mcp_servers', 'packages', 'repositories']) {
      expect(sampleValue(samples, 'vigil_round_phase', { track, phase: 'submission' }), track).toBe(1);
    }
    expect(sampleValue(samples, 'vigil_db_query_duration_seconds_count', { kind: 'insert', outcome: 'ok' })).toBeGreaterThan(0);
    // A worker serves no API: no HTTP request metrics have samples.
    expect(samples.some((s) => s.name.startsWith('vigil_http_'))).toBe(false);
    worker.child.kill('SIGTERM');
    expect(await worker.exited).toBe(0);
    await expect(fetch(`http://127.0.0.1:${metricsPort}/metrics`)).rejects.toThrow();
  }, 60_000);

  it('a metrics port already taken ends the worker with exit 1, naming the port', async () => {
    const cwd = workDir();
    const blocker = createServer().listen(0, '127.0.0.1');
    await new Promise((r) => blocker.once('listening', r));
    const taken = (blocker.address() as { port: number }).port;
    try {
      const worker = start(['worker'], cwd, { VIGIL_METRICS_PORT: String(taken) });
      expect(await worker.exited).toBe(1);
      expect(worker.stdout()).toContain(`metrics listener: cannot listen on 127.0.0.1:${taken}`);
    } finally {
      blocker.close();
    }
  }, 60_000);

  it('a metrics port already taken ends serve with exit 1, naming the port, and nothing else goes wrong on the way out', async () => {
    const cwd = workDir();
    // A log with entries: the periodic checkpoint has something to read. The shortest history the
    // demo takes (8 days, against 36) has them, at a fraction of the seed's time.
    await run(['seed', '--demo'], cwd, { VIGIL_DEMO_HISTORY_DAYS: '8' });
    const blocker = createServer().listen(0, '127.0.0.1');
    await new Promise((r) => blocker.once('listening', r));
    const taken = (blocker.address() as { port: number }).port;
    try {
      const server = start(['serve'], cwd, { PORT: String(await freePort()), HOST: '127.0.0.1', VIGIL_METRICS_PORT: String(taken) });
      expect(await server.exited).toBe(1);
      expect(server.stdout()).toContain(`metrics listener: cannot listen on 127.0.0.1:${taken}`);
      // The checkpoint pass does not start before the metrics port is taken, so it cannot race the shutdown.
      expect(server.stdout()).not.toContain('TlogError');
      expect(server.stdout()).not.toContain('checkpoint failed');
    } finally {
      blocker.close();
    }
  }, 120_000);
});
