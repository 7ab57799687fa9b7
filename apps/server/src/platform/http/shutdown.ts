import type { FastifyInstance } from 'fastify';

export interface GracefulShutdownOptions {
  app: FastifyInstance;
  /** Runs after the HTTP server has drained (close the database, flush logs). */
  cleanup: () => Promise<void>;
  exit: (code: number) => void;
  signals?: readonly NodeJS.Signals[];
  /** Where signals arrive; `process` outside tests. */
  emitter?: Pick<NodeJS.EventEmitter, 'on' | 'removeListener'>;
  /** After this long the process exits 1 even if requests are still running (cleanup still runs). */
  graceMs: number;
  /** How long open keep-alive connections may still send a request (VIGIL_DRAIN_IDLE_MS). */
  drainIdleMs?: number;
}

/**
 * On SIGTERM/SIGINT: stop accepting connections, answer what arrives on open keep-alive connections
 * for `drainIdleMs` (with `Connection: close`), let in-flight requests finish (fastify close), run
 * `cleanup`, exit 0. A drain longer than `graceMs` runs `cleanup` (bounded) and exits 1; a second
 * signal exits 1 at once. Returns a function that removes the handlers.
 */
/** How long cleanup may take once the grace period is over. */
const CLEANUP_BOUND_MS = 5_000;

export function installGracefulShutdown(options: GracefulShutdownOptions): () => void {
  const { app, cleanup, exit, graceMs } = options;
  const signals = options.signals ?? ['SIGTERM', 'SIGINT'];
  const emitter = options.emitter ?? process;
  let closing = false;

  const onSignal = (signal: NodeJS.Signals) => {
    if (closing) {
      app.log.warn({ signal }, 'second signal during shutdown; exiting now');
      exit(1);
      return;
    }
    closing = true;
    app.log.info({ signal }, 'shutting down: draining in-flight requests');
    let cleaned: Promise<void> | undefined;
    // Once, whichever path gets there first: the database is closed on every way out.
    const runCleanup = () => (cleaned ??= cleanup());
    const timer = setTimeout(() => {
      app.log.error({ graceMs }, 'shutdown grace period exceeded; closing the database and exiting');
      const bounded = new Promise((resolve) => setTimeout(resolve, CLEANUP_BOUND_MS).unref());
      void Promise.race([runCleanup().catch(() => undefined), bounded]).finally(() => exit(1));
    }, graceMs);
    timer.unref();
    void (async () => {
      try {
        await app.connectionDrain.drain(options.drainIdleMs ?? 0);
        await app.close();
        await runCleanup();
        clearTimeout(timer);
        exit(0);
      } catch (error) {
        app.log.error({ err: error }, 'shutdown failed');
        clearTimeout(timer);
        await runCleanup().catch(() => undefined);
        exit(1);
      }
    })();
  };

  for (const signal of signals) emitter.on(signal, onSignal);
  return () => {
    for (const signal of signals) emitter.removeListener(signal, onSignal);
  };
}
