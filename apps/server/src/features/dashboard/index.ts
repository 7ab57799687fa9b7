// Serves the built dashboard (docs/dashboard.md).
// The rest of the server imports this feature through this file only (docs/contributing.md).
export { DASHBOARD_VARIABLES, type DashboardSettings, dashboardSettingsFromEnv } from './dashboard-settings.js';
export { dashboardRouteEntries as routes } from './dashboard-route-entries.js';
