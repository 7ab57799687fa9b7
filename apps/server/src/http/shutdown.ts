import type { FastifyInstance } from 'fastify';

export interface GracefulShutdownOptions {
  app: FastifyInstance;
  /** Runs after the HTTP server has drained (close the database, flush logs). */
  cleanup: () => Promise<void>;
  exit: (code: number) => void;
  signals?: readonly NodeJS.Signals[];
  /** Where signals arrive; `process` outside tests. */
  emitter?: Pick<NodeJS.EventEmitter, 'on' | 'removeListener'>;
  /** After this long the process exits 1 even if requests are still running. */
  graceMs: number;
}

/**
 * On SIGTERM/SIGINT: stop accepting connections, let in-flight requests finish (fastify close),
 * run `cleanup`, exit 0. A second signal, or a drain longer than `graceMs`, exits 1 at once.
 * Returns a function that removes the handlers.
 */
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
    const timer = setTimeout(() => {
      app.log.error({ graceMs }, 'shutdown grace period exceeded; exiting');
      exit(1);
    }, graceMs);
    timer.unref();
    void (async () => {
      try {
        await app.close();
        await cleanup();
        clearTimeout(timer);
        exit(0);
      } catch (error) {
        app.log.error({ err: error }, 'shutdown failed');
        clearTimeout(timer);
        exit(1);
      }
    })();
  };

  for (const signal of signals) emitter.on(signal, onSignal);
  return () => {
    for (const signal of signals) emitter.removeListener(signal, onSignal);
  };
}
