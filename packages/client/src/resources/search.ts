import { SearchResults } from '@vigil/core';
import type { SearchKind } from '@vigil/core';
import type { Dated } from '../dates.js';
import type { PagePromise } from '../pagination.js';
import type { PageOptions, Transport } from '../transport.js';
import { paginate } from './shared.js';

export interface SearchParams {
  /** 1-256 characters with at least one letter or digit; every word must match (docs/search.md). */
  q: string;
  kind?: SearchKind;
}

export type SearchResultItem = Dated<typeof SearchResults>['results'][number];

/** `GET /v1/search`, best first (keyset pages; scope `read`). */
export function searchWith(transport: Transport): (params: SearchParams, options?: PageOptions) => PagePromise<SearchResultItem> {
  return (params, options) => {
    if (typeof params !== 'object' || params === null) throw new TypeError('params: expected { q, kind? }');
    return paginate(transport, { path: '/v1/search', query: { q: params.q, kind: params.kind }, schema: SearchResults }, (body) => body.results, options);
  };
}
