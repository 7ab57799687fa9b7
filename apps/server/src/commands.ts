import { join } from 'node:path';
import { createBlobStore, type BlobStore } from './platform/blobs/index.js';
import type { Config } from './config.js';
import type { VigilDatabase } from './platform/db/database.js';
import { migrateToLatest } from './platform/db/migrate.js';
import { attestationPartitionUpkeepAtStart } from './platform/db/attestation-partitions.js';
import { reindexSearchIfNeeded } from './features/search/index.js';
import { startMetricsServer, type MetricsServer } from './platform/metrics/index.js';
import { openConfiguredDatabase, openMigrationDatabase } from './runtime.js';

/** The commands' one output line (stdout). */
export function log(line: string): void {
  process.stdout.write(`${line}\n`);
}

export { UsageError } from './platform/commands/feature-command.js';

export async function withDatabase<T>(config: Config, work: (database: VigilDatabase) => Promise<T>): Promise<T> {
  const database = await openConfiguredDatabase(config);
  try {
    return await work(database);
  } finally {
    await database.close();
  }
}

/** A one-off command's blob store, closed (its sockets released) when `work` ends. */
export async function withBlobStore<T>(config: Config, work: (blobs: BlobStore) => Promise<T>): Promise<T> {
  const blobs = await createBlobStore(config.blobs);
  try {
    return await work(blobs);
  } finally {
    blobs.close();
  }
}

/**
 * Applies the pending migrations. PostgreSQL: on a pool of their own whose statements are bounded by
 * VIGIL_DB_MIGRATION_STATEMENT_TIMEOUT_MS, not by the requests' VIGIL_DB_STATEMENT_TIMEOUT_MS: a
 * migration waiting on a table another process holds, or building an index over a large one, is
 * slow, not stuck, and failing it at a request's bound would stop `serve` from starting.
 */
export async function migrate(database: VigilDatabase, config: Config): Promise<string[]> {
  // `database` is the one `config` names (serve, worker and the commands open it from `config`).
  const migrating = database.dialect === 'postgres' ? await openMigrationDatabase(config) : database;
  try {
    const results = await migrateToLatest(migrating.db, { lockTimeoutMs: config.migrationLockTimeoutMs });
    return results.filter((r) => r.status === 'Success').map((r) => r.migrationName);
  } finally {
    if (migrating !== database) await migrating.close();
  }
}

/**
 * After migrations, at every start of `migrate`, `serve` and `worker`: the attestation partitions
 * of this month and the next ones (PostgreSQL; nothing, and no query, on SQLite). A lock not had in
 * time is one output line, not a failed start: the next check retries.
 */
export async function ensurePartitions(database: VigilDatabase): Promise<string[]> {
  return attestationPartitionUpkeepAtStart(database.db, Date.now());
}

/** Migrations, then the one-off search rebuild a migration may ask for (docs/search.md): `migrate` and `serve`. */
export async function migrateAndRebuild(database: VigilDatabase, config: Config): Promise<string[]> {
  const applied = (await migrate(database, config)).map((name) => `migrated: ${name}`);
  applied.push(...(await ensurePartitions(database)));
  const rebuilt = await reindexSearchIfNeeded(database.db, Date.now);
  if (rebuilt !== null) applied.push(`rebuilt the search index: ${rebuilt.artifacts} artifacts and ${rebuilt.attestations} attestations`);
  return applied;
}

export async function countRounds(database: VigilDatabase): Promise<number> {
  const row = await database.db
    .selectFrom('rounds')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

type DemoSeed = typeof import('./seed/demo.js');

/** Imported lazily: the demo data is only needed by `seed --demo` and `serve --seed-demo-if-empty`. */
async function loadDemoSeed(): Promise<DemoSeed> {
  try {
    return await import('./seed/demo.js');
  } catch (error) {
    throw new Error(`the demo seed (seed/demo.js) is not available in this build: ${(error as Error).message}`, {
      cause: error,
    });
  }
}

export async function seedDemo(database: VigilDatabase, config: Config, blobs: BlobStore): Promise<void> {
  const demo = await loadDemoSeed();
  const result = await demo.seedDemo(database.db, {
    now: new Date(),
    historyDays: config.demoHistoryDays,
    blobs,
    schedule: { submissionMs: config.scheduler.submissionMs, evaluationMs: config.scheduler.evaluationMs, gapMs: config.scheduler.gapMs },
    progress: (message) => log(`demo: ${message}`),
    // The demo's validators get permits in a snapshot where the server looks by default, unless
    // the operator pointed the metagraph elsewhere.
    ...(config.metagraph.subtensorUrl === undefined && config.metagraph.file === join(config.dataDir, 'metagraph.json')
      ? { metagraphFile: config.metagraph.file }
      : {}),
  });
  log(
    `loaded the demo data: ${result.validators} validators, ${result.miners} miners, ${result.rounds} rounds, ${result.attestations} attestations`,
  );
  // The demo's history reaches into past months with no partition: create them now, moving those
  // rows out of the default partition (PostgreSQL).
  for (const line of await ensurePartitions(database)) log(line);
}

/** The metrics listener of `serve` and `worker` (docs/operations.md); a port it cannot take is named in the error. */
export async function openMetricsListener(config: Config, port: number, database: VigilDatabase, logger: { warn(obj: object, msg: string): void }): Promise<MetricsServer> {
  const server = await startMetricsServer({ settings: { ...config.metrics, port }, db: database.db, logger }).catch((error: unknown) => {
    throw new Error(`metrics listener: cannot listen on ${config.metrics.host}:${port}: ${(error as Error).message}`, { cause: error });
  });
  log(`metrics: http://${formatHost(config.metrics.host)}:${server.address.port}/metrics and /ready`);
  return server;
}

/** An IPv6 address in a URL goes in brackets. */
function formatHost(host: string): string {
  return host.includes(':') ? `[${host}]` : host;
}
