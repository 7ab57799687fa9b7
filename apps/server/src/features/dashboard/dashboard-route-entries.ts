import type { RouteEntry, RouteHost } from '../../platform/http/route-entry.js';
import { dashboardPlugin } from './dashboard-plugin.js';
import type { DashboardSettings } from './dashboard-settings.js';

interface DashboardRouteHost extends RouteHost {
  readonly config: { readonly dashboard: DashboardSettings };
}

/** The built dashboard at `/` (docs/dashboard.md), unless VIGIL_DASHBOARD=false. */
export const dashboardRouteEntries: readonly RouteEntry<DashboardRouteHost>[] = [
  {
    scope: 'public',
    register: async (app, { config }) => {
      if (config.dashboard.enabled) await app.register(dashboardPlugin, { settings: config.dashboard });
    },
  },
];
