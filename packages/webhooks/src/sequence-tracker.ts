/** Where an event stands in its resource's `sequence` (1, 2, 3 … per resource in commit order). */
export type SequenceObservation =
  /** The next one expected (or the first seen of a resource the tracker did not know). */
  | { status: 'in_order'; resource: string; sequence: number }
  /** Seen before: a redelivery. */
  | { status: 'duplicate'; resource: string; sequence: number }
  /**
   * Beyond the next expected: `expected` is the lowest sequence not yet seen, `missing` every
   * range not yet seen below `received`. They may still come (deliveries can overtake one
   * another) or be read from `GET /v1/events`.
   */
  | { status: 'gap'; resource: string; sequence: number; expected: number; received: number; missing: SequenceRange[] }
  /** One that was missing arrived late; `missing` is what is still missing below the highest seen. */
  | { status: 'late'; resource: string; sequence: number; missing: SequenceRange[] };

/** Sequences `from` to `to`, both included. */
export interface SequenceRange {
  from: number;
  to: number;
}

export interface SequenceTrackerOptions {
  /**
   * False (default): the first event the tracker sees for a resource sets its baseline, whatever
   * its sequence (a receiver that starts late does not report the history it never subscribed
   * to). True: every resource is expected to start at 1.
   */
  strictStart?: boolean;
  /** Resources remembered; past it the least recently seen is forgotten. Default 100 000. */
  maxResources?: number;
}

interface ResourceState {
  /** Every sequence up to this one has been seen. */
  contiguous: number;
  /** Sequences above `contiguous` that have been seen. */
  ahead: Set<number>;
  /** The highest sequence seen. */
  highest: number;
}

/**
 * Per-resource gap detection over `resource` and `sequence` of each event. Kept in memory: a
 * receiver that must survive restarts stores `lastContiguous(resource)` with its own data and
 * seeds a new tracker with `seed`.
 */
export class SequenceTracker {
  readonly #strictStart: boolean;
  readonly #maxResources: number;
  readonly #resources = new Map<string, ResourceState>();

  constructor(options: SequenceTrackerOptions = {}) {
    this.#strictStart = options.strictStart ?? false;
    this.#maxResources = options.maxResources ?? 100_000;
    if (!Number.isSafeInteger(this.#maxResources) || this.#maxResources < 1) {
      throw new RangeError(`maxResources: expected a positive integer, got ${String(options.maxResources)}`);
    }
  }

  /** Records one event (anything with `resource` and `sequence`, such as a `WebhookEvent`) and says where it stands. */
  observe(event: { resource: string; sequence: number }): SequenceObservation {
    const { resource, sequence } = event;
    if (typeof resource !== 'string' || !Number.isSafeInteger(sequence) || sequence < 1) {
      throw new RangeError('event: expected a string resource and an integer sequence >= 1');
    }
    let state = this.#resources.get(resource);
    if (state === undefined) {
      const contiguous = this.#strictStart ? 0 : sequence - 1;
      state = { contiguous, ahead: new Set(), highest: contiguous };
    }
    this.#touch(resource, state);

    if (sequence <= state.contiguous || state.ahead.has(sequence)) return { status: 'duplicate', resource, sequence };
    if (sequence === state.contiguous + 1) {
      const filledGap = state.ahead.size > 0;
      state.contiguous = sequence;
      while (state.ahead.delete(state.contiguous + 1)) state.contiguous += 1;
      state.highest = Math.max(state.highest, state.contiguous);
      return filledGap ? { status: 'late', resource, sequence, missing: missingOf(state) } : { status: 'in_order', resource, sequence };
    }
    state.ahead.add(sequence);
    if (sequence < state.highest) return { status: 'late', resource, sequence, missing: missingOf(state) };
    state.highest = sequence;
    return { status: 'gap', resource, sequence, expected: state.contiguous + 1, received: sequence, missing: missingOf(state) };
  }

  /** The highest sequence up to which nothing is missing, or undefined for a resource not seen. */
  lastContiguous(resource: string): number | undefined {
    return this.#resources.get(resource)?.contiguous;
  }

  /** Ranges still missing below the highest sequence seen for the resource (empty when none). */
  missing(resource: string): SequenceRange[] {
    const state = this.#resources.get(resource);
    return state === undefined ? [] : missingOf(state);
  }

  /** Starts a resource from stored state: everything up to `lastContiguous` counts as seen. */
  seed(resource: string, lastContiguous: number): void {
    if (!Number.isSafeInteger(lastContiguous) || lastContiguous < 0) {
      throw new RangeError(`lastContiguous: expected an integer >= 0, got ${String(lastContiguous)}`);
    }
    this.#touch(resource, { contiguous: lastContiguous, ahead: new Set(), highest: lastContiguous });
  }

  #touch(resource: string, state: ResourceState): void {
    // Re-inserting keeps the Map in least-recently-seen order, so eviction drops the stalest.
    this.#resources.delete(resource);
    this.#resources.set(resource, state);
    if (this.#resources.size > this.#maxResources) {
      this.#resources.delete(this.#resources.keys().next().value as string);
    }
  }
}

/** Ranges, not lists: one event far ahead must not make an array of every number in between. */
function missingOf(state: ResourceState): SequenceRange[] {
  const seen = [...state.ahead].sort((a, b) => a - b);
  const missing: SequenceRange[] = [];
  let next = state.contiguous + 1;
  for (const sequence of seen) {
    if (sequence > next) missing.push({ from: next, to: sequence - 1 });
    next = sequence + 1;
  }
  return missing;
}
