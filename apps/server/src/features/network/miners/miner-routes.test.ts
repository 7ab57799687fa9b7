import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { SignedVigilClient, VigilApiError, keypairFromSeed } from '@vigil/client';
import {
  AGENT_BUNDLE_FORMAT,
  AGENT_BUNDLE_LIMITS,
  MinerAgent,
  MinerRegistration,
  canonicalBytes,
  canonicalHash,
} from '@vigil/core';
import { signRequest, signedRequestHeaders } from '@vigil/crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rawRequest } from '../../../../test/harness.js';
import type { BlobStore } from '../../../platform/blobs/index.js';
import { bundleBodyLimit, loadBundle } from './bundles/index.js';
import { startNetworkApp, type NetworkApp } from '../../../test-support/network-app.js';

/** Decoded-content budget of this server: small, so the limits are cheap to reach. */
const BUNDLE_LIMIT = 4096;

const MINER = keypairFromSeed('11'.repeat(32));
const OTHER = keypairFromSeed('22'.repeat(32));
const LATECOMER = keypairFromSeed('33'.repeat(32));

const b64 = (text: string) => Buffer.from(text, 'utf8').toString('base64');

/** As a miner's tooling would write it: files in any order, the default mode left out. */
const BUNDLE = {
  format: AGENT_BUNDLE_FORMAT,
  entrypoint: 'agent.py',
  files: [
    { path: 'lib/rules.py', content_base64: b64('RULES = ["eval(", "curl | sh"]\n') },
    { path: 'agent.py', content_base64: b64('from lib.rules import RULES\n'), mode: '0755' },
  ],
};

/** What the server hashes and stores for BUNDLE (docs/protocol.md, "Agent bundle format"). */
const NORMALIZED = {
  format: AGENT_BUNDLE_FORMAT,
  entrypoint: 'agent.py',
  files: [
    { path: 'agent.py', mode: '0755', content_base64: b64('from lib.rules import RULES\n') },
    { path: 'lib/rules.py', mode: '0644', content_base64: b64('RULES = ["eval(", "curl | sh"]\n') },
  ],
};

let server: NetworkApp;
let dir: string;
let blobs: BlobStore;
let baseUrl: string;
let port: number;

/** The status of every response a client received, so 200 and 201 can be told apart. */
const statuses: number[] = [];

/** A miner's client. Its clock moves at least a second per request: two identical signed requests in one second would be one signature, used twice. */
function clientFor(keypair: ReturnType<typeof keypairFromSeed>): SignedVigilClient {
  let last = 0;
  return new SignedVigilClient({
    baseUrl,
    keypair,
    now: () => {
      last = Math.max(Date.now(), last + 1000);
      return last;
    },
    fetch: async (input, init) => {
      const response = await fetch(input, init);
      statuses.push(response.status);
      return response;
    },
  });
}

let miner: SignedVigilClient;
let other: SignedVigilClient;
let latecomer: SignedVigilClient;

beforeAll(async () => {
  server = await startNetworkApp({
    snapshot: { netuid: 76, block: 1, taken_at: '2026-01-01T00:00:00.000+00:00', neurons: [] },
    bundleLimitBytes: BUNDLE_LIMIT,
  });
  ({ dir, blobs, baseUrl } = server);
  port = Number(new URL(baseUrl).port);
  miner = clientFor(MINER);
  other = clientFor(OTHER);
  latecomer = clientFor(LATECOMER);
});

afterAll(async () => {
  await server?.close();
});

/** The refusal a signed call ended with. */
async function refusal(call: Promise<unknown>): Promise<VigilApiError> {
  const error = await call.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  if (!(error instanceof VigilApiError)) throw new Error(`expected a VigilApiError, got ${String(error)}`);
  return error;
}

/** A submission on another track by another miner, so the main story's versions stay put. */
async function latecomerOnPackages(bundle: unknown) {
  await latecomer.request('POST', '/v1/miners/registrations', { track: 'packages' });
  return latecomer.request('POST', '/v1/miners/agents', { track: 'packages', name: 'full', provider: 'local', bundle }, { schema: MinerAgent });
}

function submission(overrides: Record<string, unknown> = {}) {
  return { track: 'skills', name: 'sentinel', provider: 'openai', bundle: BUNDLE, ...overrides };
}

async function blobCount(): Promise<number> {
  const root = join(dir, 'blobs', 'sha256');
  const shards = await readdir(root).catch(() => [] as string[]);
  let count = 0;
  for (const shard of shards) count += (await readdir(join(root, shard))).length;
  return count;
}

describe('miner endpoints over HTTP', () => {
  it('refuses an unsigned request with 401 missing request signature', async () => {
    const body = JSON.stringify({ track: 'skills' });
    const response = await fetch(`${baseUrl}/v1/miners/registrations`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)) },
      body,
    });
    expect(response.status).toBe(401);
    expect(await response.json()).toEqual({ detail: 'missing request signature', code: 'missing_signature' });
  });

  it('refuses a submission from a hotkey not registered on the track with 403, storing nothing', async () => {
    const error = await refusal(latecomer.request('POST', '/v1/miners/agents', submission()));
    expect(error.status).toBe(403);
    expect(error.detail).toBe(`hotkey: ${LATECOMER.hotkey} is not registered on track skills`);
    expect(await blobCount()).toBe(0);
  });

  it('registers the signing hotkey on a track: 201, then 200 with the same record', async () => {
    const first = await miner.request('POST', '/v1/miners/registrations', { track: 'skills' }, { schema: MinerRegistration });
    expect(statuses.at(-1)).toBe(201);
    expect(first).toMatchObject({ hotkey: MINER.hotkey, track: 'skills', status: 'registered' });
    expect(Math.abs(Date.parse(first.registered_at) - Date.now())).toBeLessThan(60_000);
    const again = await miner.request('POST', '/v1/miners/registrations', { track: 'skills' }, { schema: MinerRegistration });
    expect(statuses.at(-1)).toBe(200);
    expect(again).toEqual(first);
  });

  it('refuses an unknown track, naming the field', async () => {
    const error = await refusal(miner.request('POST', '/v1/miners/registrations', { track: 'nope' }));
    expect(error.status).toBe(422);
    expect(error.detail).toBe('Validation error');
    expect(error.body?.errors?.map((issue) => issue.path)).toEqual(['body.track']);
    const byPath = await refusal(miner.request('GET', '/v1/miners/agents/nope'));
    expect(byPath.status).toBe(422);
    expect(byPath.body?.errors?.map((issue) => issue.path)).toEqual(['params.track']);
  });

  it('has no agent before the first submission', async () => {
    const error = await refusal(miner.request('GET', '/v1/miners/agents/skills'));
    expect(error.status).toBe(404);
    expect(error.detail).toBe('agent not found');
  });

  let firstHash = '';

  it('accepts a bundle: 201, version 1, the hash of the normalized bundle, stored byte for byte', async () => {
    const agent = await miner.request('POST', '/v1/miners/agents', submission(), { schema: MinerAgent });
    expect(statuses.at(-1)).toBe(201);
    expect(agent).toMatchObject({
      hotkey: MINER.hotkey,
      track: 'skills',
      name: 'sentinel',
      provider: 'openai',
      version: 1,
      status: 'active',
    });
    expect(agent.agent_hash).toBe(canonicalHash(NORMALIZED));
    firstHash = agent.agent_hash;

    expect(await blobs.get(agent.agent_hash)).toEqual(canonicalBytes(NORMALIZED));
    const loaded = await loadBundle(blobs, agent.agent_hash);
    expect(loaded?.files.map((file) => [file.path, file.mode, Buffer.from(file.content).toString('utf8')])).toEqual([
      ['agent.py', '0755', 'from lib.rules import RULES\n'],
      ['lib/rules.py', '0644', 'RULES = ["eval(", "curl | sh"]\n'],
    ]);

    expect(await miner.request('GET', '/v1/miners/agents/skills', undefined, { schema: MinerAgent })).toEqual(agent);
  });

  it('answers a repeat of the current submission with 200 and the same version', async () => {
    const reordered = { ...BUNDLE, files: [...BUNDLE.files].reverse() };
    const again = await miner.request('POST', '/v1/miners/agents', submission({ bundle: reordered }), { schema: MinerAgent });
    expect(statuses.at(-1)).toBe(200);
    expect(again).toMatchObject({ version: 1, agent_hash: firstHash });
  });

  it('gives every changed submission the next version', async () => {
    const changed = {
      ...BUNDLE,
      files: [...BUNDLE.files, { path: 'lib/__init__.py', content_base64: '' }],
    };
    const second = await miner.request('POST', '/v1/miners/agents', submission({ bundle: changed }), { schema: MinerAgent });
    expect(statuses.at(-1)).toBe(201);
    expect(second.version).toBe(2);
    expect(second.agent_hash).not.toBe(firstHash);
    // Same code as version 2 under a new name is a new version too (the name is part of what was submitted).
    const renamed = await miner.request('POST', '/v1/miners/agents', submission({ bundle: changed, name: 'sentinel-2' }), {
      schema: MinerAgent,
    });
    expect(statuses.at(-1)).toBe(201);
    expect(renamed).toMatchObject({ version: 3, agent_hash: second.agent_hash, name: 'sentinel-2' });
  });

  const file = (overrides: Record<string, unknown>) => ({ path: 'agent.py', content_base64: b64('x = 1\n'), ...overrides });
  const refusals: Array<[string, Record<string, unknown>, string]> = [
    ['an unknown format', { bundle: { ...BUNDLE, format: 'zip' } }, 'body.bundle.format'],
    ['an absolute path', { bundle: { ...BUNDLE, files: [file({ path: '/agent.py' })], entrypoint: '/agent.py' } }, 'body.bundle.files.0.path'],
    ['a ".." segment', { bundle: { ...BUNDLE, files: [...BUNDLE.files, file({ path: 'lib/../../x.py' })] } }, 'body.bundle.files.2.path'],
    ['a backslash path', { bundle: { ...BUNDLE, files: [...BUNDLE.files, file({ path: 'lib\\x.py' })] } }, 'body.bundle.files.2.path'],
    ['paths equal but for case', { bundle: { ...BUNDLE, files: [...BUNDLE.files, file({ path: 'Agent.PY' })] } }, 'body.bundle.files.2.path'],
    ['an entrypoint that is not a file', { bundle: { ...BUNDLE, entrypoint: 'main.py' } }, 'body.bundle.entrypoint'],
    ['invalid base64', { bundle: { ...BUNDLE, files: [file({ content_base64: 'not base64!' })] } }, 'body.bundle.files.0.content_base64'],
    ['an unknown mode', { bundle: { ...BUNDLE, files: [file({ mode: '0777' })] } }, 'body.bundle.files.0.mode'],
    ['no files', { bundle: { ...BUNDLE, files: [] } }, 'body.bundle.files'],
    [
      'too many files',
      {
        bundle: {
          ...BUNDLE,
          files: [...BUNDLE.files, ...Array.from({ length: AGENT_BUNDLE_LIMITS.maxFiles }, (_, i) => file({ path: `f/${i}.py`, content_base64: '' }))],
        },
      },
      'body.bundle.files',
    ],
    [
      'decoded content over the budget',
      { bundle: { ...BUNDLE, files: [...BUNDLE.files, file({ path: 'big.bin', content_base64: Buffer.alloc(BUNDLE_LIMIT).toString('base64') })] } },
      'body.bundle.files',
    ],
    ['an unknown key in the bundle', { bundle: { ...BUNDLE, signature: 'x' } }, 'body.bundle'],
    ['no bundle', { bundle: undefined }, 'body.bundle'],
    ['a blank name', { name: ' ' }, 'body.name'],
    ['an empty provider', { provider: '' }, 'body.provider'],
  ];

  it.each(refusals)('refuses %s with 422 naming the field', async (_case, overrides, field) => {
    const before = await blobCount();
    const error = await refusal(miner.request('POST', '/v1/miners/agents', submission(overrides)));
    expect(error.status).toBe(422);
    expect(error.detail).toBe('Validation error');
    expect(error.body?.errors?.map((issue) => issue.path)).toContain(field);
    expect(await blobCount()).toBe(before);
    expect((await miner.request('GET', '/v1/miners/agents/skills', undefined, { schema: MinerAgent })).version).toBe(3);
  });

  it('accepts decoded content of exactly the budget', async () => {
    const budget = BUNDLE_LIMIT - BUNDLE.files.reduce((sum, item) => sum + Buffer.from(item.content_base64, 'base64').length, 0);
    const full = { ...BUNDLE, files: [...BUNDLE.files, file({ path: 'data.bin', content_base64: Buffer.alloc(budget, 1).toString('base64') })] };
    const agent = await latecomerOnPackages(full);
    expect(statuses.at(-1)).toBe(201);
    expect((await loadBundle(blobs, agent.agent_hash))?.files.reduce((sum, item) => sum + item.content.length, 0)).toBe(BUNDLE_LIMIT);
  });

  it('refuses a declared body beyond the route limit with 413 before reading it', async () => {
    const limit = bundleBodyLimit(BUNDLE_LIMIT);
    const path = '/v1/miners/agents';
    const headers = signedRequestHeaders(
      signRequest({ audience: server.app.serverIdentity.publicKeyHex, method: 'POST', pathWithQuery: path, body: '{}', secretKey: MINER.secretKey, timestamp: Math.floor(Date.now() / 1000) }),
    );
    const response = await rawRequest(
      port,
      `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${limit + 1}\r\n` +
        Object.entries(headers)
          .map(([name, value]) => `${name}: ${value}\r\n`)
          .join('') +
        '\r\n{',
    );
    expect(response.status).toBe(413);
    expect(JSON.parse(response.body)).toEqual({ detail: 'Body too large', code: 'body_too_large' });
  });

  it('lets another miner neither read nor delete this agent or registration: it acts on its own hotkey', async () => {
    await other.request('POST', '/v1/miners/registrations', { track: 'skills' });
    const read = await refusal(other.request('GET', '/v1/miners/agents/skills'));
    expect([read.status, read.detail]).toEqual([404, 'agent not found']);
    const deleted = await refusal(other.request('DELETE', '/v1/miners/agents/skills'));
    expect([deleted.status, deleted.detail]).toEqual([404, 'agent not found']);
    const deregistered = await refusal(other.request('DELETE', '/v1/miners/registrations/packages'));
    expect([deregistered.status, deregistered.detail]).toEqual([404, `track: ${OTHER.hotkey} has no registration on track packages`]);
    const mine = await miner.request('GET', '/v1/miners/agents/skills', undefined, { schema: MinerAgent });
    expect(mine).toMatchObject({ hotkey: MINER.hotkey, version: 3, status: 'active' });
  });

  it('deletes the agent: 204, then 404 on read and on a second delete; the next submission is a new version', async () => {
    expect(await miner.request('DELETE', '/v1/miners/agents/skills')).toBeUndefined();
    expect(statuses.at(-1)).toBe(204);
    const read = await refusal(miner.request('GET', '/v1/miners/agents/skills'));
    expect([read.status, read.detail]).toEqual([404, 'agent not found']);
    const again = await refusal(miner.request('DELETE', '/v1/miners/agents/skills'));
    expect([again.status, again.detail]).toEqual([404, 'agent not found']);
    // The bundle stays downloadable by hash: past rounds and attestations name it.
    expect(await blobs.has(firstHash)).toBe(true);
    const back = await miner.request('POST', '/v1/miners/agents', submission(), { schema: MinerAgent });
    expect(statuses.at(-1)).toBe(201);
    expect(back).toMatchObject({ version: 4, agent_hash: firstHash });
  });

  it('deletes the registration: 204, then 404 with a clear detail, and submissions are refused with 403', async () => {
    expect(await miner.request('DELETE', '/v1/miners/registrations/skills')).toBeUndefined();
    expect(statuses.at(-1)).toBe(204);
    const again = await refusal(miner.request('DELETE', '/v1/miners/registrations/skills'));
    expect([again.status, again.detail]).toEqual([404, `track: ${MINER.hotkey} has no registration on track skills`]);
    const submitted = await refusal(miner.request('POST', '/v1/miners/agents', submission()));
    expect([submitted.status, submitted.detail]).toEqual([403, `hotkey: ${MINER.hotkey} is not registered on track skills`]);
    const registered = await miner.request('POST', '/v1/miners/registrations', { track: 'skills' }, { schema: MinerRegistration });
    expect(statuses.at(-1)).toBe(201);
    expect(registered.status).toBe('registered');
  });
});
