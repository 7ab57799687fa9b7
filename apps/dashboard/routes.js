// The dashboard's client-side routes, as fastify path patterns. vigil-server answers exactly these
// with index.html (the SPA fallback); every other unknown path keeps the API's JSON 404, and the
// dashboard's router (src/lib/router.ts) matches the same list, so the two cannot drift apart.
export const DASHBOARD_ROUTES = Object.freeze([
  '/',
  '/threats',
  '/rounds',
  '/rounds/:roundId',
  '/rounds/:roundId/miners/:hotkey',
  '/leaderboard',
  '/agents',
  '/agents/:hotkey',
  '/verify',
  '/artifacts',
  '/firewall',
]);
