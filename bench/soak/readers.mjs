// Anonymous public reads (the cached ones: docs/api.md, "Caching") from many 127.0.1.x addresses,
// each below its per-minute budget; and, once, a burst from one address past its budget, to check
// that the budget is exact across the instances (counted in Redis, docs/api.md "Rate limits").
import { describeAnswer, send } from './http-client.mjs';

const PATHS = ['/v1/leaderboard', '/v1/rounds/status', '/v1/leaderboard?track=packages', '/v1/dashboard/network', '/v1/rounds/status'];
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

export function startReaders({ baseUrl, addresses, stats, pauseMs = 400, timeoutMs = 15_000 }) {
  let stopping = false;
  const loops = Array.from({ length: addresses }, async (_, a) => {
    const from = `127.0.1.${a + 1}`;
    for (let i = a; !stopping; i++) {
      const path = PATHS[i % PATHS.length];
      const r = await send(baseUrl, { from, path, timeoutMs });
      const outcome = r.status === 200 ? 'ok' : r.status === 429 ? 'rejected' : 'error';
      stats.record('cached read', outcome, r.ms, `${describeAnswer(r)} (${path.split('?')[0]})`);
      await sleep(pauseMs);
    }
  });
  return {
    async stop() {
      stopping = true;
      await Promise.all(loops);
    },
  };
}

/**
 * `budget + extra` requests from one fresh address within one fixed window (started no later than
 * `latestStartMs` into a minute, else just after the minute's turn, so the whole burst fits in it):
 * exactly `budget` must be answered 200 and the rest 429, whichever instance nginx sent each to.
 */
export async function budgetBurst({ baseUrl, from, budget, extra = 25, concurrency = 16, latestStartMs = 20_000 }) {
  const intoMinute = Date.now() % 60_000;
  if (intoMinute > latestStartMs) await sleep(60_000 - intoMinute + 500);
  const window = Math.floor(Date.now() / 60_000);
  const counts = { ok: 0, limited: 0, other: 0 };
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < budget + extra) {
        next += 1;
        const r = await send(baseUrl, { from, path: '/v1/rounds/status', timeoutMs: 15_000 });
        if (r.status === 200) counts.ok += 1;
        else if (r.status === 429) counts.limited += 1;
        else counts.other += 1;
      }
    }),
  );
  return { ...counts, sent: budget + extra, budget, sameWindow: Math.floor(Date.now() / 60_000) === window };
}
