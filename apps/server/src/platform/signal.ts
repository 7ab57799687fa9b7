/**
 * A wake-up call between the HTTP side and a worker in the same process (a push queued, a fetch
 * queued): the route notifies, the worker (when this process runs one) listens. Nobody listening is
 * fine: another process's worker finds the work on its next poll.
 */
export interface Signal {
  notify(): void;
  /** Returns the function that stops listening. */
  listen(listener: () => void): () => void;
}

export function createSignal(): Signal {
  const listeners = new Set<() => void>();
  return {
    notify() {
      for (const listener of listeners) listener();
    },
    listen(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
