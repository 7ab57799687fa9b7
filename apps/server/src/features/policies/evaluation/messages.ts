import type { PolicyDefinition } from '../cel/compile-policy.js';
import type { CelInput } from '../policy-input.js';
import type { PolicyOutcome } from '../cel/run-policy.js';

/** The main thread asks an evaluation thread to run `policy` on `inputs[from…]`. */
export interface EvaluationRequest {
  id: number;
  policy: PolicyDefinition;
  inputs: readonly CelInput[];
  from: number;
  /** Rules not to run, by index, with the error each reports (they overran their budget earlier in this evaluation). */
  skip: ReadonlyArray<readonly [number, string]>;
}

/** One package's outcome, as soon as it is known; `done` once every input from `from` on has one. */
export type EvaluationResponse = { id: number; kind: 'outcome'; index: number; outcome: PolicyOutcome } | { id: number; kind: 'done' };

/**
 * What the thread is doing, in a SharedArrayBuffer the watchdog reads without waiting for the
 * thread: the input and rule being evaluated, whether a rule is running, and since when.
 */
export const PROGRESS_INPUT = 0;
export const PROGRESS_RULE = 1;
export const PROGRESS_RUNNING = 2;
export const PROGRESS_INTS = 4;
/** Byte offset of the Float64 start time of the running rule (ms since the epoch) after the Int32 slots. */
export const PROGRESS_STARTED_AT_OFFSET = PROGRESS_INTS * 4;
/**
 * Byte offset of the Float64 time the thread took up its current request (0 until it does): the
 * evaluation's total budget counts from there, so the time a new thread takes to start (seconds
 * on a loaded machine) is not charged to the rules.
 */
export const PROGRESS_TAKEN_AT_OFFSET = PROGRESS_STARTED_AT_OFFSET + 8;
export const PROGRESS_BYTES = PROGRESS_TAKEN_AT_OFFSET + 8;
