import type * as z from 'zod';
import type { Dated } from '../dates.js';
import { Page, PagePromise } from '../pagination.js';
import type { CallOptions, PageOptions, RequestSpec, Transport } from '../transport.js';

/** One call, answered with its parsed body (timestamps as Date). */
export async function call<S extends z.ZodType>(transport: Transport, spec: RequestSpec<S>, options?: CallOptions): Promise<Dated<S>> {
  return (await transport.request(spec, options)).data;
}

/** A paginated GET: the items of each page picked from its body, later pages by `X-Vigil-Next-Page`. */
export function paginate<S extends z.ZodType, T>(
  transport: Transport,
  spec: Omit<RequestSpec<S>, 'paginated' | 'method' | 'repeatable'>,
  pick: (body: Dated<S>) => T[],
  options: PageOptions = {},
): PagePromise<T> {
  const load = async (page: string | number | undefined): Promise<Page<T>> => {
    const { page: _first, ...rest } = options;
    const answer = await transport.request({ ...spec, method: 'GET', repeatable: 'safe', paginated: true }, page === undefined ? rest : { ...rest, page });
    return new Page(pick(answer.data), answer.nextPage, (next) => load(next));
  };
  return new PagePromise(() => load(options.page));
}

/** A path segment from a caller's id: percent-encoded, and refused when empty. */
export function segment(value: unknown, argument: string): string {
  if (typeof value !== 'string' || value === '') throw new TypeError(`${argument}: expected a non-empty string`);
  return encodeURIComponent(value);
}
