import type { ReferenceFetch } from '@vigil/core';

/** One pending answer handed to the registry fetches: its canonical purl and whether a counted claim names bytes for it. */
export interface PendingReference {
  purl: string;
  queued: boolean;
}

/**
 * What verification asks of on-demand registry fetching (features/registries implements it; the
 * server composes them in app.ts). Verification imports no registry code: it hands over its pending
 * answers and reads back where each reference's fetch stands.
 */
export interface ReferenceFetches {
  /**
   * Queues a fetch of every pending reference no counted claim names that it can fetch (npm and
   * PyPI, with a version), and answers the fetch of each pending reference Vigil fetched or is
   * fetching, by purl. References it has nothing for are absent from the map.
   */
  consult(pending: readonly PendingReference[]): Promise<Map<string, ReferenceFetch>>;
}
