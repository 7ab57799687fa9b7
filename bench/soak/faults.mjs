// The faults of the run, one phase each, in order. Each phase: a fault for `faultMs` (or a kill and
// a restart), then a recovery stretch; the traffic keeps going all along and the stats are kept per
// phase, so each fault's error rate and latencies stand beside the quiet phase's.
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * `ctx`: { fleet, restartApi(name), restartWorker(name), pg, redis, s3 } (the proxies); `windows` collects
 * { name, from, to } of every fault (duplicate deliveries are judged against them). `durations`: how
 * long each outage lasts (the CI form shortens them; every fault is still injected).
 */
export function faultPhases(ctx, durations = { restartAfterMs: 2_000, pgStallMs: 5_000, redisStallMs: 10_000, storeDownMs: 10_000 }) {
  const { restartAfterMs, pgStallMs, redisStallMs, storeDownMs } = durations;
  const s = (ms) => `${ms / 1000} s`;
  return [
    {
      name: 'kill API instance',
      async inject() {
        await ctx.fleet.kill('api-2');
        await sleep(restartAfterMs);
        await ctx.restartApi('api-2');
      },
    },
    {
      name: 'kill worker',
      async inject() {
        await ctx.fleet.kill('worker-1');
        await sleep(restartAfterMs);
        await ctx.restartWorker('worker-1');
      },
    },
    {
      name: 'PostgreSQL resets',
      async inject() {
        ctx.pg.resetAll();
        await sleep(1_000);
        ctx.pg.resetAll();
      },
    },
    {
      name: `PostgreSQL stall ${s(pgStallMs)}`,
      async inject() {
        ctx.pg.stall();
        await sleep(pgStallMs);
        ctx.pg.resume();
        // Connections that were stalled stay silent: cut them, as a restarted server or network would.
        ctx.pg.resetAll();
      },
    },
    {
      name: `Redis stall ${s(redisStallMs)}`,
      async inject() {
        ctx.redis.stall();
        await sleep(redisStallMs);
        ctx.redis.resume();
        ctx.redis.resetAll();
      },
    },
    {
      name: `object store down ${s(storeDownMs)}`,
      async inject() {
        ctx.s3.mode = 'error500';
        await sleep(storeDownMs);
        ctx.s3.mode = 'pass';
      },
    },
  ];
}

/** Runs quiet, each fault phase, then recovery, switching the stats' phase; returns the fault windows. */
export async function runPhases({ stats, phases, quietMs, quietWork = Promise.resolve(), phaseMs, recoveryMs, onPhase = () => {} }) {
  const windows = [];
  stats.setPhase('quiet');
  onPhase('quiet');
  // The quiet phase lasts until its own checks (the rate budget burst) are done, at least quietMs.
  await Promise.all([sleep(quietMs), quietWork]);
  for (const phase of phases) {
    stats.setPhase(phase.name);
    onPhase(phase.name);
    const from = Date.now();
    await phase.inject();
    const to = Date.now();
    windows.push({ name: phase.name, from, to });
    await sleep(Math.max(0, phaseMs - (to - from)));
  }
  stats.setPhase('recovery');
  onPhase('recovery');
  await sleep(recoveryMs);
  return windows;
}
