/**
 * Migrations that never stop the service (docs/contributing.md, "Migrations: expand, then
 * contract"): while an instance of this release serves, the next release applies an expand
 * migration (a new nullable column, a new table, its row in kysely's table) to the same database.
 * The running instance keeps reading and writing, stays ready, and an instance of this release
 * started afterwards (a restart during the rolling upgrade) serves too instead of refusing the
 * migration it does not know; this release's `migrate` then finds nothing to do.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import BetterSqlite3 from 'better-sqlite3';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { withSearchPath } from '../src/test-support/databases.js';

const BIN = fileURLToPath(new URL('../dist/bin.js', import.meta.url));
const built = existsSync(BIN);
if (!built) console.warn(`SKIPPED: rolling upgrade tests (${BIN} not built)`);
const PG_URL = process.env.TEST_DATABASE_URL;
if (!PG_URL) console.warn('SKIPPED: rolling upgrade on PostgreSQL (TEST_DATABASE_URL not set)');

const NEXT = '9000-next-release-expand';
const cleanups: (() => Promise<void> | void)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

function run(args: string[], env: Record<string, string>): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], { env: { PATH: process.env.PATH ?? '', VIGIL_REGISTRY_FETCH: 'false', LOG_LEVEL: 'warn', ...env } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.on('error', reject);
    child.on('exit', (code) => resolve({ code, stdout, stderr }));
  });
}

/** `vigil-server serve` until it answers /v1/health; its stderr is kept for the failure message. */
async function serve(env: Record<string, string>): Promise<{ url: string; child: ChildProcess; stop: () => Promise<void> }> {
  const port = await freePort();
  const child = spawn(process.execPath, [BIN, 'serve'], { env: { PATH: process.env.PATH ?? '', VIGIL_REGISTRY_FETCH: 'false', LOG_LEVEL: 'warn', PORT: String(port), HOST: '127.0.0.1', ...env } });
  let stderr = '';
  child.stderr!.on('data', (c: Buffer) => (stderr += c.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; ; i++) {
    const code = await Promise.race([exited, new Promise((r) => setTimeout(r, 100)).then(() => 'running' as const)]);
    if (code !== 'running') throw new Error(`vigil-server serve exited ${code}: ${stderr}`);
    if (await fetch(`${url}/v1/health`).then((r) => r.ok, () => false)) break;
    if (i > 300) throw new Error(`vigil-server serve did not answer within 30 s: ${stderr}`);
  }
  const stop = async () => {
    if (child.exitCode === null) {
      child.kill('SIGTERM');
      await exited;
    }
  };
  cleanups.push(stop);
  return { url, child, stop };
}

async function upload(url: string, token: string, name: string): Promise<string> {
  const body = Buffer.from(`rolling upgrade ${name} ${randomBytes(8).toString('hex')}\n`);
  const answer = await fetch(`${url}/v1/artifacts?track=packages&package=npm:${name}@1.0.0`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/octet-stream' },
    body,
  });
  expect(answer.status, await answer.clone().text()).toBe(201);
  return ((await answer.json()) as { id: string }).id;
}

async function read(url: string, token: string, id: string): Promise<number> {
  return (await fetch(`${url}/v1/artifacts/${id}`, { headers: { authorization: `Bearer ${token}` } })).status;
}

interface Deployment {
  env: Record<string, string>;
  /** The next release's expand migration, applied from outside while this release serves. */
  expand(): Promise<void>;
}

function upgradeCase(name: string, deployment: () => Promise<Deployment>): void {
  it(`${name}: an instance keeps serving while the next release expands the schema, and one started afterwards serves too`, async () => {
    const { env, expand } = await deployment();
    expect((await run(['migrate'], env)).code).toBe(0);
    const key = await run(['keys', 'create', '--org', 'acme', '--plan', 'paid', '--scopes', 'read,upload,verify'], env);
    expect(key.code, key.stderr).toBe(0);
    const token = key.stdout.trim().split('\n').find((line) => line.startsWith('vgl_'))!;

    const before = await serve(env);
    const first = await upload(before.url, token, 'before-upgrade');
    await expand();
    // The running instance: reads, writes and readiness as before.
    const second = await upload(before.url, token, 'during-upgrade');
    expect([await read(before.url, token, first), await read(before.url, token, second)]).toEqual([200, 200]);
    expect((await fetch(`${before.url}/v1/ready`)).status).toBe(200);
    await before.stop();

    // An instance of this release (re)started on the newer database: serves, migrates nothing.
    const after = await serve(env);
    expect([await read(after.url, token, first), await read(after.url, token, second)]).toEqual([200, 200]);
    await upload(after.url, token, 'after-upgrade');
    expect((await fetch(`${after.url}/v1/ready`)).status).toBe(200);
    await after.stop();
    const again = await run(['migrate'], env);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).not.toContain(NEXT);
  }, 120_000);
}

describe.skipIf(!built)('rolling upgrade: expand migrations of the next release', () => {
  upgradeCase('SQLite', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'vigil-upgrade-'));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    return {
      env: { VIGIL_DATA_DIR: dir },
      expand: async () => {
        const db = new BetterSqlite3(join(dir, 'vigil.db'));
        try {
          db.exec(`ALTER TABLE artifacts ADD COLUMN next_release_note TEXT; CREATE TABLE next_release_things (id INTEGER PRIMARY KEY, note TEXT NOT NULL);`);
          db.prepare('INSERT INTO kysely_migration (name, timestamp) VALUES (?, ?)').run(NEXT, new Date().toISOString());
        } finally {
          db.close();
        }
      },
    };
  });

  describe.skipIf(!PG_URL)('PostgreSQL', () => {
    upgradeCase('PostgreSQL', async () => {
      const dir = mkdtempSync(join(tmpdir(), 'vigil-upgrade-'));
      const schema = `upgrade_${randomBytes(6).toString('hex')}`;
      const admin = new pg.Client({ connectionString: PG_URL });
      await admin.connect();
      await admin.query(`CREATE SCHEMA ${schema}`);
      cleanups.push(async () => {
        await admin.query(`DROP SCHEMA ${schema} CASCADE`);
        await admin.end();
        rmSync(dir, { recursive: true, force: true });
      });
      return {
        env: { VIGIL_DATA_DIR: dir, DATABASE_URL: withSearchPath(PG_URL!, schema) },
        expand: async () => {
          await admin.query(`ALTER TABLE ${schema}.artifacts ADD COLUMN next_release_note text`);
          await admin.query(`CREATE TABLE ${schema}.next_release_things (id bigserial PRIMARY KEY, note text NOT NULL)`);
          await admin.query(`INSERT INTO ${schema}.kysely_migration (name, timestamp) VALUES ($1, $2)`, [NEXT, new Date().toISOString()]);
        },
      };
    });
  });
});
