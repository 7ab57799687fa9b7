import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { DASHBOARD_ROUTES, dashboardDistDir } from '@vigil/dashboard';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { dashboardPlugin } from '../src/features/dashboard/dashboard-plugin.js';
import { errorsPlugin } from '../src/platform/http/plugins/errors.js';
import { startServer, type TestServer } from './harness.js';

// What a browser (and a cache in front of the server) sees at `/`: the page under its policy, hashed
// assets cached for a year, the SPA fallback on the dashboard's own routes only, and the API's JSON
// 404 everywhere else.

const INDEX = `<!doctype html><html><head><meta name="vigil-api-url" content="" /><script type="module" crossorigin src="/assets/index-abc123.js"></script></head><body><div id="app"></div></body></html>`;
const SCRIPT = 'console.log("dashboard")'.repeat(40);

let dist: string;
beforeAll(() => {
  dist = mkdtempSync(join(tmpdir(), 'vigil-dashboard-dist-'));
  mkdirSync(join(dist, 'assets'));
  writeFileSync(join(dist, 'index.html'), INDEX);
  writeFileSync(join(dist, 'assets', 'index-abc123.js'), SCRIPT);
  writeFileSync(join(dist, 'assets', 'index-abc123.js.gz'), gzipSync(SCRIPT));
  writeFileSync(join(dist, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
});
afterAll(() => rmSync(dist, { recursive: true, force: true }));

const apps: FastifyInstance[] = [];
afterEach(async () => {
  await Promise.all(apps.splice(0).map((app) => app.close()));
});

async function appWith(options: { apiUrl?: string; distDir: string }): Promise<FastifyInstance> {
  const app = Fastify({ logger: false });
  apps.push(app);
  await app.register(errorsPlugin);
  await app.register(dashboardPlugin, { settings: { enabled: true, apiUrl: options.apiUrl }, distDir: options.distDir });
  await app.ready();
  return app;
}

describe('the dashboard plugin', () => {
  it('serves index.html at every dashboard route with a strict CSP, revalidated on every load', async () => {
    const app = await appWith({ distDir: dist });
    for (const url of ['/', '/threats?days=7', '/rounds', '/rounds/5f2c9a1e', '/rounds/5f2c9a1e/miners/5GrwvaEF5zXb26Fz9rcQpDWS57CtERHpNehXCPcNoHGKutQY', '/leaderboard', '/agents', '/agents/5Grw', '/verify', '/artifacts?purl=npm%3Aleft-pad%401.3.0']) {
      const response = await app.inject({ method: 'GET', url });
      expect(response.statusCode, url).toBe(200);
      expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(response.headers['cache-control']).toBe('no-cache');
      expect(response.headers['x-content-type-options']).toBe('nosniff');
      expect(response.body).toBe(INDEX);
      const csp = String(response.headers['content-security-policy']);
      expect(csp).toContain("default-src 'none'");
      expect(csp).toContain("script-src 'self';");
      expect(csp).toContain("connect-src 'self';");
      expect(csp).toContain("frame-ancestors 'none'");
      expect(csp).not.toContain('unsafe-inline');
      expect(csp).not.toContain('unsafe-eval');
    }
  });

  it('serves hashed assets as immutable for a year, gzipped for a browser that accepts it', async () => {
    const app = await appWith({ distDir: dist });
    const plain = await app.inject({ method: 'GET', url: '/assets/index-abc123.js' });
    expect(plain.statusCode).toBe(200);
    expect(plain.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(plain.headers['content-type']).toMatch(/^(text|application)\/javascript/);
    expect(plain.body).toBe(SCRIPT);
    const gzipped = await app.inject({ method: 'GET', url: '/assets/index-abc123.js', headers: { 'accept-encoding': 'gzip' } });
    expect(gzipped.headers['content-encoding']).toBe('gzip');
    expect(gzipped.rawPayload.byteLength).toBeLessThan(SCRIPT.length);
    const icon = await app.inject({ method: 'GET', url: '/favicon.svg' });
    expect(icon.headers['cache-control']).toBe('public, max-age=3600');
  });

  it('answers anything else with the API 404, never with the page', async () => {
    const app = await appWith({ distDir: dist });
    for (const url of ['/v1/nothing', '/health', '/index.html', '/assets/missing.js', '/assets/index-abc123.js.gz', '/rounds/5f2c9a1e/extra/x', '/unknown']) {
      const response = await app.inject({ method: 'GET', url });
      expect(response.statusCode, url).toBe(404);
      expect(response.json(), url).toEqual({ detail: 'not found', code: 'route_not_found' });
    }
  });

  it('writes VIGIL_DASHBOARD_API_URL into the page and allows its origin in connect-src', async () => {
    const app = await appWith({ distDir: dist, apiUrl: 'https://api.vigil.example/base' });
    const response = await app.inject({ method: 'GET', url: '/' });
    expect(response.body).toContain('<meta name="vigil-api-url" content="https://api.vigil.example/base" />');
    expect(response.headers['content-security-policy']).toContain("connect-src 'self' https://api.vigil.example;");
  });

  it('without a build, the dashboard routes answer 503 saying how to build it, and the API is unaffected', async () => {
    const empty = mkdtempSync(join(tmpdir(), 'vigil-dashboard-none-'));
    try {
      const app = await appWith({ distDir: empty });
      const response = await app.inject({ method: 'GET', url: '/' });
      expect(response.statusCode).toBe(503);
      expect(response.body).toContain('The Vigil dashboard has not been built');
      expect(response.body).toContain('VIGIL_DASHBOARD=false');
      expect((await app.inject({ method: 'GET', url: '/v1/nothing' })).json()).toEqual({ detail: 'not found', code: 'route_not_found' });
    } finally {
      rmSync(empty, { recursive: true, force: true });
    }
  });

  it('every route of the dashboard package is a route of the server (the SPA fallback list)', () => {
    expect(DASHBOARD_ROUTES).toContain('/');
    expect(DASHBOARD_ROUTES.every((route) => route.startsWith('/') && !route.startsWith('/v1'))).toBe(true);
  });
});

describe('the dashboard in the whole server', () => {
  let enabled: TestServer;
  let disabled: TestServer;
  beforeAll(async () => {
    enabled = await startServer();
    disabled = await startServer({ config: { dashboard: { enabled: false, apiUrl: undefined } } });
  });
  afterAll(async () => {
    await enabled.close();
    await disabled.close();
  });

  it('the built dashboard is at /: its script loads from the server, with no inline script', async () => {
    const page = await fetch(`${enabled.url}/`);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toBe(readFileSync(join(dashboardDistDir, 'index.html'), 'utf8'));
    const scripts = [...html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)];
    expect(scripts.length).toBeGreaterThan(0);
    for (const [, attributes, body] of scripts) {
      expect(attributes).toMatch(/\bsrc="\/assets\/[^"]+\.js"/);
      expect(body).toBe('');
    }
    const src = /src="(\/assets\/[^"]+\.js)"/.exec(html)![1]!;
    const script = await fetch(`${enabled.url}${src}`);
    expect(script.status).toBe(200);
    expect(script.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    // Read to the end: an unread body of this size holds the connection open, and close() then
    // waits for it (the afterAll hook timed out on CI).
    expect((await script.arrayBuffer()).byteLength).toBeGreaterThan(0);
    expect((await fetch(`${enabled.url}/v1/nothing`)).status).toBe(404);
  });

  it('VIGIL_DASHBOARD=false: / is the API 404 and the API still answers', async () => {
    const page = await fetch(`${disabled.url}/`);
    expect(page.status).toBe(404);
    expect(await page.json()).toEqual({ detail: 'not found', code: 'route_not_found' });
    expect((await fetch(`${disabled.url}/v1/health`)).status).toBe(200);
  });
});
