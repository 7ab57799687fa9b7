import {
  WebhookCreated,
  WebhookDeliveryDetail,
  WebhookDeliveryList,
  WebhookDeliveryResponse,
  WebhookList,
  WebhookRecovered,
  WebhookResponse,
  WebhookSecretRotated,
} from '@vigil/core';
import type { WebhookCreateRequest, WebhookDeliveryState, WebhookUpdateRequest } from '@vigil/core';
import * as z from 'zod';
import type { Dated } from '../dates.js';
import type { PagePromise } from '../pagination.js';
import type { CallOptions, PageOptions, Transport } from '../transport.js';
import { call, paginate, segment } from './shared.js';

// The answers are `{"data": …}`: the methods answer what is inside.
type WebhookItem = typeof WebhookResponse.shape.data;
type DeliveryItem = typeof WebhookDeliveryResponse.shape.data;
/** `DELETE /v1/webhooks/{id}` answers 204 without a body. */
const NoContent = z.undefined();

/** `/v1/webhooks/{id}/deliveries*`. */
export class WebhookDeliveries {
  constructor(private readonly transport: Transport) {}

  /** The endpoint's deliveries, newest first (paginated), optionally in one `state` only. */
  list(webhookId: string, params: { state?: WebhookDeliveryState } = {}, options?: PageOptions): PagePromise<Dated<DeliveryItem>> {
    return paginate(
      this.transport,
      { path: `/v1/webhooks/${segment(webhookId, 'webhookId')}/deliveries`, query: { state: params.state }, schema: WebhookDeliveryList },
      (body) => body.data,
      options,
    );
  }

  /** One delivery with its attempts (`attempts_list`, oldest first). */
  async get(webhookId: string, deliveryId: string, options?: CallOptions): Promise<Dated<typeof WebhookDeliveryDetail.shape.data>> {
    const path = `/v1/webhooks/${segment(webhookId, 'webhookId')}/deliveries/${segment(deliveryId, 'deliveryId')}`;
    return (await call(this.transport, { method: 'GET', path, schema: WebhookDeliveryDetail, repeatable: 'safe' }, options)).data;
  }
}

/** `/v1/webhooks*` (docs/webhooks.md; scope `webhooks`). */
export class Webhooks {
  readonly deliveries: WebhookDeliveries;

  constructor(private readonly transport: Transport) {
    this.deliveries = new WebhookDeliveries(transport);
  }

  /** A new endpoint; its signing `secret` is in this answer only. */
  async create(params: WebhookCreateRequest, options?: CallOptions): Promise<Dated<typeof WebhookCreated.shape.data>> {
    return (await call(this.transport, { method: 'POST', path: '/v1/webhooks', body: { json: params }, schema: WebhookCreated, repeatable: 'keyed' }, options)).data;
  }

  /** The account's endpoints, oldest first (paginated). */
  list(options?: PageOptions): PagePromise<Dated<WebhookItem>> {
    return paginate(this.transport, { path: '/v1/webhooks', schema: WebhookList }, (body) => body.data, options);
  }

  get(webhookId: string, options?: CallOptions): Promise<Dated<WebhookItem>> {
    return this.#one('GET', webhookId, '', undefined, options);
  }

  /** Changes any of `url`, `events`, `active` (`active: true` also re-enables an endpoint Vigil disabled). */
  update(webhookId: string, params: WebhookUpdateRequest, options?: CallOptions): Promise<Dated<WebhookItem>> {
    // POST is the same operation as PATCH (docs/webhooks.md, "Update").
    return this.#one('POST', webhookId, '', params, options);
  }

  /** Removes the endpoint, its secrets and its deliveries. */
  async delete(webhookId: string, options?: CallOptions): Promise<void> {
    await call(this.transport, { method: 'DELETE', path: `/v1/webhooks/${segment(webhookId, 'webhookId')}`, schema: NoContent, repeatable: 'keyed' }, options);
  }

  /** A new signing secret (in this answer only); the previous one keeps signing for `overlap_seconds` (default 86400). */
  async rotateSecret(webhookId: string, params: { overlap_seconds?: number } = {}, options?: CallOptions): Promise<Dated<typeof WebhookSecretRotated.shape.data>> {
    const path = `/v1/webhooks/${segment(webhookId, 'webhookId')}/rotate-secret`;
    return (await call(this.transport, { method: 'POST', path, body: { json: params }, schema: WebhookSecretRotated, repeatable: 'keyed' }, options)).data;
  }

  /** Ends a rotation overlap now: only the new secret signs from then on. */
  revokePreviousSecret(webhookId: string, options?: CallOptions): Promise<Dated<WebhookItem>> {
    return this.#one('POST', webhookId, '/revoke-previous-secret', undefined, options);
  }

  /** Sends a `webhook.test` event to this endpoint only; answers the delivery (state `pending`). */
  test(webhookId: string, options?: CallOptions): Promise<Dated<DeliveryItem>> {
    return this.#delivery(`/v1/webhooks/${segment(webhookId, 'webhookId')}/test`, options);
  }

  /** Sends a delivery again, with the same delivery id and body. */
  redeliver(webhookId: string, deliveryId: string, options?: CallOptions): Promise<Dated<DeliveryItem>> {
    return this.#delivery(`/v1/webhooks/${segment(webhookId, 'webhookId')}/deliveries/${segment(deliveryId, 'deliveryId')}/redeliver`, options);
  }

  /** One more attempt for every `failed` delivery created at or after `since`; answers how many. */
  async recover(webhookId: string, params: { since: Date | string }, options?: CallOptions): Promise<{ requeued: number }> {
    const since = params.since instanceof Date ? params.since.toISOString().replace(/Z$/, '+00:00') : params.since;
    const path = `/v1/webhooks/${segment(webhookId, 'webhookId')}/recover`;
    return (await call(this.transport, { method: 'POST', path, body: { json: { since } }, schema: WebhookRecovered, repeatable: 'keyed' }, options)).data;
  }

  async #one(method: 'GET' | 'POST', webhookId: string, suffix: string, json: unknown, options?: CallOptions): Promise<Dated<WebhookItem>> {
    const path = `/v1/webhooks/${segment(webhookId, 'webhookId')}${suffix}`;
    const body = json === undefined ? {} : { body: { json } };
    return (await call(this.transport, { method, path, ...body, schema: WebhookResponse, repeatable: method === 'GET' ? 'safe' : 'keyed' }, options)).data;
  }

  async #delivery(path: string, options?: CallOptions): Promise<Dated<DeliveryItem>> {
    return (await call(this.transport, { method: 'POST', path, schema: WebhookDeliveryResponse, repeatable: 'keyed' }, options)).data;
  }
}


