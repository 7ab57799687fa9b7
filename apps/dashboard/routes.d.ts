/** The dashboard's client-side routes as fastify path patterns (`:name` is one path segment). */
export declare const DASHBOARD_ROUTES: readonly string[];
