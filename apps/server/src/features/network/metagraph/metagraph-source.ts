import { MetagraphSnapshot } from '@vigil/core';
import { MetagraphError } from './metagraph-error.js';

/** Something that can produce the current metagraph of one netuid. */
export interface MetagraphSource {
  /** A human-readable name for logs and error reasons, e.g. `file /etc/vigil/metagraph.json`. */
  readonly description: string;
  /**
   * Reads the metagraph now. Rejects with a `MetagraphError` when it cannot; callers that need
   * a fallback wrap the source in a `CachedMetagraph`.
   */
  snapshot(): Promise<MetagraphSnapshot>;
}

const MAX_LISTED_ISSUES = 5;

function issuePath(path: readonly PropertyKey[]): string {
  let out = '';
  for (const part of path) out += typeof part === 'number' ? `[${part}]` : `${out ? '.' : ''}${String(part)}`;
  return out || '(root)';
}

/**
 * Validates an untrusted value as a metagraph snapshot of `expectedNetuid`, beyond core's schema:
 * uids and hotkeys are unique, because a duplicated hotkey would make a permit lookup ambiguous.
 * The result is deep-frozen: lookups index snapshots by identity and must not see later edits.
 */
export function validateMetagraphSnapshot(value: unknown, source: string, expectedNetuid?: number): MetagraphSnapshot {
  const parsed = MetagraphSnapshot.safeParse(value);
  if (!parsed.success) {
    const issues = parsed.error.issues;
    const listed = issues
      .slice(0, MAX_LISTED_ISSUES)
      .map((issue) => `${issuePath(issue.path)}: ${issue.message}`)
      .join('; ');
    const more = issues.length > MAX_LISTED_ISSUES ? ` (and ${issues.length - MAX_LISTED_ISSUES} more)` : '';
    throw new MetagraphError('snapshot_invalid', source, `${source}: not a valid metagraph snapshot: ${listed}${more}`);
  }
  const snapshot = parsed.data;
  if (expectedNetuid !== undefined && snapshot.netuid !== expectedNetuid) {
    throw new MetagraphError(
      'snapshot_invalid',
      source,
      `${source}: snapshot is for netuid ${snapshot.netuid}, expected netuid ${expectedNetuid}`,
    );
  }
  const uids = new Set<number>();
  const hotkeys = new Set<string>();
  for (const [index, neuron] of snapshot.neurons.entries()) {
    if (uids.has(neuron.uid)) {
      throw new MetagraphError('snapshot_invalid', source, `${source}: neurons[${index}].uid ${neuron.uid} appears twice`);
    }
    if (hotkeys.has(neuron.hotkey)) {
      throw new MetagraphError(
        'snapshot_invalid',
        source,
        `${source}: neurons[${index}].hotkey ${neuron.hotkey} appears twice`,
      );
    }
    uids.add(neuron.uid);
    hotkeys.add(neuron.hotkey);
  }
  return deepFreeze(snapshot);
}

function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const inner of Object.values(value)) deepFreeze(inner);
  }
  return value;
}
