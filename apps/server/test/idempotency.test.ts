import { sql } from 'kysely';
import { afterEach, expect, it } from 'vitest';
import { describeEachDialect } from '../src/test-support/databases.js';
import { T0 } from '../src/test-support/fixtures.js';
import { startNetworkApp, type NetworkApp } from '../src/test-support/network-app.js';
import { operatorKey } from '../src/test-support/operator-key.js';
import { call, shared, type Answer } from './admin-support.js';

const SNAPSHOT = { netuid: 76, block: 1, taken_at: '2026-11-21T00:00:00Z', neurons: [] };
const DAY_MS = 24 * 60 * 60 * 1000;
const IN_PROGRESS = { status: 409, body: { detail: 'a request with this idempotency key is in progress', code: 'idempotency_key_in_progress' } };
const MISMATCH = { status: 422, body: { detail: 'this idempotency key was used with a different request', code: 'idempotency_key_mismatch' } };

describeEachDialect('Idempotency-Key on customer and admin changes', (ctx) => {
  const apps: NetworkApp[] = [];
  afterEach(async () => {
    for (const app of apps.splice(0)) await app.close();
  });

  async function start(): Promise<{ app: NetworkApp; token: string }> {
    const token = await operatorKey(ctx.db(), ['--org', 'vigil-ops', '--scopes', 'admin,keys,read']);
    const app = await startNetworkApp({ snapshot: SNAPSHOT, database: shared(ctx), clock: T0, config: { adminAllowlist: ['127.0.0.0/8', '::1'] } });
    apps.push(app);
    return { app, token };
  }

  // Key creation is not idempotent (its token is never stored): account creation is the example here.
  const accountRows = async () => Number((await ctx.db().selectFrom('accounts').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
  const withKey = (key: string) => ({ 'idempotency-key': key });
  const replayed = (answer: Answer) => answer.headers.get('idempotent-replayed');

  it('replays the first answer to a repeat, without doing the work again', async () => {
    const { app, token } = await start();
    const first = await call(app, 'POST', '/v1/admin/accounts', token, { name: 'ci-co', plan: 'free' }, withKey('create-ci-1'));
    expect(first.status).toBe(201);
    expect(replayed(first)).toBeNull();
    // The same JSON in another key order and spacing is the same request.
    const again = await fetch(`${app.baseUrl}/v1/admin/accounts`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'idempotency-key': 'create-ci-1' },
      body: '{ "plan": "free",   "name": "ci-co" }',
    });
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.headers.get('content-type')).toBe(first.headers.get('content-type'));
    expect(again.headers.get('x-request-id')).not.toBe(first.headers.get('x-request-id'));
    expect(await again.json()).toEqual(first.body);
    expect(await accountRows()).toBe(2);
    const audited = await ctx.db().selectFrom('audit_log').select('action').where('actor', 'like', 'key:%').execute();
    expect(audited.map((r) => r.action)).toEqual(['account.create']);

    // A DELETE repeated answers the revocation again, not 404.
    const keyId = (await operatorKey(ctx.db(), ['--org', 'vigil-ops', '--scopes', 'read'])).slice(4, 12);
    const revoked = await call(app, 'DELETE', `/v1/keys/${keyId}`, token, undefined, withKey('revoke-ci'));
    expect(revoked).toMatchObject({ status: 200, body: { key_id: keyId, status: 'revoked' } });
    const revokedAgain = await call(app, 'DELETE', `/v1/keys/${keyId}`, token, undefined, withKey('revoke-ci'));
    expect(revokedAgain).toMatchObject({ status: 200, body: revoked.body });
    expect(replayed(revokedAgain)).toBe('true');
    // Without a key every request runs: the second revocation is 404.
    expect(await call(app, 'DELETE', `/v1/keys/${keyId}`, token)).toMatchObject({ status: 404, body: { detail: 'key not found', code: 'key_not_found' } });

    // Admin changes too: a repeated account creation is the first one's 201, not 409.
    const account = await call(app, 'POST', '/v1/admin/accounts', token, { name: 'initech' }, withKey('acct-initech'));
    expect(account.status).toBe(201);
    const accountAgain = await call(app, 'POST', '/v1/admin/accounts', token, { name: 'initech' }, withKey('acct-initech'));
    expect(accountAgain).toEqual({ ...account, headers: accountAgain.headers });
    expect(replayed(accountAgain)).toBe('true');
    // A stored refusal is replayed as well: the request ran and was refused.
    const taken = await call(app, 'POST', '/v1/admin/accounts', token, { name: 'initech' }, withKey('acct-initech-2'));
    expect(taken).toMatchObject({ status: 409, body: { detail: 'account name already taken', code: 'account_name_taken' } });
    expect(replayed(await call(app, 'POST', '/v1/admin/accounts', token, { name: 'initech' }, withKey('acct-initech-2')))).toBe('true');
  });

  it('refuses the key with another body, method or path; scopes keys per account', async () => {
    const { app, token } = await start();
    expect((await call(app, 'POST', '/v1/admin/accounts', token, { name: 'ci-co' }, withKey('k1'))).status).toBe(201);
    expect(await call(app, 'POST', '/v1/admin/accounts', token, { name: 'cd-co' }, withKey('k1'))).toMatchObject(MISMATCH);
    expect(await call(app, 'POST', '/v1/admin/accounts/acc_0000000000000000', token, { plan: 'paid' }, withKey('k1'))).toMatchObject(MISMATCH);
    expect(await call(app, 'DELETE', '/v1/keys/00000000', token, undefined, withKey('k1'))).toMatchObject(MISMATCH);
    expect(await accountRows()).toBe(2);

    // Another account's key with the same Idempotency-Key is its own request (here refused: the name is taken).
    const other = await operatorKey(ctx.db(), ['--org', 'globex', '--scopes', 'admin,read']);
    const theirs = await call(app, 'POST', '/v1/admin/accounts', other, { name: 'ci-co' }, withKey('k1'));
    expect(theirs).toMatchObject({ status: 409, body: { detail: 'account name already taken', code: 'account_name_taken' } });
    expect(replayed(theirs)).toBeNull();
    expect(await accountRows()).toBe(3);
  });

  it('ignores the header on key creation: the token is never stored, so a repeat makes another key', async () => {
    const { app, token } = await start();
    const first = await call(app, 'POST', '/v1/keys', token, { name: 'ci', scopes: ['read'] }, withKey('create-key'));
    const second = await call(app, 'POST', '/v1/keys', token, { name: 'ci', scopes: ['read'] }, withKey('create-key'));
    expect([first.status, second.status]).toEqual([201, 201]);
    expect(replayed(second)).toBeNull();
    expect(second.body?.key_id).not.toBe(first.body?.key_id);
    const secret = (first.body?.token as string).slice(13);
    const stored = await ctx.db().selectFrom('idempotency_keys').selectAll().execute();
    expect(JSON.stringify(stored)).not.toContain(secret);
  });

  it('validates the header, and stores nothing for a request its schema refused', async () => {
    const { app, token } = await start();
    for (const bad of ['', 'x'.repeat(256), 'tab\there']) {
      const answer = await call(app, 'POST', '/v1/admin/accounts', token, { name: 'ci-co' }, withKey(bad));
      expect(answer).toMatchObject({ status: 422, body: { detail: 'Validation error', code: 'validation_error', errors: [{ path: 'headers.idempotency-key' }] } });
    }
    expect((await call(app, 'POST', '/v1/admin/accounts', token, { name: 'ci-co' }, withKey('x'.repeat(255)))).status).toBe(201);

    const invalid = await call(app, 'POST', '/v1/admin/accounts', token, { name: 'Bad Name' }, withKey('fix-me'));
    expect(invalid.status).toBe(422);
    const fixed = await call(app, 'POST', '/v1/admin/accounts', token, { name: 'fix-co' }, withKey('fix-me'));
    expect(fixed.status).toBe(201);
    expect(replayed(fixed)).toBeNull();
  });

  it('lets exactly one of concurrent duplicates do the work', async () => {
    const { app, token } = await start();
    const answers = await Promise.all(
      Array.from({ length: 8 }, () => call(app, 'POST', '/v1/admin/accounts', token, { name: 'race-co' }, withKey('race-1'))),
    );
    const fresh = answers.filter((a) => a.status === 201 && replayed(a) === null);
    expect(fresh).toHaveLength(1);
    for (const answer of answers) {
      if (answer === fresh[0]) continue;
      if (answer.status === 409) expect(answer).toMatchObject(IN_PROGRESS);
      else expect(answer).toMatchObject({ status: 201, body: fresh[0]!.body });
    }
    expect(await accountRows()).toBe(2);
    // Once it has answered, every repeat is the replay.
    expect(replayed(await call(app, 'POST', '/v1/admin/accounts', token, { name: 'race-co' }, withKey('race-1')))).toBe('true');
  });

  it('forgets a key after 24 hours', async () => {
    const { app, token } = await start();
    const send = () => call(app, 'POST', '/v1/admin/accounts', token, { name: 'daily-co' }, withKey('daily'));
    const first = await send();
    app.clock = T0 + DAY_MS - 1;
    const replay = await send();
    expect(replayed(replay)).toBe('true');
    expect(replay.body).toEqual(first.body);
    expect(await accountRows()).toBe(2);
    // A day later the request runs again (and is refused: the account exists now).
    app.clock = T0 + DAY_MS;
    const later = await send();
    expect(later).toMatchObject({ status: 409, body: { detail: 'account name already taken', code: 'account_name_taken' } });
    expect(replayed(later)).toBeNull();
    expect(await accountRows()).toBe(2);
  });

  it('stores no 5xx: the client may send the request again and it runs', async () => {
    const { app, token } = await start();
    // Authenticated once, so the key is cached; then the change's audit table goes missing.
    expect((await call(app, 'GET', '/v1/account', token)).status).toBe(200);
    await sql`alter table audit_log rename to audit_log_away`.execute(ctx.db());
    const failed = await call(app, 'POST', '/v1/admin/accounts', token, { name: 'retry-co' }, withKey('retry-1'));
    await sql`alter table audit_log_away rename to audit_log`.execute(ctx.db());
    expect(failed.status).toBeGreaterThanOrEqual(500);
    expect(await accountRows()).toBe(1);
    const retried = await call(app, 'POST', '/v1/admin/accounts', token, { name: 'retry-co' }, withKey('retry-1'));
    expect(retried.status).toBe(201);
    expect(replayed(retried)).toBeNull();
    expect(await accountRows()).toBe(2);
  });

  it('lets a claim older than twice the handler timeout be taken over (its request died)', async () => {
    const { app, token } = await start();
    const send = () => call(app, 'POST', '/v1/admin/accounts', token, { name: 'crash-co' }, withKey('crash-1'));
    expect((await send()).status).toBe(201);
    // As if the server had died after claiming the key and before answering.
    await ctx.db().updateTable('idempotency_keys').set({ state: 'running', status: null, headers: null, body: null }).execute();
    expect(await send()).toMatchObject(IN_PROGRESS);
    // One handler timeout: the request would have been answered 504 by now, and its handler may
    // still be running (and committing) for another timeout.
    app.clock = T0 + app.app.vigilConfig.handlerTimeoutMs;
    expect(await send()).toMatchObject(IN_PROGRESS);
    app.clock = T0 + 2 * app.app.vigilConfig.handlerTimeoutMs;
    // Taken over: the request runs again (and is refused: the account exists).
    const taken = await send();
    expect(taken).toMatchObject({ status: 409, body: { detail: 'account name already taken', code: 'account_name_taken' } });
    expect(replayed(taken)).toBeNull();
    expect(replayed(await send())).toBe('true');
  });
});
