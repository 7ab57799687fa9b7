// Serves the built dashboard (docs/dashboard.md).
// The rest of the server imports this feature through this file only (docs/contributing.md).
export { dashboardPlugin } from './dashboard-plugin.js';
export { DASHBOARD_VARIABLES, type DashboardSettings, dashboardSettingsFromEnv } from './dashboard-settings.js';
