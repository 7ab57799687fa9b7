import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Kysely } from 'kysely';
import { sharedReadinessCheck } from '../readiness/index.js';
import type { Database } from '../db/schema.js';
import { databaseRegistry, refreshDatabaseGauges } from './database-gauges.js';
import { metricsRegistry, startProcessMetrics } from './metrics.js';
import type { MetricsSettings } from './metrics-settings.js';

export interface MetricsServer {
  /** The bound address (port 0 in settings picks a free one: tests). */
  address: AddressInfo;
  close(): Promise<void>;
}

export interface StartMetricsServerOptions {
  settings: Pick<MetricsSettings, 'host' | 'queryTimeoutMs'> & { port: number };
  db: Kysely<Database>;
  /** Scrape-read failures and other trouble; the scrape still answers. */
  logger: { warn(obj: object, msg: string): void };
  now?: () => number;
}

/**
 * The metrics listener (docs/operations.md): `GET /metrics` in Prometheus' text format and
 * `GET /ready`, apart from the API port so that neither is exposed where the API is, nor counted
 * in its rate limits or its own request metrics.
 */
export async function startMetricsServer(options: StartMetricsServerOptions): Promise<MetricsServer> {
  const { settings, db, logger } = options;
  const now = options.now ?? Date.now;
  startProcessMetrics();
  // One set of database reads at a time: scrapes that arrive together share it.
  let refreshing: Promise<Error | null> | undefined;
  let lastWarned = 0;
  // Probes that arrive together share one check, as on GET /v1/ready.
  const checkReady = sharedReadinessCheck(db, settings.queryTimeoutMs);
  const refresh = () => {
    refreshing ??= refreshDatabaseGauges(db, { now: now(), timeoutMs: settings.queryTimeoutMs }).finally(() => {
      refreshing = undefined;
    });
    return refreshing;
  };

  const server: Server = createServer((request, response) => {
    const path = (request.url ?? '/').split('?')[0];
    const send = (status: number, type: string, body: string) => {
      response.writeHead(status, { 'content-type': type, 'cache-control': 'no-store' });
      response.end(request.method === 'HEAD' ? undefined : body);
    };
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      response.setHeader('allow', 'GET, HEAD');
      return send(405, 'text/plain; charset=utf-8', 'method not allowed\n');
    }
    if (path === '/metrics') {
      void (async () => {
        const failed = await refresh();
        if (failed !== null && Date.now() - lastWarned > 10_000) {
          lastWarned = Date.now();
          logger.warn({ err: failed }, 'metrics: database reads failed; vigil_metrics_database_up is 0');
        }
        const read = failed === null ? await databaseRegistry.metrics() : '';
        send(200, metricsRegistry.contentType, `${await metricsRegistry.metrics()}\n${read}`);
      })().catch((error: unknown) => send(500, 'text/plain; charset=utf-8', `metrics failed: ${(error as Error).message}\n`));
      return;
    }
    if (path === '/ready') {
      void checkReady().then((readiness) =>
        readiness.ready ? send(200, 'text/plain; charset=utf-8', 'ready\n') : send(503, 'text/plain; charset=utf-8', `not ready: ${readiness.reason}\n`),
      );
      return;
    }
    send(404, 'text/plain; charset=utf-8', 'not found: this port serves /metrics and /ready\n');
  });
  // A scrape is small and quick: a client that stalls is cut off rather than held.
  server.requestTimeout = 10_000;
  server.headersTimeout = 10_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(settings.port, settings.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  return {
    address: server.address() as AddressInfo,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
