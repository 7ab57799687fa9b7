import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { runKeysCommand } from '../src/features/accounts/keys-command.js';
import { openDatabase, type VigilDatabase } from '../src/platform/db/database.js';
import { migrateToLatest } from '../src/platform/db/migrate.js';
import { enqueueOutboxEvent } from '../src/platform/outbox.js';
import { inTransaction } from '../src/platform/db/transaction.js';
import { createSecretBox } from '../src/platform/secrets/secret-box.js';
import { loadServerIdentity } from '../src/platform/secrets/server-identity.js';
import { OPERATOR } from '../src/platform/audit-log.js';
import { createWebhook } from '../src/features/webhooks/webhook-endpoints.js';
import { withSearchPath } from '../src/test-support/databases.js';
import { startWebhookReceiver, type WebhookReceiver } from '../src/test-support/webhook-receiver.js';
import { verdictPayload } from './webhooks-support.js';

// The command as installed: the compiled dist/bin.js (turbo builds before testing).
const BIN = fileURLToPath(new URL('../dist/bin.js', import.meta.url));
const built = existsSync(BIN);
if (!built) console.warn(`SKIPPED: webhook crash tests (${BIN} not built; run npx tsc -b)`);

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

interface Target {
  name: string;
  /** DATABASE_URL for the worker, and the database the test reads. */
  open(dir: string): Promise<{ url: string; database: VigilDatabase }>;
}

const targets: Target[] = [
  {
    name: 'SQLite file',
    async open(dir) {
      const url = `sqlite:${join(dir, 'vigil.db')}`;
      return { url, database: await openDatabase({ url }) };
    },
  },
];
const pgUrl = process.env.TEST_DATABASE_URL;
if (pgUrl) {
  targets.push({
    name: 'PostgreSQL',
    async open() {
      const schema = `vigil_crash_${randomBytes(6).toString('hex')}`;
      const admin = new pg.Client({ connectionString: pgUrl });
      await admin.connect();
      await admin.query(`CREATE SCHEMA ${schema}`);
      await admin.end();
      cleanups.push(async () => {
        const drop = new pg.Client({ connectionString: pgUrl });
        await drop.connect();
        await drop.query(`DROP SCHEMA ${schema} CASCADE`);
        await drop.end();
      });
      const url = withSearchPath(pgUrl, schema);
      return { url, database: await openDatabase({ url }) };
    },
  });
}

function startWorker(dir: string, url: string): ChildProcess {
  const child = spawn(process.execPath, [BIN, 'worker'], {
    cwd: dir,
    env: {
      PATH: process.env.PATH ?? '',
      VIGIL_DATA_DIR: dir,
      DATABASE_URL: url,
      LOG_LEVEL: 'warn',
      VIGIL_WEBHOOK_ALLOW_HTTP: 'true',
      VIGIL_WEBHOOK_ALLOW_PRIVATE: 'true',
      // A short attempt limit keeps the dead worker's claims (timeout + 5 s) short.
      VIGIL_WEBHOOK_TIMEOUT_MS: '1000',
      VIGIL_WEBHOOK_POLL_MS: '100',
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  cleanups.push(() => {
    child.kill('SIGKILL');
  });
  return child;
}

describe.skipIf(!built).each(targets)('at-least-once delivery across a worker crash ($name)', (target) => {
  it('a worker SIGKILLed mid-delivery: the next worker sends the same deliveries again, same ids, nothing lost', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'vigil-crash-'));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    const { url, database } = await target.open(dir);
    cleanups.push(() => database.close());
    const db = database.db;
    await migrateToLatest(db);
    const receiver: WebhookReceiver = await startWebhookReceiver({ hangUntilReleased: true });
    cleanups.push(() => receiver.close());

    await runKeysCommand(db, 'keys', ['create', '--org', 'acme', '--scopes', 'webhooks'], Date.now());
    const account = await db.selectFrom('accounts').select('account_id').executeTakeFirstOrThrow();
    const box = createSecretBox((await loadServerIdentity(dir)).secretKey);
    const policy = { allowHttp: true, allowPrivate: true, resolver: async () => [] };
    await createWebhook(db, box, policy, { url: receiver.url, events: ['verdict.changed'] }, { accountId: account.account_id, actor: OPERATOR, now: Date.now() - 1000 });
    const events: string[] = [];
    for (let i = 0; i < 3; i++) {
      const payload = verdictPayload();
      events.push(await inTransaction(db, (trx) => enqueueOutboxEvent(trx, 'verdict.changed', payload, Date.now(), { resource: `artifact:${payload.bundle_hash}`, accountId: null })));
    }

    // The first worker sends all three (the receiver holds each request open) and is killed.
    const first = startWorker(dir, url);
    await receiver.waitFor(3, 30_000);
    first.kill('SIGKILL');
    await new Promise((resolve) => first.once('exit', resolve));
    const held = receiver.received.map((r) => String(r.headers['x-vigil-delivery'])).sort();
    receiver.release();
    receiver.fallback = { status: 200 };

    // Another worker takes the deliveries once the dead one's claims run out, and sends them again.
    startWorker(dir, url);
    await receiver.waitFor(6, 30_000);
    const again = receiver.received.slice(3).map((r) => String(r.headers['x-vigil-delivery'])).sort();
    expect(again).toEqual(held);
    expect(new Set(receiver.received.slice(3).map((r) => JSON.parse(r.raw.toString()).id))).toEqual(new Set(events));
    for (let i = 0; i < 100; i++) {
      const states = await db.selectFrom('webhook_deliveries').select('state').execute();
      if (states.every((s) => s.state === 'succeeded')) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    const rows = await db.selectFrom('webhook_deliveries').select(['delivery_id', 'state']).orderBy('delivery_id').execute();
    expect(rows).toEqual(held.map((id) => ({ delivery_id: id, state: 'succeeded' })));
  }, 60_000);
});
