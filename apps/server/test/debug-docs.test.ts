import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.js';
import { openDatabase } from '../src/db/database.js';
import { buildApp } from '../src/http/app.js';
import { createPublicReadService } from '../src/services/public-read-service.js';
import { startServer } from './harness.js';

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
        expect(await response.json()).toEqual({ detail: 'not found' });
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
      expect(Object.keys(document.paths).sort()).toEqual([...PUBLIC_PATHS].sort());
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

  it('buildApp refuses debug mode in production even when the config was built by hand', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'vigil-debug-'));
    const database = await openDatabase({ url: ':memory:' });
    try {
      const config = { ...loadConfig({ LOG_LEVEL: 'silent' }, dataDir), dataDir, debug: true, production: true };
      await expect(
        buildApp({ config, readService: createPublicReadService(database.db) }).then((app) => app.ready()),
      ).rejects.toThrow(/refused when NODE_ENV=production/);
    } finally {
      await database.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
