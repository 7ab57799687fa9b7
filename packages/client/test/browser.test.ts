import { existsSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serverBuilt, startVigilServer, type VigilServer } from './support/vigil-server.js';

// The built SDK in a real browser: Debian's chromium (driven by playwright-core) loads a page from
// one origin that calls a real Vigil on another, allowed by VIGIL_CORS_ORIGINS. The bundle is made
// from dist/ through package.json `exports` with browser conditions, as a web app's bundler would.

// VIGIL_CHROMIUM as the dashboard's browser tests and .ci/run name it (CHROMIUM_PATH still read).
const CHROMIUM = process.env.VIGIL_CHROMIUM?.trim() || process.env.CHROMIUM_PATH?.trim() || '/usr/bin/chromium';
// With VIGIL_REQUIRE_BROWSER (or, unset, CI) true a missing browser fails the test instead of skipping it.
const required = (process.env.VIGIL_REQUIRE_BROWSER?.trim() || process.env.CI?.trim()) === 'true';
const haveChromium = existsSync(CHROMIUM) || required;
if (!haveChromium) console.warn(`SKIPPED: @vigil/client browser test (no chromium at ${CHROMIUM}; apt-get install chromium, or set VIGIL_CHROMIUM)`);

const PACKAGE_DIR = fileURLToPath(new URL('..', import.meta.url));

let page: Server;
let origin: string;
let server: VigilServer;
let browser: Browser;

beforeAll(async () => {
  const bundle = await build({
    stdin: { contents: "export * from '@vigil/client';", resolveDir: PACKAGE_DIR, loader: 'js' },
    bundle: true,
    platform: 'browser',
    format: 'esm',
    target: 'es2022',
    write: false,
    logLevel: 'silent',
    tsconfigRaw: {},
  });
  const script = bundle.outputFiles[0]!.contents;
  page = createServer((req, res) => {
    if (req.url === '/vigil.js') {
      res.writeHead(200, { 'content-type': 'text/javascript' });
      return res.end(script);
    }
    res.writeHead(200, { 'content-type': 'text/html' });
    res.end('<!doctype html><title>sdk</title><script type="module">import * as sdk from "/vigil.js"; window.sdk = sdk; window.ready = true;</script>');
  });
  await new Promise<void>((resolve) => page.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(page.address() as AddressInfo).port}`;
  server = await startVigilServer({ corsOrigins: [origin], demo: false });
  browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
}, 660_000);

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await new Promise<void>((resolve) => (page ? page.close(() => resolve()) : resolve()));
});

describe.skipIf(!haveChromium || !serverBuilt)('the SDK in a browser (chromium)', () => {
  it('calls a real server across origins: reads, a change with Idempotency-Key, an upload from a Blob, typed errors, Dates', async () => {
    const tab = await browser.newPage();
    await tab.goto(`${origin}/`);
    await tab.waitForFunction(() => (window as unknown as { ready?: boolean }).ready === true);
    const outcome = await tab.evaluate(
      async ({ baseUrl, apiKey }) => {
        const { Vigil, VigilNotFoundError } = (window as unknown as { sdk: typeof import('../src/index.js') }).sdk;
        const vigil = new Vigil({ baseUrl, apiKey });
        const health = await vigil.network.health();
        const self = await vigil.account.get();
        const policy = await vigil.policies.create({
          name: 'browser-gate',
          rules: [{ name: 'vigil-block', expression: 'artifact.verdict != "BLOCK"', action: 'block' }],
        });
        const listed = await vigil.policies.list({ pageSize: 10 });
        const artifact = await vigil.artifacts.upload({
          track: 'packages',
          package: 'pkg:npm/browser-upload@1.0.0',
          file: new Blob([new TextEncoder().encode('bytes from a browser')]),
        });
        const status = await vigil.rounds.status();
        let notFound: { name: string; status: number | null; detail: string; requestId: string | null; typed: boolean } | null = null;
        try {
          await vigil.rounds.scores('0123456789abcdef');
        } catch (error) {
          const e = error as InstanceType<typeof VigilNotFoundError>;
          notFound = { name: e.name, status: e.status, detail: e.detail, requestId: e.requestId, typed: e instanceof VigilNotFoundError };
        }
        return {
          health: health.status,
          account: self.account.name,
          createdIsDate: self.account.created_at instanceof Date,
          policyVersion: policy.version,
          listed: listed.items.map((p) => p.name),
          artifactId: artifact.id,
          artifactSize: artifact.size,
          serverTimeIsDate: status.server_time instanceof Date,
          notFound,
          userAgent: navigator.userAgent,
        };
      },
      { baseUrl: server.baseUrl, apiKey: server.paidKey },
    );
    expect(outcome.userAgent).toMatch(/Chrome/);
    expect(outcome).toMatchObject({
      health: 'ok',
      account: 'acme',
      createdIsDate: true,
      policyVersion: 1,
      listed: ['browser-gate'],
      serverTimeIsDate: true,
      notFound: { name: 'VigilNotFoundError', status: 404, detail: 'round not found', typed: true },
    });
    expect(outcome.artifactId).toMatch(/^art_\d+$/);
    expect(outcome.artifactSize).toBe('bytes from a browser'.length);
    // x-request-id is exposed to scripts by the server's CORS answer.
    expect(outcome.notFound?.requestId).toMatch(/^[0-9a-f-]{36}$/);
    await tab.close();
  });
});
