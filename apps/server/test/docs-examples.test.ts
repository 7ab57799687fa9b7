/**
 * Every request the docs show names a route the server really serves, and the public examples a
 * reader would paste (the curl lines) succeed against a real server. A doc that drifts from the
 * routes fails here.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startNetworkApp, type NetworkApp } from '../src/test-support/network-app.js';

const ROOT = new URL('../../../', import.meta.url).pathname;
const DOCS = [
  ...readdirSync(join(ROOT, 'docs')).filter((f) => f.endsWith('.md')).map((f) => join('docs', f)),
  'README.md',
  ...readdirSync(join(ROOT, 'packages')).map((p) => join('packages', p, 'README.md')),
].filter((f) => {
  try {
    readFileSync(join(ROOT, f));
    return true;
  } catch {
    return false;
  }
});

/** Paths the docs show on purpose as what the server or client refuses, never as routes. */
const ILLUSTRATIONS = new Set(['/v1/admin/*', '/v1/%ZZ', '/v1/a/../b', '/v1/x', '/v1/a', '/v1/b']);

interface Mention {
  file: string;
  method: string;
  path: string;
}

/** `{round_id}`-style placeholders become values the route's parameter can hold. */
function concrete(path: string): string {
  return path
    .replace(/\{round_id\}/g, '3f9a1c0e7b2d4a58')
    .replace(/\{(sha256|agent_hash|artifact\.sha256)\}/g, `sha256:${'ab'.repeat(32)}`)
    .replace(/\{[a-z_.]+\}/g, 'skills')
    .replace(/\?days=N\b.*/, '?days=7');
}

function mentions(): Mention[] {
  const found: Mention[] = [];
  for (const file of DOCS) {
    const text = readFileSync(join(ROOT, file), 'utf8');
    const add = (method: string, raw: string) => {
      const path = raw.replace(/[.,;:>]+$/, '');
      if (!ILLUSTRATIONS.has(path.split('?')[0]!)) found.push({ file, method, path });
    };
    for (const m of text.matchAll(/\b(GET|POST|PUT|PATCH|DELETE|HEAD) (\/v1\/[^\s`"'|)<]*)/g)) add(m[1]!, m[2]!);
    // A path built by concatenation ('/v1/validators/tasks/' + id + …) is only its first part: not a route.
    for (const m of text.matchAll(/request\('(GET|POST|PUT|PATCH|DELETE)', '(\/v1\/[^']*)'(?! \+)/g)) add(m[1]!, m[2]!);
    for (const m of text.matchAll(/curl [^\n]*?localhost:\d+(\/v1\/[^\s'"]*)/g)) add('GET', m[1]!);
    for (const m of text.matchAll(/`(\/v1\/[^`\s]*)`/g)) add('GET-OR-ANY', m[1]!);
    for (const m of text.matchAll(/\$\{baseUrl\}(\/v1\/[^`]*)`/g)) add('GET-OR-ANY', m[1]!);
  }
  return found;
}

describe('requests named in the docs', () => {
  let e: NetworkApp;
  beforeAll(async () => {
    e = await startNetworkApp({
      snapshot: { netuid: 76, block: 1, taken_at: '2026-11-21T00:00:00Z', neurons: [] },
      // The admin API is served only with an allowlist; inject() calls come from 127.0.0.1. Every
      // mention costs up to three requests from one address: more than the default per-minute budget.
      config: { adminAllowlist: ['127.0.0.1'], rateLimitPerMinute: 10_000 },
    });
  });
  afterAll(async () => e?.close());

  const found = mentions();

  it('finds the requests of the docs (the extraction itself works)', () => {
    expect(found.length).toBeGreaterThan(40);
    expect(found.some((m) => m.file === 'docs/protocol.md' && m.path === '/v1/validators/tasks/claim')).toBe(true);
    expect(found.some((m) => m.file === 'README.md' && m.path.startsWith('/v1/leaderboard'))).toBe(true);
  });

  it('every one names a route the server serves', async () => {
    const unserved: string[] = [];
    for (const mention of found) {
      const url = concrete(mention.path);
      const methods = mention.method === 'GET-OR-ANY' ? ['GET', 'POST', 'DELETE'] : [mention.method];
      let served = false;
      for (const method of methods) {
        const response = await e.app.inject({ method: method as 'GET', url, ...(method === 'GET' || method === 'DELETE' ? {} : { payload: {} }) });
        // The router's own answers: no such path (404 `not found`) or not with this method (405).
        const body = response.body.startsWith('{') ? (response.json() as { detail?: string }) : {};
        if (!(response.statusCode === 404 && body.detail === 'not found') && response.statusCode !== 405) served = true;
      }
      if (!served) unserved.push(`${mention.file}: ${mention.method} ${mention.path}`);
    }
    expect(unserved).toEqual([]);
  });

  it('the curl examples of the README and docs answer 200 on a real server', async () => {
    const curls = found.filter((m) => m.method === 'GET' && DOCS.some((f) => f === m.file) && m.path.startsWith('/v1/'));
    for (const file of DOCS) {
      const text = readFileSync(join(ROOT, file), 'utf8');
      for (const m of text.matchAll(/curl [^\n]*?localhost:\d+(\/v1\/[^\s'"]*)/g)) {
        const response = await fetch(`${e.baseUrl}${m[1]}`);
        expect(response.status, `${file}: curl ${m[1]}`).toBe(200);
      }
    }
    expect(curls.length).toBeGreaterThan(0);
  });
});
