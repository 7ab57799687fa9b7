import { WatchList, WatchResponse } from '@vigil/core';
import * as z from 'zod';
import type { Dated } from '../dates.js';
import type { PagePromise } from '../pagination.js';
import type { CallOptions, PageOptions, Transport } from '../transport.js';
import { call, paginate, segment } from './shared.js';

// The answers are `{"data": …}`: the methods answer what is inside.
type WatchItem = typeof WatchResponse.shape.data;
/** `DELETE /v1/watches/{id}` answers 204 without a body. */
const NoContent = z.undefined();

/** `/v1/watches*` (docs/watches.md; scope `verify`, `paid` plan): package names whose new releases Vigil fetches and judges at once. */
export class Watches {
  constructor(private readonly transport: Transport) {}

  /**
   * Watches a package name: `npm:left-pad`, `npm:@scope/x`, `pypi:requests`, or a purl without version.
   * Answers the new watch, or the one the account already has for that name.
   */
  async create(params: { package: string }, options?: CallOptions): Promise<Dated<WatchItem>> {
    return (await call(this.transport, { method: 'POST', path: '/v1/watches', body: { json: params }, schema: WatchResponse, repeatable: 'keyed' }, options)).data;
  }

  /** The account's watches, oldest first (paginated), each with where the watcher stands on its name. */
  list(options?: PageOptions): PagePromise<Dated<WatchItem>> {
    return paginate(this.transport, { path: '/v1/watches', schema: WatchList }, (body) => body.data, options);
  }

  /** Stops watching. */
  async delete(watchId: string, options?: CallOptions): Promise<void> {
    await call(this.transport, { method: 'DELETE', path: `/v1/watches/${segment(watchId, 'watchId')}`, schema: NoContent, repeatable: 'keyed' }, options);
  }
}
