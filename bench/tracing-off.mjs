// What OpenTelemetry tracing costs when it is off (no tracer provider registered, the default):
// the instrumented call `withSpan(…, work)` of the attestation ingest, webhook and registry paths
// against calling `work` directly, alternating in this run. Off, no request hook is registered,
// so requests pay nothing else (docs/operations.md, "Tracing"). The work is an empty async
// function: the worst case, where the check is all there is to measure.
import { withSpan, SpanKind } from '../apps/server/dist/platform/tracing/index.js';
import { median } from './lib.mjs';

const CALLS = Number(process.env.BENCH_CALLS ?? 2_000_000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 7);

const work = async () => 1;
async function direct() {
  const started = process.hrtime.bigint();
  for (let i = 0; i < CALLS; i += 1) await work();
  return Number(process.hrtime.bigint() - started) / CALLS;
}
async function instrumented() {
  const started = process.hrtime.bigint();
  for (let i = 0; i < CALLS; i += 1) await withSpan('bench', SpanKind.INTERNAL, () => ({ 'bench.i': i }), work);
  return Number(process.hrtime.bigint() - started) / CALLS;
}

// Warm-up: both paths compiled by the optimizing tier before anything is timed.
await direct();
await instrumented();
const base = [];
const off = [];
const ratios = [];
for (let round = 0; round < ROUNDS; round += 1) {
  const a = await direct();
  const b = await instrumented();
  base.push(a);
  off.push(b);
  ratios.push(a / b);
}
console.log(`${CALLS} calls per run, ${ROUNDS} alternating rounds, node ${process.version}`);
console.log(`direct await work():        ${median(base).toFixed(1)} ns/call`);
console.log(`withSpan(…, work), off:      ${median(off).toFixed(1)} ns/call (+${(median(off) - median(base)).toFixed(1)} ns)`);
console.log(`throughput ratio off/direct: ${median(ratios).toFixed(2)} (min ${Math.min(...ratios).toFixed(2)}, max ${Math.max(...ratios).toFixed(2)})`);
