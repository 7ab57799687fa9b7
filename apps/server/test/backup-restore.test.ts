import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { cpSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { runKeysCommand } from '../src/features/accounts/index.js';
import { createFileBlobStore } from '../src/platform/blobs/index.js';
import { openDatabase, type VigilDatabase } from '../src/platform/db/database.js';
import { migrateToLatest } from '../src/platform/db/migrate.js';
import { loadServerIdentity } from '../src/platform/secrets/server-identity.js';
import { seedDemo } from '../src/seed/demo.js';
import { withSearchPath } from '../src/test-support/databases.js';
import { startServer, type TestServer } from './harness.js';

// docs/operations.md, "Backup and restore": the database (pg_dump, or SQLite's .backup), then the
// data directory's blobs/ and server-key. A restored deployment must answer exactly as the original.

const NOW = new Date('2026-11-20T12:00:00Z');
const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});
function workDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'vigil-backup-'));
  dirs.push(dir);
  return dir;
}

function hasCommand(name: string): boolean {
  try {
    execFileSync(name, ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/** Seeds a deployment (rounds, attestations, verdicts, the log, artifacts' bytes) and makes an API key; returns the key. */
async function seedDeployment(database: VigilDatabase, dataDir: string): Promise<string> {
  await migrateToLatest(database.db);
  // The key a deployment's first `serve` creates: it signs the log's checkpoints.
  await loadServerIdentity(dataDir);
  await seedDemo(database.db, { now: NOW, blobs: createFileBlobStore(join(dataDir, 'blobs')), historyDays: 8 });
  const lines = await runKeysCommand(database.db, 'keys', ['create', '--personal', 'auditor', '--plan', 'paid', '--scopes', 'read'], NOW.getTime());
  return lines.find((line) => line.startsWith('vgl_'))!;
}

/** Copies what the database does not hold: artifact and bundle bytes, and the server's identity key. */
function copyDataDir(from: string, to: string): void {
  cpSync(join(from, 'blobs'), join(to, 'blobs'), { recursive: true });
  cpSync(join(from, 'server-key'), join(to, 'server-key'));
}

/** Every answer compared: public reads, each closed round's scores, the log's checkpoint, artifacts and their verdicts, and artifact bytes. */
async function answers(server: TestServer, token: string): Promise<Record<string, unknown>> {
  const get = async (path: string, auth = false) => {
    const response = await fetch(`${server.url}${path}`, auth ? { headers: { authorization: `Bearer ${token}` } } : {});
    expect(response.status, path).toBe(200);
    return (response.headers.get('content-type') ?? '').startsWith('application/json') ? ((await response.json()) as unknown) : await response.text();
  };
  const out: Record<string, unknown> = {};
  for (const path of ['/v1/server-identity', '/v1/leaderboard', '/v1/rounds?limit=200', '/v1/dashboard/network', '/v1/threats/trends', '/v1/agents']) out[path] = await get(path);
  const rounds = (out['/v1/rounds?limit=200'] as { rounds: { round_id: string }[] }).rounds;
  expect(rounds.length).toBeGreaterThan(0);
  for (const round of rounds) out[`scores ${round.round_id}`] = await get(`/v1/rounds/${round.round_id}/scores`);
  // The checkpoint is signed on each request with the server key (Ed25519: the same key and note, the same signature).
  const checkpoint = (await get('/v1/log/checkpoint')) as string;
  expect(Number(checkpoint.split('\n')[1])).toBeGreaterThan(0);
  out.checkpoint = checkpoint;
  // Artifacts by their bytes' hash (the lookup reads the rows; each artifact's listing reads its bytes from blobs/).
  const hashes = await server.database.db.selectFrom('artifacts').select('content_hash').orderBy('id').limit(3).execute();
  expect(hashes.length).toBeGreaterThan(0);
  const found: { id: string }[] = [];
  for (const { content_hash } of hashes) {
    const sha256 = content_hash.startsWith('sha256:') ? content_hash : `sha256:${content_hash}`;
    const lookup = (await get(`/v1/artifacts?sha256=${sha256}`, true)) as { artifacts: { id: string }[] };
    out[`lookup ${sha256}`] = lookup;
    found.push(...lookup.artifacts);
  }
  expect(found.length).toBeGreaterThan(0);
  for (const artifact of found) {
    out[`artifact ${artifact.id}`] = await get(`/v1/artifacts/${artifact.id}`, true);
    out[`facts ${artifact.id}`] = await get(`/v1/artifacts/${artifact.id}/facts`, true);
  }
  return out;
}

async function expectSameAnswers(original: { database: VigilDatabase; dataDir: string }, restored: { database: VigilDatabase; dataDir: string }, token: string): Promise<void> {
  const a = await startServer({ database: original.database, dataDir: original.dataDir, clock: () => NOW.getTime() });
  const b = await startServer({ database: restored.database, dataDir: restored.dataDir, clock: () => NOW.getTime() });
  try {
    const before = await answers(a, token);
    const after = await answers(b, token);
    expect(Object.keys(after)).toEqual(Object.keys(before));
    expect(after).toEqual(before);
  } finally {
    await a.close();
    await b.close();
  }
}

const url = process.env.TEST_DATABASE_URL;
const pgTools = hasCommand('pg_dump') && hasCommand('pg_restore');
if (!url || !pgTools) console.warn('backup-restore: TEST_DATABASE_URL or pg_dump/pg_restore missing; the PostgreSQL restore test is skipped');

describe.skipIf(!url || !pgTools)('backup and restore on PostgreSQL: pg_dump, pg_restore into a fresh database, blobs and server-key copied', () => {
  it('the restored deployment serves the same attestations, verdicts, artifacts and log checkpoint', async () => {
    const schema = `vigil_b_${randomBytes(6).toString('hex')}`;
    const fresh = `vigil_restore_${randomBytes(6).toString('hex')}`;
    const admin = async (sql: string, target = url!) => {
      const client = new pg.Client({ connectionString: target });
      await client.connect();
      try {
        await client.query(sql);
      } finally {
        await client.end();
      }
    };
    await admin(`CREATE SCHEMA ${schema}`);
    const originalDir = workDir();
    const restoredDir = workDir();
    const original = await openDatabase({ url: withSearchPath(url!, schema) });
    let restored: VigilDatabase | undefined;
    try {
      const token = await seedDeployment(original, originalDir);
      // The procedure of docs/operations.md: dump first, then copy the blobs (never deleted, so every row dumped finds its bytes).
      const dump = join(workDir(), 'vigil.dump');
      execFileSync('pg_dump', ['--format=custom', `--schema=${schema}`, `--file=${dump}`, url!]);
      copyDataDir(originalDir, restoredDir);
      await admin(`CREATE DATABASE ${fresh}`);
      const freshUrl = new URL(url!);
      freshUrl.pathname = `/${fresh}`;
      execFileSync('pg_restore', ['--no-owner', '--exit-on-error', `--dbname=${freshUrl.toString()}`, dump]);
      restored = await openDatabase({ url: withSearchPath(freshUrl.toString(), schema) });
      // Migrations find nothing to do on a restored database of the same release.
      expect(await migrateToLatest(restored.db)).toEqual([]);
      await expectSameAnswers({ database: original, dataDir: originalDir }, { database: restored, dataDir: restoredDir }, token);
    } finally {
      await restored?.close();
      await original.close();
      await admin(`DROP DATABASE IF EXISTS ${fresh}`);
      await admin(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
    }
  }, 180_000);
});

const sqliteTool = hasCommand('sqlite3');
if (!sqliteTool) console.warn('backup-restore: sqlite3 missing; the SQLite restore test is skipped');

describe.skipIf(!sqliteTool)('backup and restore on SQLite: sqlite3 .backup while open, blobs and server-key copied', () => {
  it('the restored deployment serves the same attestations, verdicts, artifacts and log checkpoint', async () => {
    const originalDir = workDir();
    const restoredDir = workDir();
    const original = await openDatabase({ dataDir: originalDir });
    let restored: VigilDatabase | undefined;
    try {
      const token = await seedDeployment(original, originalDir);
      // The database stays open (and in WAL mode) while it is backed up, as on a live server.
      execFileSync('sqlite3', [join(originalDir, 'vigil.db'), `.backup '${join(restoredDir, 'vigil.db')}'`]);
      copyDataDir(originalDir, restoredDir);
      expect(readdirSync(restoredDir).sort()).toEqual(['blobs', 'server-key', 'vigil.db']);
      restored = await openDatabase({ dataDir: restoredDir });
      expect(await migrateToLatest(restored.db)).toEqual([]);
      await expectSameAnswers({ database: original, dataDir: originalDir }, { database: restored, dataDir: restoredDir }, token);
      expect(existsSync(join(restoredDir, 'vigil.db'))).toBe(true);
    } finally {
      await restored?.close();
      await original.close();
    }
  }, 180_000);
});
