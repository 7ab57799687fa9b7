import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ERROR_CATALOGUE } from '@vigil/core';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.js';
import { openDatabase } from '../src/platform/db/database.js';
import { buildApp } from '../src/app.js';
import { createRuntime } from '../src/runtime.js';
import { startNetworkApp } from '../src/test-support/network-app.js';
import { startServer } from './harness.js';
import { servedRoutes } from './served-routes.js';

/** An error response's body schema, as @fastify/swagger writes it under its media type. */
function errorSchemaOf(response: unknown): { properties: Record<string, unknown> } {
  const { content } = response as { content: Record<string, { schema: { properties: Record<string, unknown> } }> };
  return content['application/json']!.schema;
}

const PUBLIC_PATHS = [
  '/v1/health',
  '/v1/server-identity',
  '/v1/dashboard/network',
  '/v1/threats/trends',
  '/v1/rounds/status',
  '/v1/rounds',
  '/v1/rounds/{round_id}/scores',
  '/v1/rounds/{round_id}/attestations',
  '/v1/leaderboard',
  '/v1/agents',
  '/v1/agents/{hotkey}',
];

describe('debug docs', () => {
  it('are absent unless VIGIL_DEBUG', async () => {
    const server = await startServer();
    try {
      for (const path of ['/openapi.json', '/docs', '/redoc']) {
        const response = await fetch(server.url + path);
        expect(response.status).toBe(404);
        expect(await response.json()).toEqual({ detail: 'not found', code: 'route_not_found' });
      }
    } finally {
      await server.close();
    }
  });

  it('serve /openapi.json generated from the core schemas, /docs and /redoc in debug mode', async () => {
    const server = await startServer({ config: { debug: true } });
    try {
      const response = await fetch(`${server.url}/openapi.json`);
      expect(response.status).toBe(200);
      const document = (await response.json()) as {
        openapi: string;
        paths: Record<string, { get: { parameters: { name: string; in: string }[]; responses: Record<string, unknown> } }>;
      };
      expect(document.openapi).toMatch(/^3\.0\./);
      // Every public read is documented (the next test compares the whole document with the routes served).
      expect(Object.keys(document.paths)).toEqual(expect.arrayContaining(PUBLIC_PATHS));
      const trends = document.paths['/v1/threats/trends']?.get;
      expect(trends?.parameters).toEqual([expect.objectContaining({ name: 'days', in: 'query' })]);
      const dashboard = JSON.stringify(document.paths['/v1/dashboard/network']?.get.responses['200']);
      for (const field of ['last_update', 'throughput', 'track_mix', 'reruns_24h']) expect(dashboard).toContain(field);

      const docs = await fetch(`${server.url}/docs`);
      expect(docs.status).toBe(200);
      expect(await docs.text()).toContain('<html');
      const redoc = await fetch(`${server.url}/redoc`);
      expect(redoc.status).toBe(200);
      expect(await redoc.text()).toContain('spec-url="/openapi.json"');
    } finally {
      await server.close();
    }
  });

  it('describe every served route, signed ones included, from the route schemas', async () => {
    const served: string[] = [];
    const e = await startNetworkApp({
      snapshot: { netuid: 76, block: 1, taken_at: '2026-11-21T00:00:00Z', neurons: [] },
      config: { debug: true },
    });
    try {
      type Operation = {
        parameters?: { name: string; in: string; required?: boolean; schema: Record<string, unknown> }[];
        requestBody?: unknown;
        responses: Record<string, { description?: string }>;
        security?: unknown[];
      };
      const document = (await (await fetch(`${e.baseUrl}/openapi.json`)).json()) as {
        paths: Record<string, Record<string, Operation>>;
        components: { securitySchemes: Record<string, { name: string }> };
      };
      // What the router serves, read from its route tree (served-routes.ts); a wildcard route
      // (`/v1/log/tile/*`) is `{*}` in OpenAPI.
      served.push(...servedRoutes(e.app).map((route) => route.replace(/\/\*$/, '/{*}')));
      const documented = Object.entries(document.paths).flatMap(([path, ops]) => Object.keys(ops).map((m) => `${m.toUpperCase()} ${path}`));
      expect(served.length).toBeGreaterThan(20);
      expect(documented.sort()).toEqual([...new Set(served)].sort());

      // Query integers are integers with their bounds, not bare strings.
      const days = document.paths['/v1/threats/trends']!.get!.parameters!.find((p) => p.name === 'days')!;
      expect(days.schema).toMatchObject({ type: 'integer', minimum: 1, maximum: 180 });
      expect(days.required).toBe(false);

      // A signed route names its three headers and the refusals of the signature check.
      const claim = document.paths['/v1/validators/tasks/claim']!.post!;
      expect(claim.security).toEqual([{ hotkey: [], timestamp: [], signature: [] }]);
      expect(Object.values(document.components.securitySchemes).map((s) => s.name).sort()).toEqual(
        ['X-Vigil-Hotkey', 'X-Vigil-Request-Signature', 'X-Vigil-Signed-At'].sort(),
      );
      expect(claim.responses['401']?.description).toContain('`invalid request signature`');
      expect(claim.requestBody).toBeDefined();

      // A malformed hotkey is 404 (spec rule 2), a bad query 422: both documented, the public route unsigned.
      const eligibility = document.paths['/v1/agents/{hotkey}']!.get!;
      expect(Object.keys(eligibility.responses)).toEqual(expect.arrayContaining(['200', '404', '422', '429', '500']));
      expect(eligibility.security).toBeUndefined();
      // The round attestations endpoint answers any round id or miner with the empty shell (spec rule 3): no 422.
      const shell = document.paths['/v1/rounds/{round_id}/attestations']!.get!;
      expect(Object.keys(shell.responses)).toContain('200');
      expect(Object.keys(shell.responses)).not.toContain('422');

      // Every error response's `code` is one of the catalogue's codes, all of them listed (docs/errors.md).
      const errorCodes = Object.values(document.paths).flatMap((ops) =>
        Object.values(ops).flatMap((op) =>
          Object.entries(op.responses)
            .filter(([status]) => Number(status) >= 400)
            .map(([, response]) => JSON.stringify(errorSchemaOf(response).properties.code)),
        ),
      );
      expect(errorCodes.length).toBeGreaterThan(50);
      const catalogue = JSON.stringify({ type: 'string', enum: Object.keys(ERROR_CATALOGUE) });
      expect(new Set(errorCodes)).toEqual(new Set([catalogue]));
    } finally {
      await e.close();
    }
  });

  it('buildApp refuses debug mode in production even when the config was built by hand', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'vigil-debug-'));
    const database = await openDatabase({ url: ':memory:' });
    try {
      const config = { ...loadConfig({ LOG_LEVEL: 'silent' }, dataDir), dataDir, debug: true, production: true };
      const runtime = await createRuntime(config, { database });
      try {
        await expect(buildApp(runtime).then((app) => app.ready())).rejects.toThrow(/refused when NODE_ENV=production/);
      } finally {
        await runtime.close();
      }
    } finally {
      await database.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
