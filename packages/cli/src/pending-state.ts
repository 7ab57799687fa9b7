import type { Dated } from '@vigil/client';
import type { ReferenceFetch } from '@vigil/core';
import { when } from './output.js';

/**
 * How `vigil verify` and `verify-repo` word a pending answer (docs/cli.md): where Vigil's own
 * registry fetch of it stands when it made one (docs/registries.md, "The fetch field"), else
 * whether Vigil holds its bytes.
 */
export function pendingState(queued: string, fetch: Dated<typeof ReferenceFetch> | undefined): string {
  if (fetch === undefined) return `pending (${queued})`;
  if (fetch.state === 'fetching') return `pending (fetching from the registry${fetch.reason === null ? '' : `, retrying: ${fetch.reason}`})`;
  if (fetch.state === 'queued_for_evaluation') return `pending (fetched, queued for evaluation${fetch.expected_by === null ? '' : `, verdict expected by ${when(fetch.expected_by)}`})`;
  return `pending (fetch failed: ${fetch.reason ?? 'no reason given'})`;
}
