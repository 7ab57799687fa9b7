import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { codeSpans, endpointTable } from '../../../test-support/endpoint-tables.js';
import { startNetworkApp, type NetworkApp } from '../src/test-support/network-app.js';
import { servedRoutes } from './served-routes.js';

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
