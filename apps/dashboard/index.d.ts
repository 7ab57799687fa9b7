export { DASHBOARD_ROUTES } from './routes.js';
/** Absolute path of the built dashboard (`vite build` output): index.html and assets/. */
export declare const dashboardDistDir: string;
/** Whether `pnpm build` has produced the dashboard (index.html present). */
export declare function dashboardIsBuilt(): boolean;
