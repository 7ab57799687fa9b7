import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export { DASHBOARD_ROUTES } from './routes.js';

/** Absolute path of the built dashboard (`vite build` output): index.html and assets/. */
export const dashboardDistDir = fileURLToPath(new URL('./dist/', import.meta.url));

/** Whether `pnpm build` has produced the dashboard (index.html present). */
export function dashboardIsBuilt() {
  return existsSync(new URL('./dist/index.html', import.meta.url));
}
