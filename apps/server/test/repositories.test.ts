import { startTestApp } from '../src/test-support/test-app.js';
import { createHmac } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { describe, expect, it } from 'vitest';
import { createPolicy } from '../src/features/policies/stored-policies.js';
import { closedAfterEach } from '../src/test-support/closed-after-each.js';
import { operatorKey } from '../src/test-support/operator-key.js';
import { describeEachDialect } from '../src/test-support/databases.js';

interface Server {
  app: FastifyInstance;
  url: string;
  close(): Promise<void>;
}

const servers = closedAfterEach<Server>();

const WIDGETS = 'https://github.com/Acme/widgets.git';
const sign = (secret: string, body: string) => `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;
const sha = (n: number) => n.toString(16).padStart(40, '0');

function pushPayload(overrides: Record<string, unknown> = {}) {
  return {
    ref: 'refs/heads/main',
    before: sha(1),
    after: sha(2),
    created: false,
    deleted: false,
    forced: false,
    commits: [{ id: sha(2), added: [], modified: ['pnpm-lock.yaml'], removed: [] }],
    repository: { full_name: 'Acme/widgets', clone_url: WIDGETS, html_url: 'https://github.com/Acme/widgets', default_branch: 'main' },
    ...overrides,
  };
}

describeEachDialect('customer API: repositories', (ctx) => {
  async function start(): Promise<Server> {
    const { app, url, close } = await startTestApp({ database: ctx });
    const server: Server = { app, url, close };
    servers.push(server);
    return server;
  }

  type Answer = { status: number; headers: Headers; body: Record<string, any> };
  async function send(server: Server, method: string, path: string, init: { token?: string; body?: unknown; headers?: Record<string, string> } = {}): Promise<Answer> {
    const headers: Record<string, string> = { ...init.headers };
    if (init.token !== undefined) headers.authorization = `Bearer ${init.token}`;
    let body: string | undefined;
    if (init.body !== undefined) {
      body = typeof init.body === 'string' ? init.body : JSON.stringify(init.body);
      headers['content-type'] ??= 'application/json';
    }
    const response = await fetch(server.url + path, { method, headers, body });
    const text = await response.text();
    return { status: response.status, headers: response.headers, body: text === '' ? {} : (JSON.parse(text) as Record<string, any>) };
  }

  const register = (server: Server, token: string, body: unknown, headers: Record<string, string> = {}) =>
    send(server, 'POST', '/v1/repositories', { token, body, headers });

  async function hook(server: Server, event: string, payload: unknown, signature: string | ((body: string) => string) | null, delivery = 'delivery-1') {
    const body = JSON.stringify(payload);
    const headers: Record<string, string> = { 'x-github-event': event, 'x-github-delivery': delivery };
    if (signature !== null) headers['x-hub-signature-256'] = typeof signature === 'string' ? signature : signature(body);
    return send(server, 'POST', '/v1/repositories/hooks/github', { body, headers });
  }

  const paidKey = (org = 'acme') => operatorKey(ctx.db(), ['--org', org, '--plan', 'paid', '--scopes', 'repositories']);
  async function createStrictPolicy(): Promise<void> {
    const account = await ctx.db().selectFrom('accounts').selectAll().where('name', '=', 'acme').executeTakeFirstOrThrow();
    await createPolicy(
      ctx.db(),
      { name: 'strict', description: null, rules: [{ name: 'decided', expression: 'artifact.state == "decided"', action: 'block', description: null }] },
      { principal: { keyId: '00000000', accountId: account.account_id, accountKind: 'organization', plan: 'paid', scopes: ['policies'], trusted: false }, now: Date.now(), actor: { name: 'operator', sourceIp: null } },
    );
  }

  const countRows = async (table: 'source_repositories' | 'source_repository_jobs') =>
    Number((await ctx.db().selectFrom(table).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);

  it('registers a GitHub repository: the record, the webhook setup with its secret once, and a first verification queued', async () => {
    const server = await start();
    const token = await paidKey();
    await createStrictPolicy();
    const created = await register(server, token, { url: 'https://github.com/Acme/widgets', provider: 'github', policy: 'strict' });
    expect(created.status).toBe(201);
    const data = created.body.data;
    expect(data).toMatchObject({
      url: WIDGETS,
      provider: 'github',
      policy: 'strict',
      continuous: true,
      verdict: null,
      last_verified_at: null,
      last_verification: null,
      last_push: { delivery: 'initial', ref: null, commit: null, state: 'queued', attempts: 0, last_error: null },
      webhook: { path: '/v1/repositories/hooks/github', content_type: 'application/json', events: ['push'] },
    });
    expect(data.id).toMatch(/^repo_[0-9a-f]{16}$/);
    expect(data.webhook.secret).toMatch(/^[0-9a-f]{64}$/);

    // The secret is kept sealed, never as text, and no read shows it again.
    const row = await ctx.db().selectFrom('source_repositories').selectAll().executeTakeFirstOrThrow();
    expect(row.webhook_secret).not.toContain(data.webhook.secret);
    const read = await send(server, 'GET', `/v1/repositories/${data.id}`, { token });
    expect(read.status).toBe(200);
    const { webhook: _webhook, ...record } = data;
    expect(read.body).toEqual(record);
    expect(JSON.stringify(read.body)).not.toContain(data.webhook.secret);
    const list = await send(server, 'GET', '/v1/repositories', { token });
    expect(list.body).toEqual({ repositories: [record] });
    expect(list.headers.get('x-vigil-next-page')).toBeNull();
  });

  it('refuses a policy the organization does not have, storing nothing', async () => {
    const server = await start();
    const token = await paidKey();
    const refused = await register(server, token, { url: WIDGETS, provider: 'github', policy: 'strict' });
    expect(refused).toMatchObject({ status: 404, body: { detail: 'policy not found', code: 'policy_not_found' } });
    expect(await countRows('source_repositories')).toBe(0);
    expect((await register(server, token, { url: WIDGETS, provider: 'github', policy: 'default' })).status).toBe(201);
  });

  it.each(['gitlab', 'bitbucket'])('refuses %s as not yet connected, storing nothing', async (provider) => {
    const server = await start();
    const token = await paidKey();
    const refused = await register(server, token, { url: `https://${provider}.org/acme/widgets.git`, provider });
    expect(refused.status).toBe(422);
    expect(refused.body).toEqual({ detail: `provider: ${provider} is not yet connected; connected providers: github`, code: 'provider_not_connected' });
    expect(await countRows('source_repositories')).toBe(0);
  });

  it.each([
    ['another host', 'https://gitlab.com/acme/widgets.git', 'body.url'],
    ['a page deeper than the repository', 'https://github.com/acme/widgets/tree/main', 'body.url'],
    ['plain http', 'http://github.com/acme/widgets.git', 'body.url'],
    ['not a URL', 'git@github.com:acme/widgets.git', 'body.url'],
  ])('a bad URL (%s) is 422 naming body.url, nothing stored', async (_name, url, path) => {
    const server = await start();
    const token = await paidKey();
    const refused = await register(server, token, { url, provider: 'github' });
    expect(refused.status).toBe(422);
    expect(refused.body.detail).toBe('Validation error');
    expect(refused.body.errors.map((e: { path: string }) => e.path)).toEqual([path]);
    expect(await countRows('source_repositories')).toBe(0);
    expect(await countRows('source_repository_jobs')).toBe(0);
  });

  it('an unknown field, an unknown provider and a second registration of one repository are refused', async () => {
    const server = await start();
    const token = await paidKey();
    expect((await register(server, token, { url: WIDGETS, provider: 'github', branch: 'main' })).body.errors[0].path).toBe('body');
    expect((await register(server, token, { url: WIDGETS, provider: 'svn' })).body.errors[0].path).toBe('body.provider');
    const first = await register(server, token, { url: WIDGETS, provider: 'github' });
    // The same repository written another way (page URL, other case) is the same repository.
    const again = await register(server, token, { url: 'https://github.com/acme/WIDGETS/', provider: 'github' });
    expect(again.status).toBe(409);
    expect(again.body).toEqual({ detail: `url: https://github.com/acme/WIDGETS.git is already registered as ${first.body.data.id}`, code: 'repository_already_registered' });
  });

  it("another organization's repository is 404 to read and to delete, and absent from its list", async () => {
    const server = await start();
    const acme = await paidKey('acme');
    const globex = await paidKey('globex');
    const id = (await register(server, acme, { url: WIDGETS, provider: 'github' })).body.data.id;
    // Globex may register the same repository: its own record, its own secret.
    const theirs = await register(server, globex, { url: WIDGETS, provider: 'github' });
    expect(theirs.status).toBe(201);
    expect(theirs.body.data.id).not.toBe(id);
    expect(await send(server, 'GET', `/v1/repositories/${id}`, { token: globex })).toMatchObject({ status: 404, body: { detail: 'repository not found', code: 'repository_not_found' } });
    expect(await send(server, 'DELETE', `/v1/repositories/${id}`, { token: globex })).toMatchObject({ status: 404, body: { detail: 'repository not found', code: 'repository_not_found' } });
    expect((await send(server, 'GET', '/v1/repositories', { token: globex })).body.repositories.map((r: { id: string }) => r.id)).toEqual([theirs.body.data.id]);
    // A malformed id names no repository either.
    expect(await send(server, 'GET', '/v1/repositories/repo_nope', { token: acme })).toMatchObject({ status: 404, body: { detail: 'repository not found', code: 'repository_not_found' } });
    expect((await send(server, 'GET', `/v1/repositories/${id}`, { token: acme })).status).toBe(200);
  });

  it('deletes a repository with its queued pushes; a second delete is 404', async () => {
    const server = await start();
    const token = await paidKey();
    const id = (await register(server, token, { url: WIDGETS, provider: 'github' })).body.data.id;
    const deleted = await send(server, 'DELETE', `/v1/repositories/${id}`, { token });
    expect(deleted.status).toBe(200);
    expect(deleted.body.id).toBe(id);
    expect(await countRows('source_repositories')).toBe(0);
    expect(await countRows('source_repository_jobs')).toBe(0);
    expect((await send(server, 'GET', `/v1/repositories/${id}`, { token })).status).toBe(404);
    expect((await send(server, 'DELETE', `/v1/repositories/${id}`, { token })).status).toBe(404);
  });

  it('needs the repositories scope, and a paid plan to register and read (not to delete)', async () => {
    const server = await start();
    const readOnly = await operatorKey(ctx.db(), ['--org', 'acme', '--plan', 'paid', '--scopes', 'read']);
    expect(await register(server, readOnly, { url: WIDGETS, provider: 'github' })).toMatchObject({ status: 403, body: { detail: "api key lacks 'repositories' scope", code: 'scope_missing' } });
    const free = await operatorKey(ctx.db(), ['--org', 'initech', '--scopes', 'repositories']);
    expect(await register(server, free, { url: WIDGETS, provider: 'github' })).toMatchObject({ status: 403, body: { detail: 'this endpoint requires a paid plan', code: 'paid_plan_required' } });
    expect((await send(server, 'GET', '/v1/repositories', { token: free })).status).toBe(403);
    expect((await send(server, 'DELETE', '/v1/repositories/repo_0000000000000000', { token: free })).status).toBe(404);
  });

  it('a registration repeated with its Idempotency-Key answers the same record and secret, and the stored answer is sealed', async () => {
    const server = await start();
    const token = await paidKey();
    const headers = { 'idempotency-key': 'register-widgets-1' };
    const first = await register(server, token, { url: WIDGETS, provider: 'github' }, headers);
    const replay = await register(server, token, { url: WIDGETS, provider: 'github' }, headers);
    expect(first.status).toBe(201);
    expect(replay.status).toBe(201);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.body).toEqual(first.body);
    expect(await countRows('source_repositories')).toBe(1);
    const stored = await ctx.db().selectFrom('idempotency_keys').select('body').executeTakeFirstOrThrow();
    expect(stored.body).not.toContain(first.body.data.webhook.secret);
  });

  describe('the GitHub hook', () => {
    async function registered(server: Server, org = 'acme') {
      const token = await paidKey(org);
      const created = await register(server, token, { url: WIDGETS, provider: 'github' });
      return { token, id: created.body.data.id as string, secret: created.body.data.webhook.secret as string };
    }

    it('refuses a delivery without a signature, or signed with another secret, with 401 and a clear detail', async () => {
      const server = await start();
      const { secret } = await registered(server);
      const unsigned = await hook(server, 'push', pushPayload(), null);
      expect(unsigned).toMatchObject({ status: 401, body: { detail: 'missing X-Hub-Signature-256 header', code: 'hook_signature_missing' } });
      const wrong = await hook(server, 'push', pushPayload(), (body) => sign('not the secret', body));
      expect(wrong).toMatchObject({ status: 401, body: { detail: "X-Hub-Signature-256 does not match the body signed with the repository's webhook secret", code: 'hook_signature_invalid' } });
      // Signed over other bytes than those sent (a proxy that re-serialized the JSON) fails the same way.
      const reserialized = await hook(server, 'push', pushPayload(), sign(secret, JSON.stringify(pushPayload(), null, 2)));
      expect(reserialized.status).toBe(401);
      expect((await hook(server, 'push', pushPayload(), 'sha1=abc')).status).toBe(401);
      expect(await countRows('source_repository_jobs')).toBe(1);
    });

    it('a repository nobody registered is 404 naming its URL', async () => {
      const server = await start();
      await registered(server);
      const payload = pushPayload({ repository: { clone_url: 'https://github.com/acme/other.git', default_branch: 'main' } });
      const answer = await hook(server, 'push', payload, (body) => sign('x', body));
      expect(answer).toMatchObject({ status: 404, body: { detail: 'repository: https://github.com/acme/other.git is not registered with Vigil' } });
    });

    it('answers ping with pong', async () => {
      const server = await start();
      const { id, secret } = await registered(server);
      const payload = { zen: 'Design for failure.', hook_id: 1, repository: pushPayload().repository };
      const pong = await hook(server, 'ping', payload, (body) => sign(secret, body), 'ping-1');
      expect(pong).toMatchObject({ status: 200, body: { status: 'pong', repository: id, delivery: 'ping-1', commit: null, reason: null } });
    });

    it('queues a push to the default branch once per delivery (202), and ignores other branches, deletions and other events', async () => {
      const server = await start();
      const { id, secret, token } = await registered(server);
      const signer = (body: string) => sign(secret, body);
      const queued = await hook(server, 'push', pushPayload(), signer, 'd-1');
      expect(queued).toMatchObject({ status: 202, body: { status: 'queued', repository: id, delivery: 'd-1', commit: sha(2), reason: null } });
      // GitHub's "Redeliver" repeats the delivery id: still one job.
      expect((await hook(server, 'push', pushPayload(), signer, 'd-1')).status).toBe(202);
      const jobs = await ctx.db().selectFrom('source_repository_jobs').selectAll().where('kind', '=', 'push').execute();
      expect(jobs).toMatchObject([{ repository_id: id, delivery_id: 'd-1', ref: 'refs/heads/main', before_commit: sha(1), commit_sha: sha(2), state: 'queued' }]);
      const record = await send(server, 'GET', `/v1/repositories/${id}`, { token });
      expect(record.body.last_push).toMatchObject({ delivery: 'd-1', ref: 'refs/heads/main', commit: sha(2), state: 'queued' });

      const feature = await hook(server, 'push', pushPayload({ ref: 'refs/heads/feature' }), signer, 'd-2');
      expect(feature).toMatchObject({ status: 200, body: { status: 'ignored', reason: 'refs/heads/feature is not the default branch (refs/heads/main)' } });
      const deletion = await hook(server, 'push', pushPayload({ deleted: true, after: '0'.repeat(40) }), signer, 'd-3');
      expect(deletion).toMatchObject({ status: 200, body: { status: 'ignored', reason: 'refs/heads/main was deleted' } });
      const issue = await hook(server, 'issues', { action: 'opened', repository: pushPayload().repository }, signer, 'd-4');
      expect(issue).toMatchObject({ status: 200, body: { status: 'ignored', reason: 'event issues is not handled; only push and ping are' } });
      expect(await ctx.db().selectFrom('source_repository_jobs').select('delivery_id').where('kind', '=', 'push').execute()).toEqual([{ delivery_id: 'd-1' }]);
    });

    it('finds the registration whose secret signed the delivery when two accounts watch one repository', async () => {
      const server = await start();
      await registered(server, 'acme');
      const globex = await registered(server, 'globex');
      const queued = await hook(server, 'push', pushPayload(), (body) => sign(globex.secret, body), 'd-9');
      expect(queued.body.repository).toBe(globex.id);
      const jobs = await ctx.db().selectFrom('source_repository_jobs').select('repository_id').where('kind', '=', 'push').execute();
      expect(jobs).toEqual([{ repository_id: globex.id }]);
    });

    it('refuses a body that is not JSON (400), a form-encoded delivery (415), and a push without its commit (422)', async () => {
      const server = await start();
      const { secret } = await registered(server);
      const notJson = await send(server, 'POST', '/v1/repositories/hooks/github', {
        body: '{"ref":',
        headers: { 'x-github-event': 'push', 'x-github-delivery': 'd', 'x-hub-signature-256': sign(secret, '{"ref":') },
      });
      expect(notJson).toMatchObject({ status: 400, body: { detail: 'malformed JSON body', code: 'bad_request' } });
      // Nested deeper than 64 levels: refused like any body that is not JSON, even when signed.
      const deep = JSON.stringify(pushPayload()).replace(/}$/, `,"extra":${'['.repeat(2_500)}${']'.repeat(2_500)}}`);
      const tooDeep = await send(server, 'POST', '/v1/repositories/hooks/github', {
        body: deep,
        headers: { 'x-github-event': 'push', 'x-github-delivery': 'd-deep', 'x-hub-signature-256': sign(secret, deep) },
      });
      expect(tooDeep).toMatchObject({ status: 400, body: { detail: 'malformed JSON body', code: 'bad_request' } });
      expect(await ctx.db().selectFrom('source_repository_jobs').select('delivery_id').where('kind', '=', 'push').execute()).toEqual([]);
      const form = await send(server, 'POST', '/v1/repositories/hooks/github', {
        body: 'payload=%7B%7D',
        headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-github-event': 'push', 'x-github-delivery': 'd', 'x-hub-signature-256': 'sha256=00' },
      });
      expect(form).toMatchObject({ status: 415, body: { detail: 'unsupported media type', code: 'unsupported_media_type' } });
      const noCommit = await hook(server, 'push', pushPayload({ after: 'main' }), (body) => sign(secret, body));
      expect(noCommit.status).toBe(422);
      expect(noCommit.body.errors).toEqual([{ path: 'body.after', message: 'expected the pushed commit (40 hex)' }]);
      const noEvent = await send(server, 'POST', '/v1/repositories/hooks/github', {
        body: '{}',
        headers: { 'x-github-delivery': 'd', 'x-hub-signature-256': sign(secret, '{}') },
      });
      expect(noEvent.body.errors[0].path).toBe('headers.x-github-event');
    });
  });
});
