import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { parsePackageRef } from '@vigil/core';
import BetterSqlite3 from 'better-sqlite3';
import { Kysely, SqliteDialect, type DatabaseConnection, type Dialect, type Driver, type TransactionSettings } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { createFileBlobStore } from '../../platform/blobs/index.js';
import { runKeysCommand } from '../accounts/keys-command.js';
import { migrateToLatest } from '../../platform/db/migrate.js';
import type { Database } from '../../platform/db/schema.js';
import { uploadArtifact } from './customer-artifacts.js';

/** SQLite whose COMMIT, when armed, fails as a connection lost before the database answered. */
function commitFailingDialect(database: BetterSqlite3.Database, armed: { on: boolean }): Dialect {
  const inner = new SqliteDialect({ database });
  return {
    createAdapter: () => inner.createAdapter(),
    createIntrospector: (db) => inner.createIntrospector(db),
    createQueryCompiler: () => inner.createQueryCompiler(),
    createDriver(): Driver {
      const driver = inner.createDriver();
      return {
        init: () => driver.init(),
        acquireConnection: () => driver.acquireConnection(),
        beginTransaction: (connection: DatabaseConnection, settings: TransactionSettings) => driver.beginTransaction(connection, settings),
        async commitTransaction(connection: DatabaseConnection) {
          if (armed.on) throw Object.assign(new Error('Connection terminated unexpectedly'), { code: 'ECONNRESET' });
          return driver.commitTransaction(connection);
        },
        rollbackTransaction: (connection: DatabaseConnection) => driver.rollbackTransaction(connection),
        releaseConnection: (connection: DatabaseConnection) => driver.releaseConnection(connection),
        destroy: () => driver.destroy(),
      };
    },
  };
}

describe('uploadArtifact when the database fails at COMMIT', () => {
  const dirs: string[] = [];
  afterEach(() => {
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  it('keeps the bytes (the row may have been stored) and answers the error; the next upload registers them', async () => {
    const sqlite = new BetterSqlite3(':memory:');
    const armed = { on: false };
    const db = new Kysely<Database>({ dialect: commitFailingDialect(sqlite, armed) });
    await migrateToLatest(db);
    await runKeysCommand(db, 'keys', ['create', '--org', 'acme', '--scopes', 'upload'], Date.now());
    const { account_id: accountId } = await db.selectFrom('accounts').select('account_id').executeTakeFirstOrThrow();
    const dir = mkdtempSync(join(tmpdir(), 'vigil-upload-commit-'));
    dirs.push(dir);
    const blobs = createFileBlobStore(join(dir, 'blobs'));
    const bytes = Buffer.from('bytes whose row may or may not have committed\n');
    const hash = `sha256:${createHash('sha256').update(bytes).digest('hex')}`;
    const upload = () =>
      uploadArtifact(db, blobs, {
        track: 'packages',
        ref: parsePackageRef('npm:commit-probe@1.0.0'),
        source: Readable.from([bytes]),
        mediaType: 'application/octet-stream',
        accountId,
        maxBytes: 1024,
        now: Date.now(),
      });

    armed.on = true;
    await expect(upload()).rejects.toThrow('Connection terminated unexpectedly');
    expect(await blobs.has(hash)).toBe(true);
    expect(await db.selectFrom('artifacts').select('id').execute()).toEqual([]);

    armed.on = false;
    const stored = await upload();
    expect(stored).toMatchObject({ created: true, size: bytes.length, artifact: { content_hash: hash } });
    await db.destroy();
  });
});
