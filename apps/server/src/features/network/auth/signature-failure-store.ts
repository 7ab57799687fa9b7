import type { Redis } from 'ioredis';

/** Signature failures are counted per source IP in fixed one-minute windows aligned to the clock. */
export const SIGNATURE_FAILURE_WINDOW_MS = 60_000;

/**
 * Failed signature checks per source IP and window. `failures` is read before any verification
 * work; `record` runs after a failure. Either may answer synchronously (in-process store).
 */
export interface SignatureFailureStore {
  failures(window: number, ip: string): number | Promise<number>;
  record(window: number, ip: string): number | Promise<number>;
}

/** In-process counters: one Map per window, dropped whole when the window turns. */
export function createMemorySignatureFailureStore(): SignatureFailureStore {
  let current = -1;
  let counts = new Map<string, number>();
  const turn = (window: number) => {
    if (window !== current) {
      current = window;
      counts = new Map();
    }
  };
  return {
    failures(window, ip) {
      if (window !== current) return 0;
      return counts.get(ip) ?? 0;
    },
    record(window, ip) {
      turn(window);
      const n = (counts.get(ip) ?? 0) + 1;
      counts.set(ip, n);
      return n;
    },
  };
}

export const REDIS_SIGNATURE_FAILURE_PREFIX = 'vigil:sig-fail:';

const RECORD_SCRIPT = `
local n = redis.call('INCR', KEYS[1])
if n == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
return n
`;

/** Counters in Redis, so every instance refuses the same flooding address. */
export function createRedisSignatureFailureStore(redis: Redis): SignatureFailureStore {
  const key = (window: number, ip: string) => `${REDIS_SIGNATURE_FAILURE_PREFIX}${window}:${ip}`;
  return {
    async failures(window, ip) {
      const value = await redis.get(key(window, ip));
      return value === null ? 0 : Number(value);
    },
    async record(window, ip) {
      // Keys carry their window and expire one window after it ends; nothing needs resetting.
      return (await redis.eval(RECORD_SCRIPT, 1, key(window, ip), 2 * SIGNATURE_FAILURE_WINDOW_MS)) as number;
    },
  };
}
