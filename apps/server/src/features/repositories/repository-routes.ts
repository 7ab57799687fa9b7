import {
  Repository,
  RepositoryHookAnswer,
  RepositoryIdParams,
  RepositoryList,
  RepositoryRegistered,
  RepositoryRegistrationRequest,
  RepositoryVerification,
  RepositoryVerifyRequest,
} from '@vigil/core';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Kysely } from 'kysely';
import type { Database } from '../../platform/db/schema.js';
import type { PolicyInputSources } from '../policies/index.js';
import type { SecretBox } from '../../platform/secrets/secret-box.js';
import { receiveGithubHook } from './github-hooks.js';
import { lastRepositoryVerification, verifyRepositoryRequest } from './verify-repository-request.js';
import { deleteRepository, getRepository, GITHUB_HOOK_PATH, listRepositories, registerRepository } from './source-repositories.js';
import { readPage, sendPageHeaders } from '../../platform/http/pagination.js';
import '../../platform/http/route-config.js';
import { notFoundWhenInvalid } from '../../platform/http/zod-compilers.js';
import { principalOf } from '../accounts/index.js';
import type { ReferenceFetches } from '../artifacts/index.js';

export interface RepositoryRoutesOptions {
  db: Kysely<Database>;
  secrets: SecretBox;
  /** The runtime's one clock, epoch ms. */
  clock: () => number;
  /** Called once a push is queued, so this process's worker picks it up without waiting for its next poll. */
  onPushQueued: () => void;
  /** What policy evaluation reads beyond verdicts (`POST /v1/repositories/verify`). */
  policySources: PolicyInputSources;
  /** On-demand registry fetching of unseen references (features/registries); absent, none. */
  fetches?: ReferenceFetches;
}

/** GitHub caps a webhook payload at 25 MB; nothing larger is a GitHub delivery. */
export const GITHUB_HOOK_BODY_LIMIT_BYTES = 25 * 1024 * 1024;

// An id that is not `repo_<16 hex>` names no repository: the same 404 as an unknown one.
notFoundWhenInvalid.add(RepositoryIdParams, { code: 'repository_not_found' });

const READ = { apiKey: { scope: 'repositories', plan: 'paid' } } as const;

/**
 * Source-code repositories (docs/repositories.md): registration for continuous verification, reads,
 * deletion, and GitHub's push hook, which authenticates by its signature rather than an API key.
 */
export const repositoryRoutes: FastifyPluginAsyncZod<RepositoryRoutesOptions> = async (app, { db, secrets, clock, onPushQueued, policySources, fetches }) => {
  app.post(
    '/v1/repositories',
    {
      schema: {
        summary: 'Register a repository for continuous verification; the webhook secret is in this answer only',
        body: RepositoryRegistrationRequest,
        response: { 201: RepositoryRegistered },
      },
      // The answer holds the webhook secret: a replay's stored copy is sealed like the secret itself.
      config: { ...READ, idempotent: 'sealed' },
    },
    async (request, reply) => {
      const principal = principalOf(request);
      const registered = await registerRepository(db, secrets, {
        accountId: principal.accountId,
        accountKind: principal.accountKind,
        url: request.body.url,
        provider: request.body.provider,
        policy: request.body.policy ?? null,
        now: clock(),
      });
      onPushQueued();
      return reply.code(201).send({ data: { ...registered.repository, webhook: registered.webhook } });
    },
  );

  app.get(
    '/v1/repositories',
    { schema: { summary: "The account's repositories, oldest first (paginated)", response: { 200: RepositoryList } }, config: READ },
    async (request, reply) => {
      const page = readPage(request);
      const rows = await listRepositories(db, principalOf(request).accountId, { offset: (page.page - 1) * page.size, limit: page.size + 1 });
      sendPageHeaders(reply, page, rows.length > page.size);
      return { repositories: rows.slice(0, page.size) };
    },
  );

  app.get(
    '/v1/repositories/:id',
    {
      schema: { summary: 'A repository with its last verification and last push', params: RepositoryIdParams, response: { 200: Repository } },
      config: READ,
    },
    async (request) => getRepository(db, principalOf(request).accountId, request.params.id),
  );

  app.get(
    '/v1/repositories/:id/verification',
    {
      schema: { summary: "The repository's last stored verification, every file and dependency", params: RepositoryIdParams, response: { 200: RepositoryVerification } },
      config: READ,
    },
    async (request) => lastRepositoryVerification(db, principalOf(request).accountId, request.params.id),
  );

  app.post(
    '/v1/repositories/verify',
    {
      schema: {
        summary: 'Verify what lockfiles install (posted, or a registered repository’s last push) under a policy',
        body: RepositoryVerifyRequest,
        response: { 200: RepositoryVerification },
      },
      // Changes nothing a repeat could double (it answers, and records which packages were asked for).
      config: READ,
    },
    async (request) => verifyRepositoryRequest({ db, sources: policySources, ...(fetches ? { fetches } : {}) }, principalOf(request), request.body, clock()),
  );

  app.delete(
    '/v1/repositories/:id',
    {
      schema: { summary: 'Stop verifying a repository and delete what Vigil kept for it', params: RepositoryIdParams, response: { 200: Repository } },
      // Any plan: an account that left the paid plan can still remove what it registered.
      config: { apiKey: { scope: 'repositories' }, idempotent: true },
    },
    async (request) => deleteRepository(db, principalOf(request).accountId, request.params.id),
  );

  await app.register(async (hooks) => {
    // The signature covers the exact bytes GitHub sent: keep them, parse later.
    hooks.removeContentTypeParser('application/json');
    hooks.addContentTypeParser('application/json', { parseAs: 'buffer', bodyLimit: GITHUB_HOOK_BODY_LIMIT_BYTES }, (_request, body, done) => done(null, body));
    hooks.post(
      GITHUB_HOOK_PATH,
      {
        schema: { summary: "GitHub's repository webhook (push and ping), authenticated by X-Hub-Signature-256", response: { 200: RepositoryHookAnswer, 202: RepositoryHookAnswer } },
        bodyLimit: GITHUB_HOOK_BODY_LIMIT_BYTES,
        config: { bodyLimitBytes: GITHUB_HOOK_BODY_LIMIT_BYTES },
      },
      async (request, reply) => {
        const header = (name: string) => {
          const value = request.headers[name];
          return Array.isArray(value) ? value.join(',') : value;
        };
        const outcome = await receiveGithubHook(db, secrets, {
          event: header('x-github-event'),
          delivery: header('x-github-delivery'),
          signature: header('x-hub-signature-256'),
          rawBody: Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0),
          now: clock(),
        });
        if (outcome.status === 202) onPushQueued();
        return reply.code(outcome.status).send(outcome.answer);
      },
    );
  });
};
