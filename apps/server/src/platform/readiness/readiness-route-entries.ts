import type { RouteEntry, RouteHost } from '../http/route-entry.js';
import { readinessRoute } from './readiness-route.js';

interface ReadinessRouteHost extends RouteHost {
  /** VIGIL_METRICS_QUERY_TIMEOUT_MS bounds the check's database reads. */
  readonly config: { readonly metrics: { readonly queryTimeoutMs: number } };
}

/** `GET /v1/ready` (public, docs/operations.md "Probes"). */
export const readinessRouteEntries: readonly RouteEntry<ReadinessRouteHost>[] = [
  {
    scope: 'public',
    register: async (app, { database, config }) => {
      await app.register(readinessRoute, { db: database.db, timeoutMs: config.metrics.queryTimeoutMs });
    },
  },
];
