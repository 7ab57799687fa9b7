// First: configures zod before any schema of @vigil/core is built (see the module).
import './zod-config.js';
import { render } from 'preact';
import { createApi } from './api.js';
import { App } from './app.js';
import './styles.css';

/** VIGIL_DASHBOARD_API_URL as vigil-server wrote it into the page; empty: this page's own origin. */
function apiBaseUrl(): string {
  const configured = document.querySelector<HTMLMetaElement>('meta[name="vigil-api-url"]')?.content.trim();
  return configured ? configured : location.origin;
}

render(<App api={createApi(apiBaseUrl())} />, document.getElementById('app')!);
