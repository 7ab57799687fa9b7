import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { codeSpans, endpointTable } from '../../../test-support/endpoint-tables.js';
import { startNetworkApp, type NetworkApp } from '../src/test-support/network-app.js';

/**
 * Every route under /v1 of a server with every part enabled (public, customer, admin, signed), as
 * `METHOD /path` with `{param}`s. Read from fastify's own route tree (`printRoutes`), so a route added
 * anywhere is seen here without being listed by hand. HEAD is left out: fastify adds it to every GET.
 */
function servedRoutes(app: NetworkApp['app']): string[] {
  const tree = app.printRoutes({ commonPrefix: false });
  const paths: string[] = [];
  const routes: string[] = [];
  for (const line of tree.split('\n')) {
    const match = /^((?:[│ ] {3})*)[├└]── (.+?)(?: \(([A-Z, ]+)\))?$/.exec(line);
    if (!match) continue;
    const depth = match[1]!.length / 4;
    const path = depth === 0 ? match[2]! : `${paths[depth - 1]}${match[2]}`;
    paths[depth] = path;
    paths.length = depth + 1;
    if (!path.startsWith('/v1/') || match[3] === undefined) continue;
    for (const method of match[3].split(', ')) {
      if (method !== 'HEAD') routes.push(`${method} ${path.replace(/:(\w+)/g, '{$1}')}`);
    }
  }
  return routes.sort();
}

describe('every route is documented, with an SDK method and a vigil command', () => {
  let env: NetworkApp;
  let routes: string[];

  beforeAll(async () => {
    env = await startNetworkApp({
      snapshot: { netuid: 76, block: 1, taken_at: '2026-11-21T10:00:00+00:00', neurons: [] },
      // Admin routes are served only with an allowlist.
      config: { adminAllowlist: ['127.0.0.1'] },
    });
    routes = servedRoutes(env.app);
  });
  afterAll(async () => env?.close());

  it('reads the route tree (the parser sees nested, parameterised and multi-method routes)', () => {
    expect(routes).toContain('GET /v1/health');
    expect(routes).toContain('GET /v1/rounds/{round_id}/scores');
    expect(routes).toContain('POST /v1/webhooks/{id}/deliveries/{delivery_id}/redeliver');
    expect(routes).toContain('PATCH /v1/webhooks/{id}');
    expect(routes).toContain('POST /v1/admin/validators/{hotkey}/restore');
    expect(routes).toContain('GET /v1/validators/threat-intel/{sha256}');
    expect(routes).not.toContain('HEAD /v1/health');
    expect(routes.length).toBeGreaterThan(80);
  });

  it('lists each route in docs/api.md', () => {
    const spans = codeSpans('api.md');
    // The public read table names paths only (all GET); every other list names method and path.
    const missing = routes.filter((route) => !spans.has(route) && !(route.startsWith('GET ') && spans.has(route.slice(4))));
    expect(missing, 'routes docs/api.md does not list').toEqual([]);
  });

  for (const [doc, heading] of [
    ['cli.md', 'Endpoint → command'],
    ['client.md', 'Endpoint → method'],
  ] as const) {
    it(`has exactly one row per route in docs/${doc}, "${heading}", each naming what serves it or why nothing does`, () => {
      const rows = endpointTable(doc, heading);
      const listed = rows.map((row) => row.endpoint);
      expect(listed.filter((endpoint, i) => listed.indexOf(endpoint) !== i), 'rows listed twice').toEqual([]);
      expect(routes.filter((route) => !listed.includes(route)), `routes docs/${doc} does not list`).toEqual([]);
      expect(listed.filter((endpoint) => !routes.includes(endpoint)), `rows of docs/${doc} the server does not serve`).toEqual([]);
      for (const row of rows) {
        if (row.code === null) expect(row.cell, row.endpoint).toMatch(/^none[^:]*: \S/);
        else expect(row.code, row.endpoint).toMatch(doc === 'cli.md' ? /^vigil [a-z]/ : /^(vigil|signed)\.[a-zA-Z.]+\(/);
      }
    });
  }
});
