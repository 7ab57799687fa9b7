import { randomBytes } from 'node:crypto';
import { existsSync, readdirSync } from 'node:fs';
import { connect } from 'node:net';
import { join } from 'node:path';
import { SignedVigilClient, VigilApiError, keypairFromSeed } from '@vigil/client';
import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type VigilDatabase } from '../src/platform/db/database.js';
import { migrateToLatest } from '../src/platform/db/migrate.js';
import { withSearchPath } from '../src/test-support/databases.js';
import { newKey } from '../src/test-support/fixtures.js';
import { startNetworkApp, type NetworkApp } from '../src/test-support/network-app.js';
import { startTcpProxy, type TcpProxy } from '../src/test-support/tcp-proxy.js';
import { operatorKey } from '../src/test-support/operator-key.js';
import { startServer, type TestServer } from './harness.js';

const url = process.env.TEST_DATABASE_URL;
const describePg = url ? describe : describe.skip;
if (!url) console.warn('postgres-faults: TEST_DATABASE_URL not set; PostgreSQL fault tests skipped');

async function admin<T>(work: (client: pg.Client) => Promise<T>, target = url): Promise<T> {
  const client = new pg.Client({ connectionString: target });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/**
 * Migrates a test schema straight to PostgreSQL with the ordinary timeouts. The tests then open it
 * through a fault proxy with a 500 ms statement timeout, which is about the server's requests: on a
 * loaded machine one DDL statement of the migration has taken longer than that.
 */
async function migrateDirectly(schema: string): Promise<void> {
  const direct = await openDatabase({ url: withSearchPath(url!, schema) });
  try {
    await migrateToLatest(direct.db);
  } finally {
    await direct.close();
  }
}

/** An uncached read that runs SQL on every request. */
const agentPath = `/v1/agents/${newKey().hotkey}`;

async function expectDetailOr200(response: Response): Promise<number> {
  const body = (await response.json()) as { detail?: string };
  if (response.status === 502) expect(body.detail).toEqual(expect.any(String));
  else expect([200, 404]).toContain(response.status);
  expect(response.headers.get('x-request-id')).toBeTruthy();
  return response.status;
}

describePg('PostgreSQL faults: the process lives, the request answers 502', () => {
  const schema = `vigil_f_${randomBytes(6).toString('hex')}`;
  let proxy: TcpProxy;
  let database: VigilDatabase;
  let server: TestServer;
  const connectionErrors: Error[] = [];

  beforeAll(async () => {
    await admin((c) => c.query(`CREATE SCHEMA ${schema}`));
    const target = new URL(url!);
    proxy = await startTcpProxy({ host: target.hostname, port: Number(target.port || 5432) });
    const viaProxy = new URL(withSearchPath(url!, schema));
    viaProxy.host = proxy.address;
    await migrateDirectly(schema);
    database = await openDatabase({
      url: viaProxy.toString(),
      connectTimeoutMs: 500,
      statementTimeoutMs: 500,
      onConnectionError: (error) => connectionErrors.push(error),
    });
    server = await startServer({ database });
  });

  afterAll(async () => {
    await server?.close();
    await database?.close();
    await proxy?.close();
    await admin((c) => c.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`));
  });

  it('connections reset while queries run: every request gets 404 or 502 {detail}, none crashes the process', async () => {
    const statuses: number[] = [];
    for (let round = 0; round < 8; round += 1) {
      proxy.stall();
      const requests = Array.from({ length: 6 }, () => fetch(`${server.url}${agentPath}`).then(expectDetailOr200));
      // Reset while the queries are on the wire: held until one is, whatever the machine's load.
      expect(await proxy.untilSwallowed()).toBe(true);
      proxy.resetAll();
      proxy.resume();
      statuses.push(...(await Promise.all(requests)));
    }
    expect(statuses.some((s) => s === 502)).toBe(true);
    expect(connectionErrors.length).toBeGreaterThan(0);
    // The pool replaced the broken connections: the next request is served.
    const after = await fetch(`${server.url}${agentPath}`);
    expect(after.status).toBe(404);
  });

  it('a server that stops answering costs a request the statement timeout, then 502, not a hang', async () => {
    // Open pooled connections go silent, and so does every new one.
    proxy.stall();
    try {
      const started = Date.now();
      const response = await fetch(`${server.url}${agentPath}`);
      expect(response.status).toBe(502);
      expect(await response.json()).toEqual({ detail: expect.any(String), code: 'upstream_unavailable' });
      expect(Date.now() - started).toBeLessThan(server.config.handlerTimeoutMs);
    } finally {
      proxy.resume();
      proxy.resetAll();
    }
    expect((await fetch(`${server.url}${agentPath}`)).status).toBe(404);
  });

  it('connections whose queries timed out are dropped, not reused: once the network flows again, requests are served (probe finding)', async () => {
    // Fill the pool with open connections.
    await Promise.all(Array.from({ length: 6 }, () => fetch(`${server.url}${agentPath}`).then(expectDetailOr200)));
    // Bytes dropped, sockets kept open (a firewall or NAT silently losing a flow): every pooled
    // connection gets a query that will never be answered.
    proxy.stall();
    const during = await Promise.all(Array.from({ length: 12 }, () => fetch(`${server.url}${agentPath}`).then(expectDetailOr200)));
    expect(during).toContain(502);
    // The same sockets forward again. A connection still waiting for its lost answer would make
    // every query sent on it wait for the timeout too.
    proxy.resume();
    const after: number[] = [];
    for (let i = 0; i < 6; i += 1) after.push((await fetch(`${server.url}${agentPath}`)).status);
    expect(after).toEqual([404, 404, 404, 404, 404, 404]);
  });
});

describePg('PostgreSQL failing while an upload is written', () => {
  const schema = `vigil_fu_${randomBytes(6).toString('hex')}`;
  let proxy: TcpProxy;
  let database: VigilDatabase;
  let server: NetworkApp;

  beforeAll(async () => {
    await admin((c) => c.query(`CREATE SCHEMA ${schema}`));
    const target = new URL(url!);
    proxy = await startTcpProxy({ host: target.hostname, port: Number(target.port || 5432) });
    const viaProxy = new URL(withSearchPath(url!, schema));
    viaProxy.host = proxy.address;
    await migrateDirectly(schema);
    database = await openDatabase({ url: viaProxy.toString(), connectTimeoutMs: 500, statementTimeoutMs: 500, onConnectionError: () => {} });
    server = await startNetworkApp({ snapshot: { netuid: 76, block: 1, taken_at: '2026-01-01T00:00:00.000+00:00', neurons: [] }, database });
  });

  afterAll(async () => {
    await server?.close();
    await database?.close();
    await proxy?.close();
    await admin((c) => c.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`));
  });

  it('a connection reset while the row is written is 502 (retryable), not 400, and leaves no row (probe finding)', async () => {
    const token = await operatorKey(database.db, ['--org', 'acme', '--scopes', 'upload,read']);
    const bytes = randomBytes(256 * 1024);
    const staging = join(server.dir, 'blobs', 'staging');
    const socket = connect(Number(new URL(server.baseUrl).port), '127.0.0.1');
    let answer = '';
    socket.on('data', (chunk: Buffer) => (answer += chunk.toString('utf8')));
    const closed = new Promise((resolve) => socket.on('close', resolve));
    await new Promise((resolve) => socket.once('connect', resolve));
    socket.write(
      `POST /v1/artifacts?track=packages&package=npm:reset-upload@1.0.0 HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${token}\r\n` +
        `Content-Type: application/octet-stream\r\nContent-Length: ${bytes.length}\r\nConnection: close\r\n\r\n`,
    );
    socket.write(bytes.subarray(0, bytes.length / 2));
    // The key was checked and the body streams into the store: now the database goes silent.
    while (!existsSync(staging) || readdirSync(staging).length === 0) await new Promise((resolve) => setTimeout(resolve, 5));
    proxy.stall();
    socket.write(bytes.subarray(bytes.length / 2));
    // The row's transaction is on the wire when every connection is reset.
    expect(await proxy.untilSwallowed()).toBe(true);
    proxy.resetAll();
    proxy.resume();
    await closed;
    expect(answer).toMatch(/^HTTP\/1\.1 502 /);
    expect(JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4))).toEqual({ detail: 'upstream dependency unavailable', code: 'upstream_unavailable' });
    expect(await database.db.selectFrom('artifacts').select('id').execute()).toEqual([]);
    expect(await database.db.selectFrom('artifact_packages').select('purl').execute()).toEqual([]);
    expect(readdirSync(staging)).toEqual([]);
  });
});

describePg('a request with an Idempotency-Key timing out (504) while PostgreSQL is frozen', () => {
  const schema = `vigil_fi_${randomBytes(6).toString('hex')}`;
  const T0 = Date.UTC(2026, 10, 21, 10, 0, 0);
  const HANDLER_TIMEOUT_MS = 1_000;
  let proxy: TcpProxy;
  let database: VigilDatabase;
  let server: NetworkApp;

  beforeAll(async () => {
    await admin((c) => c.query(`CREATE SCHEMA ${schema}`));
    const target = new URL(url!);
    proxy = await startTcpProxy({ host: target.hostname, port: Number(target.port || 5432) });
    const viaProxy = new URL(withSearchPath(url!, schema));
    viaProxy.host = proxy.address;
    // The database gives a statement (and a connection) far longer than the handler: the 504 comes first.
    database = await openDatabase({ url: viaProxy.toString(), connectTimeoutMs: 20_000, statementTimeoutMs: 10_000, onConnectionError: () => {} });
    await migrateToLatest(database.db);
    server = await startNetworkApp({
      snapshot: { netuid: 76, block: 1, taken_at: '2026-01-01T00:00:00.000+00:00', neurons: [] },
      database,
      clock: T0,
      config: { handlerTimeoutMs: HANDLER_TIMEOUT_MS },
    });
  });

  afterAll(async () => {
    proxy?.resume();
    await server?.close();
    await database?.close();
    await proxy?.close();
    await admin((c) => c.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`));
  });

  it('answers the 504 {detail} on time, keeps the key claimed for another handler timeout, then lets the retry run (probe findings)', async () => {
    const token = await operatorKey(database.db, ['--org', 'acme', '--scopes', 'keys,read']);
    const victim = (await operatorKey(database.db, ['--org', 'acme', '--scopes', 'read'])).slice(4, 12);
    const revoke = () => fetch(`${server.baseUrl}/v1/keys/${victim}`, { method: 'DELETE', headers: { authorization: `Bearer ${token}`, 'idempotency-key': 'freeze-1' } });
    // The key is checked once: later requests find it in the key cache (the clock is pinned).
    expect((await fetch(`${server.baseUrl}/v1/account`, { headers: { authorization: `Bearer ${token}` } })).status).toBe(200);

    const holder = new pg.Client({ connectionString: withSearchPath(url!, schema) });
    await holder.connect();
    try {
      // The revocation's UPDATE waits for this lock; then the network freezes under it.
      await holder.query('BEGIN');
      await holder.query('SELECT 1 FROM api_keys WHERE key_id = $1 FOR UPDATE', [victim]);
      const holderPid = (await holder.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0]!.pid;
      const waiting = async () =>
        Number((await holder.query<{ n: string }>('SELECT count(*) AS n FROM pg_stat_activity WHERE $1 = ANY(pg_blocking_pids(pid))', [holderPid])).rows[0]!.n);
      const first = revoke();
      while ((await waiting()) === 0) await new Promise((resolve) => setTimeout(resolve, 5));
      proxy.stall();

      const answer = await first;
      // Answered by the handler timeout, in the catalogue's form, while the statement still waits:
      // nothing the database does (or fails to do) delays or reshapes it.
      expect(answer.status).toBe(504);
      expect(await answer.json()).toEqual({ detail: 'request handler timed out', code: 'handler_timeout' });
      expect(answer.headers.get('x-request-id')).toBeTruthy();
      expect(await waiting()).toBe(1);
    } finally {
      await holder.query('ROLLBACK').catch(() => undefined);
      await holder.end();
      proxy.resume();
      proxy.resetAll();
    }

    // The handler may still commit: the key stays claimed for another handler timeout counted from
    // the 504, whether or not the server could write anything when it answered.
    server.clock = T0 + HANDLER_TIMEOUT_MS + HANDLER_TIMEOUT_MS / 2;
    const retried = await revoke();
    expect(retried.status).toBe(409);
    expect(await retried.json()).toEqual({ detail: 'a request with this idempotency key is in progress', code: 'idempotency_key_in_progress' });
    // After that the claim is stale: the retry takes it over and runs (the frozen attempt never committed).
    server.clock = T0 + 2 * HANDLER_TIMEOUT_MS;
    const taken = await revoke();
    expect(taken.status).toBe(200);
    expect(await taken.json()).toMatchObject({ key_id: victim, status: 'revoked' });
    expect((await revoke()).headers.get('idempotent-replayed')).toBe('true');
  }, 30_000);
});

describePg('closing the database while a stalled server holds a query (SIGTERM after a 504)', () => {
  it('close returns without waiting for the query, so shutdown exits 0 within its grace (probe finding)', async () => {
    const target = new URL(url!);
    const proxy = await startTcpProxy({ host: target.hostname, port: Number(target.port || 5432) });
    try {
      const viaProxy = new URL(url!);
      viaProxy.host = proxy.address;
      // A statement timeout far longer than the test: only close's own bound can end the wait.
      const database = await openDatabase({ url: viaProxy.toString(), statementTimeoutMs: 600_000 });
      proxy.stall();
      const abandoned = sql`select 1`.execute(database.db).then(
        () => 'answered',
        () => 'failed',
      );
      expect(await proxy.untilSwallowed(5_000)).toBe(true);
      await database.close();
      proxy.resetAll();
      expect(await abandoned).toBe('failed');
    } finally {
      await proxy.close();
    }
  }, 30_000);
});

describePg('PostgreSQL refusing connections answers 502', () => {
  const role = `vigil_limited_${randomBytes(4).toString('hex')}`;
  const dbName = `vigil_closed_${randomBytes(4).toString('hex')}`;

  // CREATE and DROP DATABASE wait for a checkpoint of the whole cluster, which on a server shared
  // with other test runs can take far longer than a hook's default 10 s.
  const DATABASE_DDL_MS = 120_000;
  beforeAll(async () => {
    await admin(async (c) => {
      await c.query(`CREATE ROLE ${role} LOGIN`);
      await c.query(`CREATE DATABASE ${dbName} OWNER ${role}`);
    });
  }, DATABASE_DDL_MS);
  afterAll(async () => {
    await admin(async (c) => {
      await c.query(`ALTER DATABASE ${dbName} ALLOW_CONNECTIONS true`).catch(() => undefined);
      await c.query(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1`, [dbName]);
      await c.query(`DROP DATABASE IF EXISTS ${dbName}`);
      await c.query(`DROP ROLE IF EXISTS ${role}`);
    });
  }, DATABASE_DDL_MS);

  it('too many connections (53300) and database not accepting connections (55000) are 502, not 500', async () => {
    const target = new URL(url!);
    target.username = role;
    target.pathname = `/${dbName}`;
    // Generous: on a loaded machine a shorter wait could end in the pool's timeout before PostgreSQL refuses.
    const database = await openDatabase({ url: target.toString(), connectTimeoutMs: 15_000, onConnectionError: () => {} });
    await migrateToLatest(database.db);
    const server = await startServer({ database });
    try {
      expect((await fetch(`${server.url}${agentPath}`)).status).toBe(404);
      const dropConnections = () =>
        admin((c) => c.query(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()`, [dbName]));

      // A pooled connection that was just terminated may still be handed to the next request before
      // the pool hears of it (57P01, also a 502). Every answer must be 502; within a few, one has
      // to come from a new connection that PostgreSQL refused with the code under test.
      const refusedWith = async (code: string) => {
        for (let attempt = 0; attempt < 5 && !server.logs().includes(code); attempt++) {
          const response = await fetch(`${server.url}${agentPath}`);
          expect(response.status).toBe(502);
          expect(await response.json()).toEqual({ detail: expect.any(String), code: 'upstream_unavailable' });
        }
        expect(server.logs()).toContain(code);
      };
      await admin((c) => c.query(`ALTER ROLE ${role} CONNECTION LIMIT 0`));
      await dropConnections();
      await refusedWith('53300');
      await admin((c) => c.query(`ALTER ROLE ${role} CONNECTION LIMIT -1`));

      await admin((c) => c.query(`ALTER DATABASE ${dbName} ALLOW_CONNECTIONS false`));
      await dropConnections();
      await refusedWith('55000');
    } finally {
      await admin((c) => c.query(`ALTER DATABASE ${dbName} ALLOW_CONNECTIONS true`));
      await server.close();
      await database.close();
    }
  });
});

describePg('PostgreSQL faults under signed writes', () => {
  const schema = `vigil_fw_${randomBytes(6).toString('hex')}`;
  let proxy: TcpProxy;
  let database: VigilDatabase;
  let server: NetworkApp;

  beforeAll(async () => {
    await admin((c) => c.query(`CREATE SCHEMA ${schema}`));
    const target = new URL(url!);
    proxy = await startTcpProxy({ host: target.hostname, port: Number(target.port || 5432) });
    const viaProxy = new URL(withSearchPath(url!, schema));
    viaProxy.host = proxy.address;
    await migrateDirectly(schema);
    database = await openDatabase({ url: viaProxy.toString(), connectTimeoutMs: 500, statementTimeoutMs: 500, onConnectionError: () => {} });
    server = await startNetworkApp({
      snapshot: { netuid: 76, block: 1, taken_at: '2026-01-01T00:00:00.000+00:00', neurons: [] },
      database,
    });
  });

  afterAll(async () => {
    await server?.close();
    await database?.close();
    await proxy?.close();
    await admin((c) => c.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`));
  });

  it('connections reset inside write transactions (replay claim, registration): each request is 2xx or 502 {detail}; the rest are served', async () => {
    const outcomes: number[] = [];
    for (let round = 0; round < 6; round += 1) {
      proxy.stall();
      const writes = Array.from({ length: 4 }, (_, i) => {
        const miner = new SignedVigilClient({ baseUrl: server.baseUrl, keypair: keypairFromSeed(randomBytes(32).toString('hex')) });
        return miner.request('POST', '/v1/miners/registrations', { track: i % 2 === 0 ? 'skills' : 'packages' }).then(
          () => 200,
          (error: unknown) => {
            if (!(error instanceof VigilApiError)) throw error;
            expect(error.status).toBe(502);
            expect(error.detail).toBe('upstream dependency unavailable');
            return error.status;
          },
        );
      });
      // Hold the database's side still until a write's query is on the wire, then cut it: at least
      // one request of each round fails mid-transaction, whatever the machine's load.
      expect(await proxy.untilSwallowed()).toBe(true);
      proxy.resetAll();
      proxy.resume();
      outcomes.push(...(await Promise.all(writes)));
    }
    expect(outcomes.every((status) => status === 200 || status === 502)).toBe(true);
    expect(outcomes).toContain(502);
    // The pool replaced what was reset: a fresh write goes through.
    const miner = new SignedVigilClient({ baseUrl: server.baseUrl, keypair: keypairFromSeed(randomBytes(32).toString('hex')) });
    await expect(miner.request('POST', '/v1/miners/registrations', { track: 'skills' })).resolves.toBeDefined();
  });
});
