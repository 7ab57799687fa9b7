import {
  EventFeed,
  EventFeedQuery,
  HEADERS,
  parseTimestamp,
  WebhookCreated,
  WebhookCreateRequest,
  WebhookDeliveryDetail,
  WebhookDeliveryList,
  WebhookDeliveryListQuery,
  WebhookDeliveryParams,
  WebhookDeliveryResponse,
  WebhookIdParams,
  WebhookList,
  WebhookRecovered,
  WebhookRecoverRequest,
  WebhookResponse,
  WebhookRotateSecretRequest,
  WebhookNoArgumentsRequest,
  WebhookSecretRotated,
  WebhookUpdateRequest,
} from '@vigil/core';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Kysely } from 'kysely';
import type { Database } from '../../platform/db/schema.js';
import type { SecretBox } from '../../platform/secrets/secret-box.js';
import { decodeEventCursor, newestEventCursor, readEventFeed } from './events-feed.js';
import { VigilError } from '../../platform/errors.js';
import { getDelivery, listDeliveries, recoverDeliveries, redeliver, sendTestEvent } from './webhook-deliveries.js';
import {
  createWebhook,
  deleteWebhook,
  getWebhook,
  listWebhooks,
  revokePreviousWebhookSecret,
  rotateWebhookSecret,
  updateWebhook,
  type WebhookUrlPolicy,
} from './webhook-endpoints.js';
import type { WebhookSettings } from './webhook-settings.js';
import { systemResolver, type HostResolver } from './dispatch/address-policy.js';
import { readPage, readPageSize, sendPageHeaders } from '../../platform/http/pagination.js';
import '../../platform/http/route-config.js';
import { notFoundWhenInvalid } from '../../platform/http/zod-compilers.js';
import { actorOf, principalOf } from '../accounts/index.js';

export interface WebhookRoutesOptions {
  db: Kysely<Database>;
  secrets: SecretBox;
  /** The runtime's one clock, epoch ms. */
  clock: () => number;
  settings: Pick<WebhookSettings, 'allowHttp' | 'allowPrivate' | 'retentionDays' | 'maxEndpointsPerAccount'>;
  /** How endpoint host names resolve for the URL check (the system resolver by default). */
  resolver?: HostResolver;
}

// An id that cannot name an endpoint or a delivery is the same 404 as an unknown one.
notFoundWhenInvalid.add(WebhookIdParams, { code: 'webhook_not_found' });
notFoundWhenInvalid.add(WebhookDeliveryParams, { code: 'webhook_delivery_not_found' });

const WEBHOOKS = { apiKey: { scope: 'webhooks' } } as const;

const RotateBody = WebhookRotateSecretRequest.optional();

/**
 * Webhook endpoints and their deliveries (docs/webhooks.md), and the events feed: an account's own
 * endpoints only (another account's id is `webhook not found`), with a `webhooks`-scoped key.
 */
export const webhookRoutes: FastifyPluginAsyncZod<WebhookRoutesOptions> = async (app, { db, secrets, clock, settings, resolver }) => {
  const policy: WebhookUrlPolicy = { allowHttp: settings.allowHttp, allowPrivate: settings.allowPrivate, resolver: resolver ?? systemResolver };
  const writer = (request: FastifyRequest) => ({ accountId: principalOf(request).accountId, actor: actorOf(request), now: clock() });
  const account = (request: FastifyRequest) => principalOf(request).accountId;

  app.post(
    '/v1/webhooks',
    {
      schema: { summary: 'Create a webhook endpoint; its signing secret is in this answer only', body: WebhookCreateRequest, response: { 201: WebhookCreated } },
      // The answer holds the secret: a replay's stored copy is sealed like the secret itself.
      config: { ...WEBHOOKS, idempotent: 'sealed' },
    },
    async (request, reply) => reply.code(201).send({ data: await createWebhook(db, secrets, policy, request.body, writer(request), settings.maxEndpointsPerAccount) }),
  );

  app.get(
    '/v1/webhooks',
    { schema: { summary: "The account's webhook endpoints, oldest first (paginated)", response: { 200: WebhookList } }, config: WEBHOOKS },
    async (request, reply) => {
      const page = readPage(request);
      const rows = await listWebhooks(db, account(request), { offset: (page.page - 1) * page.size, limit: page.size + 1 }, clock());
      sendPageHeaders(reply, page, rows.length > page.size);
      return { data: rows.slice(0, page.size) };
    },
  );

  app.get(
    '/v1/webhooks/:id',
    { schema: { summary: 'A webhook endpoint', params: WebhookIdParams, response: { 200: WebhookResponse } }, config: WEBHOOKS },
    async (request) => ({ data: await getWebhook(db, account(request), request.params.id, clock()) }),
  );

  const update = {
    schema: { summary: 'Update a webhook endpoint (url, events, active)', params: WebhookIdParams, body: WebhookUpdateRequest, response: { 200: WebhookResponse } },
    config: { ...WEBHOOKS, idempotent: true },
  } as const;
  const updateHandler = async (request: FastifyRequest<{ Params: WebhookIdParams; Body: WebhookUpdateRequest }>) => ({
    data: await updateWebhook(db, policy, request.params.id, request.body, writer(request)),
  });
  app.patch('/v1/webhooks/:id', update, updateHandler);
  // Browsers may only send GET, POST and DELETE across origins (spec part 5): POST updates too.
  app.post('/v1/webhooks/:id', update, updateHandler);

  app.delete(
    '/v1/webhooks/:id',
    { schema: { summary: 'Delete a webhook endpoint and its deliveries (204)', params: WebhookIdParams }, config: { ...WEBHOOKS, idempotent: true } },
    async (request, reply) => {
      await deleteWebhook(db, request.params.id, writer(request));
      return reply.code(204).send();
    },
  );

  app.post(
    '/v1/webhooks/:id/rotate-secret',
    {
      schema: { summary: 'Rotate the signing secret; the new one is in this answer only', params: WebhookIdParams, body: RotateBody, response: { 200: WebhookSecretRotated } },
      config: { ...WEBHOOKS, idempotent: 'sealed' },
    },
    async (request) => ({
      data: await rotateWebhookSecret(db, secrets, request.params.id, request.body?.overlap_seconds ?? WebhookRotateSecretRequest.parse({}).overlap_seconds, writer(request)),
    }),
  );

  app.post(
    '/v1/webhooks/:id/revoke-previous-secret',
    { schema: { summary: 'End a secret rotation overlap now', params: WebhookIdParams, body: WebhookNoArgumentsRequest, response: { 200: WebhookResponse } }, config: { ...WEBHOOKS, idempotent: true } },
    async (request) => ({ data: await revokePreviousWebhookSecret(db, request.params.id, writer(request)) }),
  );

  app.post(
    '/v1/webhooks/:id/test',
    { schema: { summary: 'Send a webhook.test event to this endpoint', params: WebhookIdParams, body: WebhookNoArgumentsRequest, response: { 202: WebhookDeliveryResponse } }, config: { ...WEBHOOKS, idempotent: true } },
    async (request, reply) => reply.code(202).send({ data: await sendTestEvent(db, account(request), request.params.id, clock()) }),
  );

  app.get(
    '/v1/webhooks/:id/deliveries',
    {
      schema: { summary: "An endpoint's deliveries, newest first (paginated)", params: WebhookIdParams, querystring: WebhookDeliveryListQuery, response: { 200: WebhookDeliveryList } },
      config: WEBHOOKS,
    },
    async (request, reply) => {
      const page = readPage(request);
      const rows = await listDeliveries(db, account(request), request.params.id, { state: request.query.state, offset: (page.page - 1) * page.size, limit: page.size + 1 });
      sendPageHeaders(reply, page, rows.length > page.size);
      return { data: rows.slice(0, page.size) };
    },
  );

  app.get(
    '/v1/webhooks/:id/deliveries/:delivery_id',
    { schema: { summary: 'A delivery with every attempt', params: WebhookDeliveryParams, response: { 200: WebhookDeliveryDetail } }, config: WEBHOOKS },
    async (request) => ({ data: await getDelivery(db, account(request), request.params.id, request.params.delivery_id) }),
  );

  app.post(
    '/v1/webhooks/:id/deliveries/:delivery_id/redeliver',
    { schema: { summary: 'Send a delivery again now (same delivery id)', params: WebhookDeliveryParams, body: WebhookNoArgumentsRequest, response: { 202: WebhookDeliveryResponse } }, config: { ...WEBHOOKS, idempotent: true } },
    async (request, reply) => reply.code(202).send({ data: await redeliver(db, account(request), request.params.id, request.params.delivery_id, clock()) }),
  );

  app.post(
    '/v1/webhooks/:id/recover',
    {
      schema: { summary: 'Send every failed delivery since a time again', params: WebhookIdParams, body: WebhookRecoverRequest, response: { 202: WebhookRecovered } },
      config: { ...WEBHOOKS, idempotent: true },
    },
    async (request, reply) =>
      reply.code(202).send({ data: { requeued: await recoverDeliveries(db, account(request), request.params.id, parseTimestamp(request.body.since).getTime(), clock()) } }),
  );

  app.get(
    '/v1/events',
    { schema: { summary: "The account's events, oldest first, after a cursor", querystring: EventFeedQuery, response: { 200: EventFeed } }, config: WEBHOOKS },
    async (request, reply) => {
      const limit = request.query.limit ?? readPageSize(request);
      // A spec-style client sends the previous X-Vigil-Next-Page back as X-Vigil-Page.
      const pageHeader = request.headers[HEADERS.page.toLowerCase()];
      const fromHeader = typeof pageHeader === 'string' && pageHeader.trim() !== '1' ? pageHeader.trim() : undefined;
      if (request.query.from === 'newest') {
        if (fromHeader !== undefined) {
          throw new VigilError('validation_error', { issues: [{ path: 'query.from', message: `not with ${HEADERS.page} (both say where to start)` }] });
        }
        reply.header(HEADERS.pageSize, String(limit));
        return { data: [], next_cursor: await newestEventCursor(db, secrets, clock()) };
      }
      const after =
        request.query.after !== undefined
          ? decodeEventCursor(secrets, request.query.after)
          : fromHeader !== undefined
            ? decodeEventCursor(secrets, fromHeader, `headers.${HEADERS.page.toLowerCase()}`)
            : null;
      const page = await readEventFeed(db, secrets, account(request), {
        after,
        types: request.query.types,
        limit,
        now: clock(),
        retentionMs: settings.retentionDays * 24 * 3600 * 1000,
      });
      reply.header(HEADERS.pageSize, String(limit));
      if (page.hasMore) reply.header(HEADERS.nextPage, page.nextCursor);
      return { data: page.events, next_cursor: page.nextCursor };
    },
  );
};
