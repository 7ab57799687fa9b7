import { buildApp } from './app.js';
import { countRounds, log, migrateAndRebuild, openMetricsListener, seedDemo } from './commands.js';
import { checkTransparencyLog } from './features/log/index.js';
import { installGracefulShutdown } from './platform/http/shutdown.js';
import type { MetricsServer } from './platform/metrics/index.js';
import type { Runtime } from './runtime.js';
import { createWorkers, stopWorkers, type BackgroundWorker } from './workers.js';
import { flushTracing } from './platform/tracing/index.js';

/**
 * `vigil-server serve`: migrations and the startup checks, the app on the runtime, then the workers
 * its settings keep in this process. Owns the runtime from here: closes it on shutdown or failure.
 */
export async function serve(runtime: Runtime, options: { seedDemoIfEmpty: boolean }): Promise<void> {
  const { config, database, blobs, metagraph } = runtime;
  const metricsPort = config.metrics.port;
  let metricsServer: MetricsServer | undefined;
  let workers: BackgroundWorker[] = [];
  try {
    for (const line of await migrateAndRebuild(database, config)) log(line);
    // Refuse to serve a log whose stored tree no longer matches its entries or its last checkpoint.
    const logCheck = await checkTransparencyLog(database.db);
    if (logCheck.problem !== null) throw new Error(`transparency log check failed: ${logCheck.problem}`);
    log(
      `transparency log: ${logCheck.size} entries, consistent with ${logCheck.checkpointSize === null ? 'its entries (no checkpoint signed yet)' : `the checkpoint of ${logCheck.checkpointSize} entries`}`,
    );
    if (options.seedDemoIfEmpty) {
      if ((await countRounds(database)) === 0) await seedDemo(database, config, blobs);
      else log('the database already has rounds; not loading the demo data');
    }
    // Uploads a previous process never finished (killed, or stopped mid-upload) leave staging files.
    // An object store that is down now does not keep the instance from serving (its requests get 502).
    const swept = await blobs.sweep(runtime.clock()).catch((error: unknown) => {
      process.stderr.write(`could not sweep unfinished uploads from the blob store: ${error instanceof Error ? error.message : String(error)}\n`);
      return 0;
    });
    if (swept > 0) log(`removed ${swept} unfinished upload(s) from the blob store's staging area`);
    // Renewed before it expires: a validator request never waits on the chain for a routine refresh.
    metagraph.startRefreshing();
    const app = await buildApp(runtime);
    workers = createWorkers(runtime, 'serve');
    installGracefulShutdown({
      app,
      cleanup: async () => {
        await stopWorkers(workers);
        await metricsServer?.close();
        await runtime.close();
        await flushTracing();
      },
      exit: (code) => process.exit(code),
      // In-flight requests end within the handler timeout (504), so that bounds the drain.
      graceMs: config.drainIdleMs + config.handlerTimeoutMs + 10_000,
      drainIdleMs: config.drainIdleMs,
    });
    await app.listen({ port: config.port, host: config.host });
    // The metrics port before any background pass: a port already taken ends the start-up here, and
    // a checkpoint pass started first would race the database being closed below (a misleading
    // "TlogError: … driver has already been destroyed" in the log of a failed start).
    if (metricsPort !== undefined) metricsServer = await openMetricsListener(config, metricsPort, database, app.log);
    for (const worker of workers) worker.start();
  } catch (error) {
    await metricsServer?.close();
    await runtime.close();
    throw error;
  }
}
