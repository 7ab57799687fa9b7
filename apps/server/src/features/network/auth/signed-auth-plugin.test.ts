import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HEADERS, type MetagraphSnapshot } from '@vigil/core';
import { generateSecretKey, getPublicKey, secretKeyFromHex, signRequest, signedRequestHeaders, ss58Encode } from '@vigil/crypto';
import Fastify, { type FastifyInstance, type InjectOptions, type LightMyRequestResponse } from 'fastify';
import type { Kysely } from 'kysely';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../../platform/db/schema.js';
import { errorsPlugin } from '../../../platform/http/plugins/errors.js';
import { CachedMetagraph, FileMetagraphSource } from '../metagraph/index.js';
import { findValidator, registerValidator, setValidatorStatus } from '../validators/validators.js';
import { describeEachDialect } from '../../../test-support/databases.js';
import { createDatabaseReplayStore } from './replay-store.js';
import { signedAuthPlugin, type SignedAuthPluginOptions } from './signed-auth-plugin.js';
import { createMemorySignatureFailureStore, SIGNATURE_FAILURE_WINDOW_MS } from './signature-failure-store.js';

function keyPair() {
  const secretKey = generateSecretKey();
  return { secretKey, hotkey: ss58Encode(getPublicKey(secretKey)) };
}

const VALIDATOR = keyPair(); // permit, active record allowing 127.0.0.1
const NO_PERMIT = keyPair(); // registered without a permit
const UNREGISTERED = keyPair(); // not on the metagraph
const NEWCOMER = keyPair(); // permit, no validator record yet
const REVOKED = keyPair(); // permit, revoked record
const SUSPENDED = keyPair(); // permit, suspended record
// The worked example of docs/protocol.md: permit, no record yet.
const EXAMPLE_HOTKEY = '5C9TqVEs5Q51zUdjvp6tSsjHAfLseJKq1Dq6ULcuSLqEuRSf';
/** The server identity key of docs/protocol.md's worked example. */
const AUDIENCE = 'd75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a';

const SNAPSHOT: MetagraphSnapshot = {
  netuid: 76,
  block: 4_200_000,
  taken_at: '2026-01-01T00:00:00.000+00:00',
  neurons: [
    { uid: 0, hotkey: VALIDATOR.hotkey, validator_permit: true },
    { uid: 1, hotkey: NO_PERMIT.hotkey, validator_permit: false },
    { uid: 2, hotkey: NEWCOMER.hotkey, validator_permit: true },
    { uid: 3, hotkey: REVOKED.hotkey, validator_permit: true },
    { uid: 4, hotkey: SUSPENDED.hotkey, validator_permit: true },
    { uid: 5, hotkey: EXAMPLE_HOTKEY, validator_permit: true },
  ],
};

// 2026-01-01T00:00:10Z: ten seconds into a failure window, so the window's end is predictable.
const T0 = 1_767_225_610;
const RESULTS = '/v1/validators/results?round_id=5f2c9a1e&attempt=2';
const BODY = '{"task_id":"t-0001","verdict":"malicious"}';

let dir: string;
let snapshotFile: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'vigil-signed-auth-'));
  snapshotFile = join(dir, 'metagraph.json');
  await writeFile(snapshotFile, JSON.stringify(SNAPSHOT));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

interface SignOptions {
  method?: string;
  url?: string;
  body?: string | undefined;
  key?: { secretKey: Uint8Array };
  timestamp?: number;
  /** Sign these instead of what is sent (tampering). */
  signed?: { method?: string; url?: string; body?: string | undefined };
  ip?: string;
}

/** A request signed with real keys, as a validator or miner client would send it. */
function signedInject(options: SignOptions = {}): InjectOptions {
  const method = options.method ?? 'POST';
  const url = options.url ?? RESULTS;
  const body = 'body' in options ? options.body : BODY;
  const signature = signRequest({
    audience: AUDIENCE,
    method: options.signed?.method ?? method,
    pathWithQuery: options.signed?.url ?? url,
    body: options.signed && 'body' in options.signed ? options.signed.body : body,
    secretKey: (options.key ?? VALIDATOR).secretKey,
    timestamp: options.timestamp ?? T0,
  });
  return {
    method: method as InjectOptions['method'],
    url,
    headers: {
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...signedRequestHeaders(signature),
    },
    ...(body === undefined ? {} : { payload: body }),
    remoteAddress: options.ip ?? '127.0.0.1',
  };
}

function detail(response: LightMyRequestResponse): string {
  return (response.json() as { detail: string }).detail;
}

describeEachDialect('signedAuthPlugin', (ctx) => {
  let nowMs = T0 * 1000;
  const apps: FastifyInstance[] = [];

  afterEach(async () => {
    await Promise.all(apps.splice(0).map((app) => app.close()));
    nowMs = T0 * 1000;
  });

  async function seedValidators(db: Kysely<Database>) {
    const at = Date.UTC(2026, 0, 1);
    await registerValidator(db, { hotkey: VALIDATOR.hotkey, uid: 0, allowedIps: ['127.0.0.1', '2001:db8::7'], now: at });
    await registerValidator(db, { hotkey: REVOKED.hotkey, uid: 3, allowedIps: ['127.0.0.1'], now: at });
    await registerValidator(db, { hotkey: SUSPENDED.hotkey, uid: 4, allowedIps: ['127.0.0.1'], now: at });
    await setValidatorStatus(db, { hotkey: REVOKED.hotkey, status: 'revoked', now: at });
    await setValidatorStatus(db, { hotkey: SUSPENDED.hotkey, status: 'suspended', now: at });
  }

  async function build(overrides: Partial<SignedAuthPluginOptions> = {}, seed = true): Promise<FastifyInstance> {
    const db = ctx.db();
    if (seed && (await findValidator(db, VALIDATOR.hotkey)) === undefined) await seedValidators(db);
    const app = Fastify();
    apps.push(app);
    await app.register(errorsPlugin);
    await app.register(signedAuthPlugin, {
      audience: AUDIENCE,
      metagraph: new CachedMetagraph({ source: new FileMetagraphSource(snapshotFile) }),
      findValidator: (hotkey) => findValidator(db, hotkey),
      replayStore: createDatabaseReplayStore(db, { now: () => nowMs }),
      failureStore: createMemorySignatureFailureStore(),
      freshnessSeconds: 120,
      failureLimitPerMinute: 20,
      now: () => nowMs,
      ...overrides,
    });
    const echo = async (request: { signer: unknown; body: unknown; rawBody: Buffer | null }) => ({
      signer: request.signer,
      body: request.body ?? null,
      raw: request.rawBody?.toString('utf8') ?? null,
    });
    app.post('/v1/validators/results', { config: { signedBy: 'validator' } }, echo);
    app.route({ method: ['GET', 'POST'], url: '/v1/validators/tasks', config: { signedBy: 'validator' }, handler: echo });
    app.post('/v1/validators/registration', { config: { signedBy: 'validator-registration' } }, echo);
    app.post('/v1/miners/agents', { config: { signedBy: 'miner' } }, echo);
    app.post('/v1/open', echo);
    return app;
  }

  async function usedSignatures(): Promise<number> {
    const row = await ctx.db().selectFrom('signature_uses').select((eb) => eb.fn.countAll<string | number>().as('n')).executeTakeFirstOrThrow();
    return Number(row.n);
  }

  describe('accepts', () => {
    it('a signed validator POST: the handler sees the signer, the parsed body and the raw bytes', async () => {
      const app = await build();
      const response = await app.inject(signedInject());
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({
        signer: { hotkey: VALIDATOR.hotkey, role: 'validator', uid: 0, hadRecord: true },
        body: { task_id: 't-0001', verdict: 'malicious' },
        raw: BODY,
      });
      expect(await usedSignatures()).toBe(1);
    });

    it('a signed GET, whose body is the empty string', async () => {
      const app = await build();
      const response = await app.inject(signedInject({ method: 'GET', url: '/v1/validators/tasks?track=skills', body: undefined }));
      expect(response.statusCode).toBe(200);
      expect(response.json()).toMatchObject({ signer: { hotkey: VALIDATOR.hotkey, role: 'validator' }, body: null });
    });

    it('timestamps exactly 120 s either side of the server clock', async () => {
      const app = await build();
      for (const skew of [-120, 120]) {
        const response = await app.inject(signedInject({ timestamp: T0 + skew }));
        expect(response.statusCode, `skew ${skew}`).toBe(200);
      }
    });

    it('a miner that is not on the metagraph (miners are checked by signature only)', async () => {
      const app = await build();
      const response = await app.inject(signedInject({ url: '/v1/miners/agents', key: UNREGISTERED }));
      expect(response.statusCode).toBe(200);
      expect(response.json()).toMatchObject({ signer: { hotkey: UNREGISTERED.hotkey, role: 'miner', uid: null } });
    });

    it('a permitted hotkey without a record, on the registration route only', async () => {
      const app = await build();
      const registering = await app.inject(signedInject({ url: '/v1/validators/registration', key: NEWCOMER }));
      expect(registering.statusCode).toBe(200);
      expect(registering.json()).toMatchObject({ signer: { hotkey: NEWCOMER.hotkey, role: 'validator', uid: 2 } });
      const elsewhere = await app.inject(signedInject({ key: NEWCOMER }));
      expect(elsewhere.statusCode).toBe(403);
      expect(detail(elsewhere)).toBe('validator not registered');
    });

    it('an allowlisted IPv6 address however the socket spells it', async () => {
      const app = await build();
      const response = await app.inject(signedInject({ ip: '2001:DB8:0:0::7' }));
      expect(response.statusCode).toBe(200);
    });

    it('requests on routes without signedBy untouched, JSON parsed as usual', async () => {
      const app = await build();
      const response = await app.inject({ method: 'POST', url: '/v1/open', headers: { 'content-type': 'application/json' }, payload: '{"a":1}' });
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({ signer: null, body: { a: 1 }, raw: '{"a":1}' });
      const malformed = await app.inject({ method: 'POST', url: '/v1/open', headers: { 'content-type': 'application/json' }, payload: '{"a":' });
      expect(malformed.statusCode).toBe(400);
    });
  });

  it('accepts the worked example of docs/protocol.md, byte for byte', async () => {
    const app = await build();
    nowMs = 1_767_225_600_000;
    const seed = secretKeyFromHex('000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f');
    const threatIntel = '/v1/validators/threat-intel/sha256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855';
    expect(signRequest({ audience: AUDIENCE, method: 'GET', pathWithQuery: threatIntel, timestamp: 1_767_225_600, secretKey: seed }).signature).toBe(
      '2e6d99fcff17686efd61a6c1cc8eedc5d41891a039f2960310b9701c76d60a0f1ef4ef8ccb5bb1e7f0d6e3997ca709eea3e7b6f9f7ffb7e07669c34ca3e71e03',
    );
    const response = await app.inject({
      method: 'POST',
      url: '/v1/validators/registration',
      headers: {
        'Content-Type': 'application/json',
        'X-Vigil-Hotkey': EXAMPLE_HOTKEY,
        'X-Vigil-Signed-At': '1767225600',
        'X-Vigil-Request-Signature':
          '6b4c4a756ce077d0d44778c35c00d9f737fc563f9f3c3be0fc17dd25de77ea8c1163afe09b131ad9efaf983fa8be1e7a06910542442d83960d0d40f5954eda0b',
      },
      payload: '{"allowed_ips":["203.0.113.7"]}',
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ signer: { hotkey: EXAMPLE_HOTKEY, role: 'validator', uid: 5 } });
  });

  describe('refuses, with the catalogue status and detail', () => {
    for (const header of [HEADERS.signedHotkey, HEADERS.signedTimestamp, HEADERS.signedSignature]) {
      it(`a request without ${header}: 401 missing request signature`, async () => {
        const app = await build();
        const request = signedInject();
        const headers = { ...(request.headers as Record<string, string>) };
        delete headers[header];
        const response = await app.inject({ ...request, headers });
        expect(response.statusCode).toBe(401);
        expect(detail(response)).toBe('missing request signature');
      });
    }

    const tampered: [string, SignOptions][] = [
      ['body', { signed: { body: '{"task_id":"t-0001","verdict":"benign"}' } }],
      ['body whitespace (raw bytes, not parsed JSON, are signed)', { signed: { body: '{"task_id": "t-0001","verdict":"malicious"}' } }],
      ['path', { signed: { url: '/v1/validators/tasks?round_id=5f2c9a1e&attempt=2' } }],
      ['query', { signed: { url: '/v1/validators/results?round_id=5f2c9a1e&attempt=3' } }],
      ['query order', { signed: { url: '/v1/validators/results?attempt=2&round_id=5f2c9a1e' } }],
      ['method', { method: 'GET', url: '/v1/validators/tasks', body: undefined, signed: { method: 'POST' } }],
    ];
    for (const [what, options] of tampered) {
      it(`a tampered ${what}: 401 invalid request signature`, async () => {
        const app = await build();
        const response = await app.inject(signedInject(options));
        expect(response.statusCode).toBe(401);
        expect(detail(response)).toBe('invalid request signature');
      });
    }

    it('a signature by another key, or malformed header values: 401 invalid request signature', async () => {
      const app = await build();
      const request = signedInject();
      const headers = request.headers as Record<string, string>;
      const other = signedRequestHeaders(signRequest({ audience: AUDIENCE, method: 'POST', pathWithQuery: RESULTS, body: BODY, secretKey: NO_PERMIT.secretKey, timestamp: T0 }));
      const variants: Record<string, string>[] = [
        { ...headers, [HEADERS.signedSignature]: other[HEADERS.signedSignature]! },
        { ...headers, [HEADERS.signedHotkey]: 'not-an-address' },
        { ...headers, [HEADERS.signedTimestamp]: `0${T0}` },
        { ...headers, [HEADERS.signedSignature]: headers[HEADERS.signedSignature]!.toUpperCase() },
      ];
      for (const variant of variants) {
        const response = await app.inject({ ...request, headers: variant });
        expect(response.statusCode).toBe(401);
        expect(detail(response)).toBe('invalid request signature');
      }
    });

    it('timestamps 121 s either side: 401 signature timestamp outside freshness window', async () => {
      const app = await build();
      for (const skew of [-121, 121]) {
        const response = await app.inject(signedInject({ timestamp: T0 + skew }));
        expect(response.statusCode, `skew ${skew}`).toBe(401);
        expect(detail(response)).toBe('signature timestamp outside freshness window');
      }
    });

    it('the same signed request twice: 401 signature already used (replay)', async () => {
      const app = await build();
      const request = signedInject();
      expect((await app.inject(request)).statusCode).toBe(200);
      const again = await app.inject(request);
      expect(again.statusCode).toBe(401);
      expect(detail(again)).toBe('signature already used (replay)');
      // Still refused near the end of the window, when the claim is oldest.
      nowMs = (T0 + 120) * 1000;
      expect(detail(await app.inject(request))).toBe('signature already used (replay)');
    });

    it('a replay on a second instance sharing the database, and after a restart', async () => {
      const first = await build();
      const second = await build();
      const request = signedInject();
      expect((await first.inject(request)).statusCode).toBe(200);
      const onSecond = await second.inject(request);
      expect(onSecond.statusCode).toBe(401);
      expect(detail(onSecond)).toBe('signature already used (replay)');
      await first.close();
      const restarted = await build();
      expect(detail(await restarted.inject(request))).toBe('signature already used (replay)');
    });

    it('an unreadable metagraph: 403 metagraph unavailable - cannot verify validator permit', async () => {
      const app = await build({ metagraph: new CachedMetagraph({ source: new FileMetagraphSource(join(dir, 'missing.json')) }) });
      const response = await app.inject(signedInject());
      expect(response.statusCode).toBe(403);
      expect(detail(response)).toBe('metagraph unavailable - cannot verify validator permit');
    });

    it('a hotkey absent from the metagraph: 403 hotkey not registered on netuid 76', async () => {
      const app = await build();
      const response = await app.inject(signedInject({ key: UNREGISTERED }));
      expect(response.statusCode).toBe(403);
      expect(detail(response)).toBe('hotkey not registered on netuid 76');
    });

    it('a hotkey without a permit: 403 hotkey does not hold a validator permit on netuid 76', async () => {
      const app = await build();
      const response = await app.inject(signedInject({ key: NO_PERMIT, url: '/v1/validators/registration' }));
      expect(response.statusCode).toBe(403);
      expect(detail(response)).toBe('hotkey does not hold a validator permit on netuid 76');
    });

    for (const [what, key] of [
      ['revoked', REVOKED],
      ['suspended', SUSPENDED],
    ] as const) {
      it(`a ${what} validator, also when re-registering: 403 validator access has been revoked`, async () => {
        const app = await build();
        for (const url of [RESULTS, '/v1/validators/registration']) {
          const response = await app.inject(signedInject({ key, url }));
          expect(response.statusCode, url).toBe(403);
          expect(detail(response)).toBe('validator access has been revoked');
        }
      });
    }

    it('a source IP outside the allowlist: 403 naming the IP, on the registration route too', async () => {
      const app = await build();
      for (const url of [RESULTS, '/v1/validators/registration']) {
        const response = await app.inject(signedInject({ ip: '10.9.8.7', url }));
        expect(response.statusCode).toBe(403);
        expect(detail(response)).toBe('source IP 10.9.8.7 is not registered in the validator allowlist');
      }
    });

    it('a malformed JSON body only after authentication: 401 unsigned, 400 when signed', async () => {
      const app = await build();
      const unsigned = await app.inject({ method: 'POST', url: RESULTS, headers: { 'content-type': 'application/json' }, payload: '{"task_id":' });
      expect(unsigned.statusCode).toBe(401);
      expect(detail(unsigned)).toBe('missing request signature');
      const signed = await app.inject(signedInject({ body: '{"task_id":' }));
      expect(signed.statusCode).toBe(400);
    });
  });

  describe('nesting depth', () => {
    const nested = (levels: number) => `{"a":${'['.repeat(levels - 1)}${']'.repeat(levels - 1)}}`;

    it('a body nested deeper than 64 levels: 401 unsigned, 400 malformed JSON body when signed (probe finding: deep bodies overflowed the stack)', async () => {
      const app = await build();
      for (const levels of [65, 2_500]) {
        const unsigned = await app.inject({ method: 'POST', url: RESULTS, headers: { 'content-type': 'application/json' }, payload: nested(levels) });
        expect(unsigned.statusCode).toBe(401);
        const signed = await app.inject(signedInject({ body: nested(levels) }));
        expect(signed.statusCode, `${levels} levels`).toBe(400);
        expect(detail(signed)).toBe('malformed JSON body');
      }
    });

    it('a body of exactly 64 levels reaches the handler', async () => {
      const app = await build();
      const response = await app.inject(signedInject({ body: nested(64) }));
      expect(response.statusCode).toBe(200);
      expect(JSON.stringify((response.json() as { body: unknown }).body)).toBe(nested(64));
    });
  });

  describe('check order', () => {
    it('a bad signature from an unregistered hotkey says invalid signature, not registration', async () => {
      const app = await build();
      const response = await app.inject(signedInject({ key: UNREGISTERED, signed: { body: '{}' } }));
      expect(detail(response)).toBe('invalid request signature');
    });

    it('a stale request from a revoked validator says stale, not revoked', async () => {
      const app = await build();
      const response = await app.inject(signedInject({ key: REVOKED, timestamp: T0 - 500 }));
      expect(detail(response)).toBe('signature timestamp outside freshness window');
    });

    it('a replayed request from a hotkey without a permit says replay, not permit', async () => {
      const app = await build();
      const request = signedInject({ key: NO_PERMIT });
      expect(detail(await app.inject(request))).toBe('hotkey does not hold a validator permit on netuid 76');
      expect(detail(await app.inject(request))).toBe('signature already used (replay)');
    });

    it('an unavailable metagraph is reported before the validator record or IP', async () => {
      const app = await build({ metagraph: new CachedMetagraph({ source: new FileMetagraphSource(join(dir, 'missing.json')) }) });
      const response = await app.inject(signedInject({ key: REVOKED, ip: '10.9.8.7' }));
      expect(detail(response)).toBe('metagraph unavailable - cannot verify validator permit');
    });

    it('a revoked validator from a foreign IP says revoked, not IP', async () => {
      const app = await build();
      const response = await app.inject(signedInject({ key: REVOKED, ip: '10.9.8.7' }));
      expect(detail(response)).toBe('validator access has been revoked');
    });
  });

  describe('claims', () => {
    it('refused signatures leave no row; only the first accepted use does', async () => {
      const app = await build();
      const valid = signedInject({ key: NO_PERMIT });
      const headers = { ...(valid.headers as Record<string, string>) };
      delete headers[HEADERS.signedSignature];
      await app.inject({ ...valid, headers });
      await app.inject(signedInject({ signed: { body: '{}' } }));
      await app.inject(signedInject({ timestamp: T0 + 121 }));
      expect(await usedSignatures()).toBe(0);
      // A verified, fresh signature is claimed even when a later check (permit) refuses it.
      await app.inject(valid);
      await app.inject(valid);
      expect(await usedSignatures()).toBe(1);
    });

    it('a forged request cannot burn the triple of a genuine one', async () => {
      const app = await build();
      const genuine = signedInject();
      // Same headers, other body: the signature does not verify, so nothing is claimed.
      const forged = await app.inject({ ...genuine, payload: '{"task_id":"t-0001","verdict":"benign"}' });
      expect(detail(forged)).toBe('invalid request signature');
      expect((await app.inject(genuine)).statusCode).toBe(200);
    });

    it('expired claims are purged opportunistically', async () => {
      const app = await build();
      expect((await app.inject(signedInject())).statusCode).toBe(200);
      expect(await usedSignatures()).toBe(1);
      nowMs = (T0 + 3600) * 1000;
      expect((await app.inject(signedInject({ timestamp: T0 + 3600 }))).statusCode).toBe(200);
      expect(await usedSignatures()).toBe(1);
    });
  });

  describe('signature-failure limit', () => {
    it('answers 429 with Retry-After once an IP reaches the limit, before any verification, until the window turns', async () => {
      const app = await build({ failureLimitPerMinute: 3 });
      for (let i = 0; i < 3; i += 1) {
        const response = await app.inject(signedInject({ ip: '192.0.2.1', signed: { body: `{"n":${i}}` } }));
        expect(response.statusCode).toBe(401);
      }
      // Even a valid request is refused: it cannot be told apart without the work the limit saves.
      const limited = await app.inject(signedInject({ ip: '192.0.2.1' }));
      expect(limited.statusCode).toBe(429);
      expect(detail(limited)).toBe('too many signature failures');
      expect(limited.headers['retry-after']).toBe('50');
      expect(await usedSignatures()).toBe(0);

      // Another address keeps its own budget.
      expect((await app.inject(signedInject({ ip: '127.0.0.1' }))).statusCode).toBe(200);
      // So do unsigned routes.
      expect((await app.inject({ method: 'POST', url: '/v1/open', remoteAddress: '192.0.2.1' })).statusCode).toBe(200);

      nowMs = Math.ceil((nowMs + 1) / SIGNATURE_FAILURE_WINDOW_MS) * SIGNATURE_FAILURE_WINDOW_MS;
      const fresh = await app.inject(signedInject({ ip: '192.0.2.1', timestamp: Math.floor(nowMs / 1000) }));
      expect(fresh.statusCode).toBe(403); // past the limit check: 192.0.2.1 is not on the allowlist
      expect(detail(fresh)).toBe('source IP 192.0.2.1 is not registered in the validator allowlist');
    });

    it('counts missing, invalid and stale signatures per source IP and hotkey, but not replays or permit refusals', async () => {
      const app = await build({ failureLimitPerMinute: 3 });
      const ip = '198.51.100.4';
      const accepted = signedInject({ key: VALIDATOR, url: '/v1/miners/agents', ip });
      expect((await app.inject(accepted)).statusCode).toBe(200);
      for (let i = 0; i < 5; i += 1) {
        // Permit refusals: not signature failures.
        expect((await app.inject(signedInject({ key: UNREGISTERED, ip, body: `{"i":${i}}` }))).statusCode).toBe(403);
        // Replays of a correctly signed request (a restarted signer meets them): refused, not counted.
        const replay = await app.inject(accepted);
        expect([replay.statusCode, detail(replay)]).toEqual([401, 'signature already used (replay)']);
      }
      const unsigned = signedInject({ ip, url: '/v1/miners/agents' });
      const withoutSignature = { ...(unsigned.headers as Record<string, string>) };
      delete withoutSignature[HEADERS.signedSignature];
      expect((await app.inject({ ...unsigned, headers: withoutSignature })).statusCode).toBe(401);
      expect((await app.inject(signedInject({ ip, url: '/v1/miners/agents', signed: { body: '{}' } }))).statusCode).toBe(401);
      expect((await app.inject(signedInject({ ip, url: '/v1/miners/agents', timestamp: T0 - 600 }))).statusCode).toBe(401);
      const limited = await app.inject(signedInject({ ip, url: '/v1/miners/agents', body: '{"last":true}' }));
      expect(limited.statusCode).toBe(429);
      expect(detail(limited)).toBe('too many signature failures');
      expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    });

    it("failures naming one hotkey do not lock out another hotkey's correctly signed requests from the same address", async () => {
      const app = await build({ failureLimitPerMinute: 3 });
      const ip = '198.51.100.9';
      // A broken host behind the shared address keeps sending bad signatures for its own hotkey.
      for (let i = 0; i < 6; i += 1) {
        const response = await app.inject(signedInject({ key: NEWCOMER, ip, url: '/v1/miners/agents', signed: { body: `{"n":${i}}` } }));
        expect(response.statusCode).toBe(i < 3 ? 401 : 429);
      }
      // Its neighbour is served.
      const honest = await app.inject(signedInject({ key: VALIDATOR, ip, url: '/v1/miners/agents', body: '{"ok":1}' }));
      expect(honest.statusCode).toBe(200);
    });

    it('an address cycling through hotkeys meets the per-IP ceiling (10 x the limit)', async () => {
      const app = await build({ failureLimitPerMinute: 2 });
      const ip = '198.51.100.10';
      const statuses: number[] = [];
      for (let i = 0; i < 22; i += 1) {
        const forger = keyPair();
        statuses.push((await app.inject(signedInject({ key: forger, ip, url: '/v1/miners/agents', signed: { body: `{"n":${i}}` } }))).statusCode);
      }
      expect(statuses.slice(0, 20).every((status) => status === 401)).toBe(true);
      expect(statuses.slice(20)).toEqual([429, 429]);
      // The ceiling covers the whole address, correct signatures included.
      expect((await app.inject(signedInject({ key: VALIDATOR, ip, url: '/v1/miners/agents', body: '{"late":1}' }))).statusCode).toBe(429);
    });

    it('parallel forgeries cannot slip past the limit: those beyond it are answered 429', async () => {
      const app = await build({ failureLimitPerMinute: 20 });
      const ip = '198.51.100.11';
      const responses = await Promise.all(
        Array.from({ length: 40 }, (_, i) => app.inject(signedInject({ key: NEWCOMER, ip, url: '/v1/miners/agents', signed: { body: `{"n":${i}}` } }))),
      );
      const statuses = responses.map((r) => r.statusCode);
      expect(statuses.filter((status) => status === 401)).toHaveLength(20);
      expect(statuses.filter((status) => status === 429)).toHaveLength(20);
    });

    it('a forged request with a large body is refused before the body is read', async () => {
      const app = await build({ failureLimitPerMinute: 1 });
      const ip = '198.51.100.12';
      // One failure reaches the limit of 1; the next request is refused in onRequest.
      await app.inject(signedInject({ key: NEWCOMER, ip, url: '/v1/miners/agents', signed: { body: '{"x":0}' } }));
      const huge = `{"pad":"${'a'.repeat(8 * 1024 * 1024)}"}`;
      const refused = await app.inject(signedInject({ key: NEWCOMER, ip, url: '/v1/miners/agents', body: huge }));
      expect(refused.statusCode).toBe(429);
      // A signed route without its own limit takes 64 KiB: a bigger body is 413, whoever sends it.
      const tooBig = await app.inject(signedInject({ key: VALIDATOR, url: '/v1/miners/agents', body: huge }));
      expect(tooBig.statusCode).toBe(413);
      expect(detail(tooBig)).toBe('Body too large');
    });
  });
});
