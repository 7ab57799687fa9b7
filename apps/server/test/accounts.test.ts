import { startTestApp } from '../src/test-support/test-app.js';
import { PassThrough } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { describe, expect, it } from 'vitest';
import { runKeysCommand } from '../src/features/accounts/keys-command.js';
import { closedAfterEach } from '../src/test-support/closed-after-each.js';
import { operatorKey } from '../src/test-support/operator-key.js';
import { describeEachDialect } from '../src/test-support/databases.js';

interface Server {
  app: FastifyInstance;
  url: string;
  logs: () => string;
  close(): Promise<void>;
}

const servers = closedAfterEach<Server>();

describeEachDialect('customer API: accounts and keys', (ctx) => {
  async function start(config: { adminAllowlist?: string[] } = {}): Promise<Server> {
    const stream = new PassThrough();
    let logText = '';
    stream.on('data', (chunk: Buffer) => (logText += chunk.toString('utf8')));
    const { app, url, close } = await startTestApp({
      env: { LOG_LEVEL: 'debug' },
      database: ctx,
      config: { adminAllowlist: config.adminAllowlist ?? [] },
      overrides: { logStream: stream },
    });
    const server = { app, url, logs: () => logText, close };
    servers.push(server);
    return server;
  }

  const call = async (server: Server, method: string, path: string, token?: string, body?: unknown) => {
    const headers: Record<string, string> = {};
    if (token !== undefined) headers.authorization = token.startsWith('vgl_') ? `Bearer ${token}` : token;
    if (body !== undefined) headers['content-type'] = 'application/json';
    const response = await fetch(server.url + path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    const text = await response.text();
    return { status: response.status, headers: response.headers, body: text === '' ? undefined : (JSON.parse(text) as Record<string, unknown>) };
  };

  it('answers who a key belongs to, and never its secret or the secret’s hash', async () => {
    const token = await operatorKey(ctx.db(), ['--org', 'acme', '--plan', 'paid', '--scopes', 'read,keys']);
    const server = await start();
    const me = await call(server, 'GET', '/v1/account', token);
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({
      account: { name: 'acme', kind: 'organization', plan: 'paid' },
      key: { key_id: token.slice(4, 12), scopes: ['keys', 'read'], status: 'active', revoked_at: null },
    });
    const secret = token.slice(13);
    const row = await ctx.db().selectFrom('api_keys').select('secret_hash').executeTakeFirstOrThrow();
    expect(row.secret_hash).not.toContain(secret);
    for (const text of [JSON.stringify(me.body), server.logs()]) {
      expect(text).not.toContain(secret);
      expect(text).not.toContain(row.secret_hash);
    }
  });

  it('refuses each bad credential with its exact detail', async () => {
    const token = await operatorKey(ctx.db(), ['--org', 'acme', '--scopes', 'read']);
    const server = await start();
    const wrongSecret = `${token.slice(0, 13)}${'0'.repeat(48)}`;
    const unknownId = `vgl_ffffffff_${'1'.repeat(48)}`;
    const cases: [string | undefined, number, string, string][] = [
      [undefined, 401, 'missing api key', 'missing_api_key'],
      ['Bearer nope', 401, 'malformed api key', 'malformed_api_key'],
      [`Basic ${token}`, 401, 'malformed api key', 'malformed_api_key'],
      [`Bearer ${token.toUpperCase()}`, 401, 'malformed api key', 'malformed_api_key'],
      [`Bearer ${token}x`, 401, 'malformed api key', 'malformed_api_key'],
      [`Bearer  ${token}`, 401, 'malformed api key', 'malformed_api_key'],
      [unknownId, 401, 'invalid or revoked api key', 'invalid_api_key'],
      [wrongSecret, 401, 'invalid or revoked api key', 'invalid_api_key'],
    ];
    for (const [credential, status, detail, code] of cases) {
      const answer = await call(server, 'GET', '/v1/account', credential);
      expect({ credential, status: answer.status, body: answer.body }).toEqual({ credential, status, body: { detail, code } });
      expect(answer.headers.get('x-request-id')).toBeTruthy();
    }
    // A valid key without the scope a route needs.
    expect(await call(server, 'GET', '/v1/keys', token)).toMatchObject({ status: 403, body: { detail: "api key lacks 'keys' scope", code: 'scope_missing' } });
  });

  it('creates, lists and revokes an account’s own keys, with every refusal of spec part 5', async () => {
    const admin = await operatorKey(ctx.db(), ['--org', 'acme', '--scopes', 'read,keys']);
    const other = await operatorKey(ctx.db(), ['--org', 'globex', '--scopes', 'read,keys']);
    const server = await start();

    const tooStrong = await call(server, 'POST', '/v1/keys', admin, { name: 'ci', scopes: ['read', 'verify'] });
    expect(tooStrong).toMatchObject({ status: 403, body: { detail: 'cannot grant a scope the current key does not hold', code: 'scope_not_grantable' } });
    const bad = await call(server, 'POST', '/v1/keys', admin, { name: 'ci', scopes: ['everything'], extra: 1 });
    expect(bad.status).toBe(422);
    expect((bad.body?.errors as { path: string }[]).map((e) => e.path).sort()).toEqual(['body', 'body.scopes.0']);

    const created = await call(server, 'POST', '/v1/keys', admin, { name: 'ci', scopes: ['read'] });
    expect(created.status).toBe(201);
    const ciToken = created.body?.token as string;
    expect(ciToken).toMatch(/^vgl_[0-9a-f]{8}_[0-9a-f]{48}$/);
    expect(await call(server, 'GET', '/v1/account', ciToken)).toMatchObject({ status: 200, body: { key: { name: 'ci', scopes: ['read'] } } });

    const listed = await call(server, 'GET', '/v1/keys', admin);
    expect(listed.status).toBe(200);
    const keys = listed.body?.keys as Record<string, unknown>[];
    expect(keys.map((k) => k.name)).toEqual(expect.arrayContaining(['ci', 'acme key']));
    expect(keys).toHaveLength(2);
    for (const key of keys) expect(Object.keys(key).sort()).toEqual(['account_id', 'created_at', 'key_id', 'last_used_at', 'name', 'revoked_at', 'scopes', 'status', 'use_count']);

    const selfId = admin.slice(4, 12);
    const otherId = other.slice(4, 12);
    const ciId = ciToken.slice(4, 12);
    expect(await call(server, 'DELETE', `/v1/keys/${selfId}`, admin)).toMatchObject({ status: 400, body: { detail: 'cannot revoke the key you are currently using', code: 'cannot_revoke_current_key' } });
    expect(await call(server, 'DELETE', `/v1/keys/${otherId}`, admin)).toMatchObject({ status: 404, body: { detail: 'key not found', code: 'key_not_found' } });
    expect(await call(server, 'DELETE', '/v1/keys/00000000', admin)).toMatchObject({ status: 404, body: { detail: 'key not found', code: 'key_not_found' } });
    expect(await call(server, 'DELETE', '/v1/keys/not-a-key', admin)).toMatchObject({ status: 404, body: { detail: 'key not found', code: 'key_not_found' } });
    const revoked = await call(server, 'DELETE', `/v1/keys/${ciId}`, admin);
    expect(revoked).toMatchObject({ status: 200, body: { key_id: ciId, status: 'revoked' } });
    expect(await call(server, 'DELETE', `/v1/keys/${ciId}`, admin)).toMatchObject({ status: 404, body: { detail: 'key not found', code: 'key_not_found' } });
    // Revoked: refused at once on this instance.
    expect(await call(server, 'GET', '/v1/account', ciToken)).toMatchObject({ status: 401, body: { detail: 'invalid or revoked api key', code: 'invalid_api_key' } });
    // The other account's key was untouched.
    expect((await call(server, 'GET', '/v1/account', other)).status).toBe(200);
  });

  it('revokes a key once when revocations race: one 200, the others 404, one audit entry (probe finding on PostgreSQL)', async () => {
    const admin = await operatorKey(ctx.db(), ['--org', 'acme', '--scopes', 'read,keys']);
    const victim = await operatorKey(ctx.db(), ['--org', 'acme', '--scopes', 'read']);
    const server = await start();
    const answers = await Promise.all(Array.from({ length: 10 }, () => call(server, 'DELETE', `/v1/keys/${victim.slice(4, 12)}`, admin)));
    expect(answers.map((a) => a.status).sort()).toEqual([200, ...Array<number>(9).fill(404)]);
    const audited = await ctx.db().selectFrom('audit_log').select('action').where('action', '=', 'key.revoke').execute();
    expect(audited).toHaveLength(1);
  });

  it('records key use in batches: count and last use appear after a flush, not per request', async () => {
    const token = await operatorKey(ctx.db(), ['--org', 'acme', '--scopes', 'read,keys']);
    const server = await start();
    for (let i = 0; i < 5; i += 1) expect((await call(server, 'GET', '/v1/account', token)).status).toBe(200);
    const before = await ctx.db().selectFrom('api_keys').select(['use_count', 'last_used_at']).executeTakeFirstOrThrow();
    expect(Number(before.use_count)).toBe(0);
    await server.app.close(); // flushes what is pending
    servers.splice(servers.indexOf(server), 1);
    const after = await ctx.db().selectFrom('api_keys').select(['use_count', 'last_used_at']).executeTakeFirstOrThrow();
    expect(Number(after.use_count)).toBe(5);
    expect(after.last_used_at).not.toBeNull();
  });

  it('serves no admin API without VIGIL_ADMIN_ALLOWLIST, and checks the address before the key', async () => {
    const token = await operatorKey(ctx.db(), ['--org', 'ops', '--scopes', 'admin']);
    const closed = await start();
    expect(await call(closed, 'GET', '/v1/admin/accounts', token)).toMatchObject({ status: 404, body: { detail: 'not found', code: 'route_not_found' } });
    const elsewhere = await start({ adminAllowlist: ['10.0.0.0/8'] });
    for (const credential of [undefined, 'Bearer junk', token]) {
      expect(await call(elsewhere, 'GET', '/v1/admin/accounts', credential)).toMatchObject({ status: 403, body: { detail: 'source IP is not in the admin allowlist', code: 'admin_ip_not_allowed' } });
    }
  });

  it('refuses a NUL character in any text with 422 naming the field, storing nothing (probe finding: 500 on PostgreSQL)', async () => {
    const adminToken = await operatorKey(ctx.db(), ['--org', 'ops', '--scopes', 'admin,keys,read']);
    const server = await start({ adminAllowlist: ['127.0.0.0/8', '::1'] });
    const keyRows = async () => (await ctx.db().selectFrom('api_keys').select('key_id').execute()).length;
    const before = await keyRows();
    const nulIn = (path: string) => ({ status: 422, body: { detail: 'Validation error', code: 'validation_error', errors: [{ path, message: 'must not contain the NUL character (U+0000)' }] } });

    expect(await call(server, 'POST', '/v1/keys', adminToken, { name: 'x\u0000y', scopes: ['read'] })).toMatchObject(nulIn('body.name'));
    const accountId = ((await call(server, 'GET', '/v1/account', adminToken)).body?.account as { id: string }).id;
    expect(await call(server, 'POST', `/v1/admin/accounts/${accountId}/keys`, adminToken, { name: 'a\u0000', scopes: ['read'] })).toMatchObject(nulIn('body.name'));
    // Wherever it hides: a key of the body, the query string.
    expect(await call(server, 'POST', '/v1/keys', adminToken, { name: 'ok', scopes: ['read'], ['no\u0000te']: 1 })).toMatchObject({
      status: 422,
      body: { errors: expect.arrayContaining([{ path: 'body.no\u0000te', message: 'must not contain the NUL character (U+0000)' }]) },
    });
    expect(await call(server, 'GET', '/v1/search?q=a%00b', adminToken)).toMatchObject(nulIn('query.q'));
    expect(await keyRows()).toBe(before);
    // Other control characters are ordinary text in a key's name.
    expect((await call(server, 'POST', '/v1/keys', adminToken, { name: 'tab\there', scopes: ['read'] })).status).toBe(201);
  });

  it('lets an allowlisted admin key manage accounts, plans and keys, and audits every change', async () => {
    const adminToken = await operatorKey(ctx.db(), ['--org', 'ops', '--scopes', 'admin']);
    const readOnly = await operatorKey(ctx.db(), ['--org', 'ops', '--scopes', 'read']);
    const server = await start({ adminAllowlist: ['127.0.0.0/8', '::1'] });
    expect(await call(server, 'GET', '/v1/admin/accounts', readOnly)).toMatchObject({ status: 403, body: { detail: "api key lacks 'admin' scope", code: 'scope_missing' } });

    const created = await call(server, 'POST', '/v1/admin/accounts', adminToken, { name: 'initech', plan: 'paid' });
    expect(created).toMatchObject({ status: 201, body: { name: 'initech', kind: 'organization', plan: 'paid' } });
    const accountId = created.body?.id as string;
    expect(await call(server, 'POST', '/v1/admin/accounts', adminToken, { name: 'initech' })).toMatchObject({ status: 409, body: { detail: 'account name already taken', code: 'account_name_taken' } });
    expect((await call(server, 'POST', '/v1/admin/accounts', adminToken, { name: 'Bad Name' })).status).toBe(422);
    expect(await call(server, 'GET', '/v1/admin/accounts/acc_0000000000000000', adminToken)).toMatchObject({ status: 404, body: { detail: 'account not found', code: 'account_not_found' } });

    const issued = await call(server, 'POST', `/v1/admin/accounts/${accountId}/keys`, adminToken, { name: 'first', scopes: ['verify', 'keys'] });
    expect(issued.status).toBe(201);
    const customer = issued.body?.token as string;
    expect(await call(server, 'GET', '/v1/account', customer)).toMatchObject({ status: 200, body: { account: { name: 'initech', plan: 'paid' } } });

    expect(await call(server, 'POST', `/v1/admin/accounts/${accountId}`, adminToken, { plan: 'free' })).toMatchObject({ status: 200, body: { plan: 'free', trusted: false } });
    expect(await call(server, 'GET', '/v1/account', customer)).toMatchObject({ body: { account: { plan: 'free', trusted: false } } });
    // Trust: whose package references count for every account (docs/artifacts.md); a body must change something.
    expect(await call(server, 'POST', `/v1/admin/accounts/${accountId}`, adminToken, { trusted: true })).toMatchObject({ status: 200, body: { plan: 'free', trusted: true } });
    expect(await call(server, 'GET', '/v1/account', customer)).toMatchObject({ body: { account: { trusted: true } } });
    expect(await call(server, 'POST', `/v1/admin/accounts/${accountId}`, adminToken, { trusted: false, plan: 'paid' })).toMatchObject({ body: { plan: 'paid', trusted: false } });
    expect(await call(server, 'POST', `/v1/admin/accounts/${accountId}`, adminToken, {})).toMatchObject({ status: 422, body: { errors: [{ path: 'body' }] } });
    expect(await call(server, 'POST', `/v1/admin/accounts/${accountId}`, adminToken, { trusted: 'yes' })).toMatchObject({ status: 422, body: { errors: [{ path: 'body.trusted' }] } });

    const keys = await call(server, 'GET', `/v1/admin/accounts/${accountId}/keys`, adminToken);
    expect((keys.body?.keys as unknown[]).length).toBe(1);
    expect(await call(server, 'DELETE', `/v1/admin/keys/${adminToken.slice(4, 12)}`, adminToken)).toMatchObject({ status: 400 });
    expect(await call(server, 'DELETE', `/v1/admin/keys/${customer.slice(4, 12)}`, adminToken)).toMatchObject({ status: 200, body: { status: 'revoked' } });

    const page1 = await call(server, 'GET', '/v1/admin/audit-log', adminToken, undefined);
    const entries = page1.body?.entries as { action: string; actor: string; source_ip: string | null; detail: Record<string, unknown> }[];
    // Newest first: the API's revoke, plan and trust changes, key issue and account creation, then the operator's.
    expect(entries.slice(0, 7).map((e) => e.action)).toEqual(['key.revoke', 'account.trusted', 'account.plan', 'account.trusted', 'account.plan', 'key.create', 'account.create']);
    expect(entries.slice(1, 4).map((e) => [e.detail, (e as unknown as { target: string }).target])).toEqual([
      [{ from: true, to: false }, accountId],
      [{ from: 'free', to: 'paid' }, accountId],
      [{ from: false, to: true }, accountId],
    ]);
    expect(entries[0]).toMatchObject({ actor: `key:${adminToken.slice(4, 12)}`, source_ip: expect.stringMatching(/127\.0\.0\.1|::1/) });
    expect(entries.at(-1)).toMatchObject({ actor: 'operator', source_ip: null, action: 'account.create' });
    expect(JSON.stringify(entries)).not.toContain(customer.slice(13));

    // Pagination headers: two per page; a next page is announced only while one exists.
    const paged = await fetch(`${server.url}/v1/admin/audit-log`, { headers: { authorization: `Bearer ${adminToken}`, 'x-vigil-page': '2', 'x-vigil-page-size': '2' } });
    expect(paged.headers.get('x-vigil-page')).toBe('2');
    expect(paged.headers.get('x-vigil-page-size')).toBe('2');
    expect(paged.headers.get('x-vigil-next-page')).toBe('3');
    const last = Math.ceil(entries.length / 2);
    const lastPage = await fetch(`${server.url}/v1/admin/audit-log`, { headers: { authorization: `Bearer ${adminToken}`, 'x-vigil-page': String(last), 'x-vigil-page-size': '2' } });
    expect(lastPage.headers.get('x-vigil-next-page')).toBeNull();
    const tooBig = await fetch(`${server.url}/v1/admin/audit-log`, { headers: { authorization: `Bearer ${adminToken}`, 'x-vigil-page-size': '101' } });
    expect(tooBig.status).toBe(422);
    expect(await tooBig.json()).toMatchObject({ errors: [{ path: 'headers.x-vigil-page-size' }] });
  });
});

describe('vigil-server keys', () => {
  it('refuses unknown scopes, plans and account names with a usage error', async () => {
    const { openDatabase } = await import('../src/platform/db/database.js');
    const { migrateToLatest } = await import('../src/platform/db/migrate.js');
    const database = await openDatabase({ url: ':memory:' });
    try {
      await migrateToLatest(database.db);
      const attempts = [
        ['create', '--org', 'acme', '--scopes', 'read,root'],
        ['create', '--org', 'acme', '--scopes', 'read', '--plan', 'gold'],
        ['create', '--org', 'Acme Inc', '--scopes', 'read'],
        ['create', '--org', 'acme', '--personal', 'bob', '--scopes', 'read'],
        ['create', '--scopes', 'read'],
      ];
      for (const args of attempts) {
        await expect(runKeysCommand(database.db, 'keys', args, Date.now())).rejects.toMatchObject({ usage: true });
      }
      expect(await runKeysCommand(database.db, 'accounts', ['list'], Date.now())).toEqual(['no accounts']);
      for (const args of [['trust'], ['trust', 'a', 'b'], ['distrust', 'acme']]) {
        await expect(runKeysCommand(database.db, 'accounts', args, Date.now())).rejects.toMatchObject({ usage: true });
      }
      await expect(runKeysCommand(database.db, 'accounts', ['trust', 'nobody'], Date.now())).rejects.toMatchObject({ usage: false, message: 'no account named nobody' });
      await runKeysCommand(database.db, 'keys', ['create', '--org', 'vigil-ops', '--scopes', 'upload'], Date.now());
      expect(await runKeysCommand(database.db, 'accounts', ['trust', 'vigil-ops'], Date.now())).toEqual(['vigil-ops: trusted: its package references count for every account']);
      expect((await runKeysCommand(database.db, 'accounts', ['list'], Date.now()))[1]).toMatch(/^acc_[0-9a-f]{16} {2}vigil-ops {2}organization {2}free {2}yes$/);
      expect(await runKeysCommand(database.db, 'accounts', ['untrust', 'vigil-ops'], Date.now())).toEqual(['vigil-ops: not trusted: its package references count for itself only']);
      const audit = await database.db.selectFrom('audit_log').select(['actor', 'action', 'detail']).where('action', '=', 'account.trusted').orderBy('entry_id').execute();
      expect(audit.map((e) => [e.actor, JSON.parse(e.detail)])).toEqual([
        ['operator', { from: false, to: true }],
        ['operator', { from: true, to: false }],
      ]);
    } finally {
      await database.close();
    }
  });
});
