import { ConfigError } from '../../platform/config/config-error.js';
import { envText, type Env } from '../../platform/config/env.js';

export interface DashboardSettings {
  /** VIGIL_DASHBOARD: whether `/` serves the web dashboard (docs/dashboard.md). */
  enabled: boolean;
  /**
   * VIGIL_DASHBOARD_API_URL: the API the dashboard's pages call when it is not this server (a
   * dashboard-only host in front of an API elsewhere); undefined means the page's own origin.
   */
  apiUrl: string | undefined;
}

/** The variables `dashboardSettingsFromEnv` reads, in the style of CONFIG_VARIABLES. */
export const DASHBOARD_VARIABLES = [
  { name: 'VIGIL_DASHBOARD', default: 'true', accepts: 'true or false: whether `/` serves the web dashboard (docs/dashboard.md)' },
  {
    name: 'VIGIL_DASHBOARD_API_URL',
    default: 'unset (the page\'s own origin)',
    accepts: 'http(s) URL of the API the dashboard calls, no query or fragment; its origin is added to the page\'s connect-src',
  },
] as const;

const BOOLEANS: Record<string, boolean> = { true: true, false: false, '1': true, '0': false };

function apiUrlFrom(text: string | undefined): string | undefined {
  if (text === undefined) return undefined;
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new ConfigError('VIGIL_DASHBOARD_API_URL', `expected an http(s) URL, got ${JSON.stringify(text)}`);
  }
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || url.search !== '' || url.hash !== '' || url.username !== '' || url.password !== '') {
    throw new ConfigError('VIGIL_DASHBOARD_API_URL', `expected an http(s) URL without query, fragment or credentials, got ${JSON.stringify(text)}`);
  }
  return url.href.replace(/\/+$/, '');
}

export function dashboardSettingsFromEnv(env: Env): DashboardSettings {
  const enabledText = envText(env, 'VIGIL_DASHBOARD');
  const enabled = enabledText === undefined ? true : BOOLEANS[enabledText];
  if (enabled === undefined) throw new ConfigError('VIGIL_DASHBOARD', `expected true or false, got ${JSON.stringify(enabledText)}`);
  return { enabled, apiUrl: apiUrlFrom(envText(env, 'VIGIL_DASHBOARD_API_URL')) };
}
