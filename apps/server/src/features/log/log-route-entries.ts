import type { RouteEntry, RouteHost } from '../../platform/http/route-entry.js';
import { logRoutesPlugin } from './log-routes.js';
import type { TransparencyLog } from './transparency-log.js';

interface LogRouteHost extends RouteHost {
  /** The runtime's one log, the one the periodic checkpoints sign. */
  readonly transparencyLog: TransparencyLog;
}

/** The transparency log's public reads and cosignature submissions (docs/log.md). */
export const logRouteEntries: readonly RouteEntry<LogRouteHost>[] = [
  {
    scope: 'public',
    register: async (app, { transparencyLog, clock }) => {
      await app.register(logRoutesPlugin, { log: transparencyLog, clock });
    },
  },
];
