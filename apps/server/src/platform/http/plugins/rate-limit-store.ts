import type { Redis } from 'ioredis';

/** The one-minute windows of spec part 8; fixed and aligned to the clock so instances agree on them. */
export const RATE_WINDOW_MS = 60_000;

/**
 * Counts requests per key in fixed windows. `hit` counts one request against the global key and,
 * when the global budget still allows it, against the endpoint key too; it returns the counts after
 * counting (endpoint 0 when not counted).
 */
export interface RateLimitStore {
  hit(
    window: number,
    globalKey: string,
    globalMax: number,
    endpointKey: string | null,
  ): { global: number; endpoint: number } | Promise<{ global: number; endpoint: number }>;
}

/** In-process counters: one Map per window, dropped whole when the window turns. */
export function createMemoryRateLimitStore(): RateLimitStore {
  let current = -1;
  let counts = new Map<string, number>();
  const bump = (key: string) => {
    const n = (counts.get(key) ?? 0) + 1;
    counts.set(key, n);
    return n;
  };
  return {
    hit(window, globalKey, globalMax, endpointKey) {
      if (window !== current) {
        current = window;
        counts = new Map();
      }
      const global = bump(globalKey);
      const endpoint = endpointKey !== null && global <= globalMax ? bump(endpointKey) : 0;
      return { global, endpoint };
    },
  };
}

// One round trip for both budgets. Keys carry the window, so they never need resetting; they expire
// one window after theirs ends.
const HIT_SCRIPT = `
local g = redis.call('INCR', KEYS[1])
if g == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[2]) end
local e = 0
if KEYS[2] ~= nil and g <= tonumber(ARGV[1]) then
  e = redis.call('INCR', KEYS[2])
  if e == 1 then redis.call('PEXPIRE', KEYS[2], ARGV[2]) end
end
return {g, e}
`;

export const REDIS_RATE_LIMIT_PREFIX = 'vigil:rl:';

/** Counters in Redis, so every instance behind one address spends one budget. */
export function createRedisRateLimitStore(redis: Redis): RateLimitStore {
  return {
    async hit(window, globalKey, globalMax, endpointKey) {
      const keys = [`${REDIS_RATE_LIMIT_PREFIX}${window}:${globalKey}`];
      if (endpointKey !== null) keys.push(`${REDIS_RATE_LIMIT_PREFIX}${window}:${endpointKey}`);
      const [global, endpoint] = (await redis.eval(HIT_SCRIPT, keys.length, ...keys, globalMax, 2 * RATE_WINDOW_MS)) as [number, number];
      return { global, endpoint };
    },
  };
}
