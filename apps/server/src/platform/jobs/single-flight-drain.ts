/**
 * One drain of a work queue at a time, for the workers that claim durable jobs (repository pushes,
 * registry fetches): a call while a drain runs joins it and asks for one more pass, so work queued
 * meanwhile is picked up without a second drain running beside the first.
 */
export interface SingleFlightDrain {
  /** Runs passes of `pass` until one ends with no new call made meanwhile (or `stopped()`); resolves to their summed count. */
  readonly drain: () => Promise<number>;
  /** The drain in progress, if any (a worker's stop() awaits it). */
  readonly inFlight: Promise<number> | undefined;
}

export function singleFlightDrain(pass: () => Promise<number>, stopped: () => boolean): SingleFlightDrain {
  let inFlight: Promise<number> | undefined;
  let again = false;
  return {
    drain() {
      if (inFlight !== undefined) {
        // Work queued while a drain runs is picked up by one more pass of it.
        again = true;
        return inFlight;
      }
      inFlight = (async () => {
        let total = 0;
        do {
          again = false;
          total += await pass();
        } while (again && !stopped());
        return total;
      })().finally(() => {
        inFlight = undefined;
      });
      return inFlight;
    },
    get inFlight() {
      return inFlight;
    },
  };
}
