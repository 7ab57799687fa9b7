import { ensurePartitions, log, migrate, openMetricsListener } from './commands.js';
import type { Runtime } from './runtime.js';
import { flushTracing } from './platform/tracing/index.js';
import { createWorkers, stopWorkers } from './workers.js';

/** An Error's message survives JSON.stringify (its own properties are not enumerable). */
function errorFields(_key: string, value: unknown): unknown {
  return value instanceof Error ? { message: value.message } : value;
}

/**
 * `vigil-server worker`: every feature's background work on the runtime, no HTTP API. Owns the
 * runtime from here: closes it on SIGTERM/SIGINT or a failed start.
 */
export async function worker(runtime: Runtime): Promise<void> {
  const { config, database } = runtime;
  const metricsPort = config.metrics.port;
  try {
    for (const name of await migrate(database, config)) log(`migrated: ${name}`);
    for (const line of await ensurePartitions(database)) log(line);
  } catch (error) {
    await runtime.close();
    throw error;
  }
  const workers = createWorkers(runtime, 'worker');
  // Before any work starts: a port already taken ends the worker here, with nothing half-done.
  const metricsServer =
    metricsPort === undefined
      ? undefined
      : await openMetricsListener(config, metricsPort, database, {
          warn: (obj, message) => process.stderr.write(`${message} ${JSON.stringify(obj, errorFields)}\n`),
        }).catch(async (error: unknown) => {
          await runtime.close();
          throw error;
        });
  // The scheduler's timer never holds a process open (inside `serve` the HTTP server does); a
  // worker has nothing else, so it holds itself open until a signal.
  const keepAlive = setInterval(() => {}, 1 << 30);
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) process.exit(1);
    stopping = true;
    log(`${signal}: finishing the current step`);
    clearInterval(keepAlive);
    await stopWorkers(workers);
    await metricsServer?.close();
    await runtime.close();
    await flushTracing();
    process.exit(0);
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));
  for (const w of workers) w.start();
  const scheduler = workers.find((w) => w.name === 'scheduler');
  log(`worker ${scheduler?.holderId ?? ''}: ${workers.map((w) => w.summary).join(', ')}`);
}
