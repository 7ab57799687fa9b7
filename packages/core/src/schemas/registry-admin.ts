import * as z from 'zod';
import { TRACKS } from '../enums.js';
import { PackageRefString } from '../purl.js';
import { OffsetTimestamp } from '../timestamps.js';
import { ArtifactId } from './artifacts-api.js';

// The registry fetch queue as the operator sees it (docs/registries.md, "Operating the fetch queue";
// docs/accounts.md, "Admin API"). These are the queue's own states, finer than a verification's
// `fetch.state`: `queued` and `running` are both `fetching` there, `stored` is `queued_for_evaluation`.

export const REGISTRY_FETCH_STATES = ['queued', 'running', 'stored', 'failed'] as const;
export const RegistryFetchState = z.enum(REGISTRY_FETCH_STATES);
export type RegistryFetchState = z.infer<typeof RegistryFetchState>;

export const REGISTRY_FETCH_ECOSYSTEMS = ['npm', 'pypi'] as const;
export const RegistryFetchEcosystem = z.enum(REGISTRY_FETCH_ECOSYSTEMS);
export type RegistryFetchEcosystem = z.infer<typeof RegistryFetchEcosystem>;

/** `GET /v1/admin/registries/fetches` filters; the list is keyset-paged (X-Vigil-Page / X-Vigil-Next-Page). */
export const RegistryFetchListQuery = z.strictObject({
  state: RegistryFetchState.optional(),
  ecosystem: RegistryFetchEcosystem.optional(),
});
export type RegistryFetchListQuery = z.output<typeof RegistryFetchListQuery>;

/** One fetch of the queue. */
export const RegistryFetch = z.object({
  /** The canonical purl asked about (the queue's key). */
  purl: z.string(),
  ecosystem: RegistryFetchEcosystem,
  state: RegistryFetchState,
  /** Attempts made since the fetch was queued (or last retried by an operator). */
  attempts: z.int().min(0),
  /** `<cause>: <sentence>` of the last attempt that did not store; null before any, and once stored or retried. */
  last_error: z.string().nullable(),
  /** `queued`: when it is due; `running`: when its lease runs out (taken again then if its worker died); otherwise null. */
  next_attempt_at: OffsetTimestamp.nullable(),
  /** `stored`: the live artifact the bytes were stored as; otherwise null. */
  artifact_id: ArtifactId.nullable(),
  track: z.enum(TRACKS).nullable(),
  created_at: OffsetTimestamp,
  updated_at: OffsetTimestamp,
  stored_at: OffsetTimestamp.nullable(),
});
export type RegistryFetch = z.infer<typeof RegistryFetch>;

/** How many fetches are in each state, and how far behind the workers are. */
export const RegistryFetchSummary = z.object({
  server_time: OffsetTimestamp,
  /** Every fetch of the queue, whatever the filters; every state listed, 0 included. */
  counts: z.record(RegistryFetchState, z.int().min(0)),
  /** Fetches a worker could take now: `queued` ones whose time has come, `running` ones whose lease ran out. */
  due: z.int().min(0),
  /** When the longest-waiting of those became due; null when none is due. `server_time` minus this is how far behind the workers are. */
  oldest_due_at: OffsetTimestamp.nullable(),
});
export type RegistryFetchSummary = z.infer<typeof RegistryFetchSummary>;

/** `GET /v1/admin/registries/fetches`: the summary and one page of fetches, newest first. */
export const RegistryFetchList = RegistryFetchSummary.extend({ fetches: z.array(RegistryFetch) });
export type RegistryFetchList = z.infer<typeof RegistryFetchList>;

/** `POST /v1/admin/registries/fetches/retry`: one fetch by purl, or every failed one; exactly one of the two. */
export const RegistryFetchRetryRequest = z
  .strictObject({ purl: PackageRefString.optional(), state: z.literal('failed').optional() })
  .refine((body) => (body.purl === undefined) !== (body.state === undefined), { message: 'expected purl or state, not both' });
export type RegistryFetchRetryRequest = z.output<typeof RegistryFetchRetryRequest>;

/** The fetches put back to be fetched now, by purl (sorted). */
export const RegistryFetchRetried = z.object({
  retried: z.int().min(0),
  purls: z.array(z.string()),
});
export type RegistryFetchRetried = z.infer<typeof RegistryFetchRetried>;
