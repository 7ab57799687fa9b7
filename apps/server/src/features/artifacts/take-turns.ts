/**
 * At most `limit` calls of `work` run at once; the others wait, first come first served. Reading an
 * archive for its listing can take seconds and tens of MB (a gzip that expands to 1 GiB): many at
 * once, on a busy lookup, exhausted a small instance's heap.
 */
export function takeTurns(limit: number): <T>(work: () => Promise<T>) => Promise<T> {
  let running = 0;
  const waiting: Array<() => void> = [];
  const next = () => {
    running -= 1;
    waiting.shift()?.();
  };
  return async <T>(work: () => Promise<T>): Promise<T> => {
    if (running >= limit) await new Promise<void>((resolve) => waiting.push(resolve));
    running += 1;
    try {
      return await work();
    } finally {
      next();
    }
  };
}
