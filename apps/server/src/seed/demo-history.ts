/**
 * How many days of rounds the demo seed writes: 36 by default (nine rounds per track, a month of
 * trends). At least 8, so that every track has a closed round with winners beside its open one;
 * test suites that only need a few rounds ask for fewer days and seed in a fraction of the time.
 * Apart from the seed, for config.ts, which must not load the demo data.
 */
export const DEMO_HISTORY_DAYS = 36;
export const MIN_DEMO_HISTORY_DAYS = 8;
