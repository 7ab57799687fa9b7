import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../platform/db/database.js';
import { migrateToLatest } from '../../platform/db/migrate.js';
import { errorsPlugin } from '../../platform/http/plugins/errors.js';
import { OPERATOR } from '../../platform/audit-log.js';
import { createAccount, createApiKey, revokeApiKey } from './accounts.js';
import { apiKeyPlugin } from './api-key-plugin.js';

async function setup(cacheMs = 5_000, maxUnknownKeyIds?: number) {
  const database = await openDatabase({ url: ':memory:' });
  await migrateToLatest(database.db);
  let clock = 1_800_000_000_000;
  // Every statement the plugin sends: the key lookups.
  let lookups = 0;
  const counted = database.db.withPlugin({
    transformQuery: (args) => {
      lookups += 1;
      return args.node;
    },
    transformResult: async (args) => args.result,
  });
  const app = Fastify({ logger: false });
  await app.register(errorsPlugin);
  await app.register(apiKeyPlugin, { db: counted, now: () => clock, cacheMs, ...(maxUnknownKeyIds === undefined ? {} : { maxUnknownKeyIds }) });
  app.get('/paid', { config: { apiKey: { scope: 'verify', plan: 'paid' } } }, async (request) => ({ account: request.principal?.accountId }));
  const keyFor = async (name: string, plan: 'free' | 'paid') => {
    const account = await createAccount(database.db, { name, kind: 'organization', plan, now: clock, actor: OPERATOR });
    return createApiKey(database.db, { accountId: account.account_id, name: 'k', scopes: ['verify'], now: clock, actor: OPERATOR });
  };
  return {
    app,
    db: database.db,
    keyFor,
    advance: (ms: number) => (clock += ms),
    lookups: () => lookups,
    get: (token: string) => app.inject({ url: '/paid', headers: { authorization: `Bearer ${token}` } }),
    close: async () => {
      await app.close();
      await database.close();
    },
  };
}

describe('api key plugin', () => {
  it('refuses a free account on a paid route with 403 naming the plan, and serves a paid one', async () => {
    const t = await setup();
    try {
      const free = await t.keyFor('free-co', 'free');
      const paid = await t.keyFor('paid-co', 'paid');
      const refused = await t.get(free.token);
      expect(refused.statusCode).toBe(403);
      expect(refused.json()).toEqual({ detail: 'this endpoint requires a paid plan', code: 'paid_plan_required' });
      const served = await t.get(paid.token);
      expect(served.statusCode).toBe(200);
      expect(served.json()).toEqual({ account: paid.account_id });
    } finally {
      await t.close();
    }
  });

  it('honours a revocation made elsewhere within the cache lifetime, not after it', async () => {
    const t = await setup(5_000);
    try {
      const key = await t.keyFor('acme', 'paid');
      expect((await t.get(key.token)).statusCode).toBe(200);
      // Revoked by another instance (straight in the database): this one still trusts its cache...
      await revokeApiKey(t.db, { accountId: null, keyId: key.key_id, currentKeyId: null, now: 0, actor: OPERATOR });
      expect((await t.get(key.token)).statusCode).toBe(200);
      // ...until the cached entry expires.
      t.advance(5_001);
      const refused = await t.get(key.token);
      expect(refused.statusCode).toBe(401);
      expect(refused.json()).toEqual({ detail: 'invalid or revoked api key', code: 'invalid_api_key' });
    } finally {
      await t.close();
    }
  });

  it('looks an unknown key id up once within the cache lifetime, then again', async () => {
    const t = await setup(5_000);
    try {
      const guessed = `vgl_0badc0de_${'1'.repeat(48)}`;
      for (let i = 0; i < 3; i += 1) {
        const refused = await t.get(guessed);
        expect([refused.statusCode, refused.json()]).toEqual([401, { detail: 'invalid or revoked api key', code: 'invalid_api_key' }]);
      }
      expect(t.lookups()).toBe(1);
      t.advance(5_001);
      expect((await t.get(guessed)).statusCode).toBe(401);
      expect(t.lookups()).toBe(2);
    } finally {
      await t.close();
    }
  });

  it('forgets the oldest unknown ids beyond its bound, and an id once forget() names it', async () => {
    const t = await setup(5_000, 2);
    try {
      const ids = ['0000000a', '0000000b', '0000000c'];
      for (const id of ids) await t.get(`vgl_${id}_${'1'.repeat(48)}`);
      expect(t.lookups()).toBe(3);
      // `b` and `c` are remembered; `a` was the oldest and is read again.
      await t.get(`vgl_0000000c_${'1'.repeat(48)}`);
      expect(t.lookups()).toBe(3);
      await t.get(`vgl_0000000a_${'1'.repeat(48)}`);
      expect(t.lookups()).toBe(4);

      // A key created (through this instance) with an id tried before it existed is served at once.
      const key = await t.keyFor('acme', 'paid');
      await t.db.updateTable('api_keys').set({ key_id: '0000000c' }).where('key_id', '=', key.key_id).execute();
      const token = `vgl_0000000c_${key.token.slice(13)}`;
      expect((await t.get(token)).statusCode).toBe(401);
      t.app.apiKeyCache.forget('0000000c');
      expect((await t.get(token)).statusCode).toBe(200);
    } finally {
      await t.close();
    }
  });
});
