import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import { describeFailure, type Failure } from '../api.js';
import { retryDelaySeconds } from './retry.js';

export type Resource<T> =
  | { status: 'loading' }
  | { status: 'ok'; data: T; fetchedAt: number }
  /** `data` is the last good answer, still shown while the failure is explained beside it. */
  | { status: 'error'; failure: Failure; data: T | undefined; retryAt: number | null };

/**
 * Reads `load` when `key` changes, then again every `pollSeconds` (null: once) while the page is
 * visible. A hidden tab does not poll; it reads once when it becomes visible if a poll fell due.
 * Failures are retried as `retryDelaySeconds` says (429: after Retry-After; 5xx and an unreachable
 * server with backoff from 30 s, counting the failures in a row of this key).
 */
export function useResource<T>(
  key: string,
  load: (signal: AbortSignal) => Promise<T>,
  pollSeconds: number | null,
): { resource: Resource<T>; reload: () => void } {
  const [resource, setResource] = useState<Resource<T>>({ status: 'loading' });
  const [attempt, setAttempt] = useState(0);
  const loadRef = useRef(load);
  loadRef.current = load;
  const lastData = useRef<{ key: string; data: T } | null>(null);
  /** Failed reads in a row of this key: the backoff of retryDelaySeconds. */
  const failures = useRef<{ key: string; count: number }>({ key, count: 0 });

  useEffect(() => {
    const controller = new AbortController();
    let timer: ReturnType<typeof setTimeout> | undefined;
    let due = false;
    const previous = lastData.current?.key === key ? lastData.current.data : undefined;
    if (previous === undefined) setResource({ status: 'loading' });

    const schedule = (seconds: number | null) => {
      if (seconds === null) return;
      timer = setTimeout(() => {
        if (document.hidden) due = true;
        else setAttempt((n) => n + 1);
      }, seconds * 1000);
    };
    const onVisible = () => {
      if (!document.hidden && due) {
        due = false;
        setAttempt((n) => n + 1);
      }
    };
    document.addEventListener('visibilitychange', onVisible);

    loadRef.current(controller.signal).then(
      (data) => {
        if (controller.signal.aborted) return;
        lastData.current = { key, data };
        failures.current = { key, count: 0 };
        setResource({ status: 'ok', data, fetchedAt: Date.now() });
        schedule(pollSeconds);
      },
      (error: unknown) => {
        if (controller.signal.aborted) return;
        const failure = describeFailure(error);
        const inRow = failures.current.key === key ? failures.current.count + 1 : 1;
        failures.current = { key, count: inRow };
        const delay = retryDelaySeconds(failure, pollSeconds, inRow);
        setResource({ status: 'error', failure, data: previous, retryAt: delay === null ? null : Date.now() + delay * 1000 });
        schedule(delay);
      },
    );
    return () => {
      controller.abort();
      clearTimeout(timer);
      document.removeEventListener('visibilitychange', onVisible);
    };
  }, [key, attempt, pollSeconds]);

  const reload = useCallback(() => setAttempt((n) => n + 1), []);
  return { resource, reload };
}

/** A clock that re-renders its user every second (countdowns). */
export function useNow(intervalMs = 1000): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const id = setInterval(() => setNow(Date.now()), intervalMs);
    return () => clearInterval(id);
  }, [intervalMs]);
  return now;
}
