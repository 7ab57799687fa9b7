// Prints the run's tables: traffic by phase (error rate, p50/p95/p99), each fault's p99 of cached
// reads and verify against the quiet phase's, and the invariants. Returns true when one failed.
const ms = (v) => `${Math.round(v)}`.padStart(6);
const pad = (text, n) => String(text).padEnd(n);

export function printReport({ rows, invariants, validators, customers, receiver, windows, minutes }) {
  console.log(`\n== Traffic by phase (${minutes} min run) ==`);
  console.log(`${pad('phase', 24)}${pad('kind', 18)}${'requests'.padStart(9)}${'2xx'.padStart(7)}${'4xx'.padStart(6)}${'errors'.padStart(7)}${'err %'.padStart(7)}${'p50'.padStart(7)}${'p95'.padStart(7)}${'p99'.padStart(7)}  ms; top errors`);
  for (const r of rows) {
    const top = r.errors.map(([what, n]) => `${n}× ${what}`).join('; ');
    console.log(
      `${pad(r.phase, 24)}${pad(r.kind, 18)}${String(r.total).padStart(9)}${String(r.ok).padStart(7)}${String(r.rejected).padStart(6)}${String(r.error).padStart(7)}${(r.errorRate * 100).toFixed(1).padStart(7)}${ms(r.p50).padStart(7)}${ms(r.p95).padStart(7)}${ms(r.p99).padStart(7)}  ${top.slice(0, 140)}`,
    );
  }

  console.log('\n== p99 during each phase against the quiet phase (cached reads, verify) ==');
  const quiet = new Map(rows.filter((r) => r.phase === 'quiet').map((r) => [r.kind, r]));
  for (const kind of ['cached read', 'verify']) {
    const q = quiet.get(kind);
    if (!q) continue;
    for (const r of rows.filter((x) => x.kind === kind && x.phase !== 'drain')) {
      console.log(`${pad(kind, 14)}${pad(r.phase, 26)} p50 ${ms(r.p50)} ms  p99 ${ms(r.p99)} ms  (${(r.p99 / Math.max(1, q.p99)).toFixed(1)}× quiet p99)`);
    }
  }

  console.log('\n== Faults (when injected) ==');
  for (const w of windows) console.log(`${pad(w.name, 26)} ${new Date(w.from).toISOString().slice(11, 19)} for ${((w.to - w.from) / 1000).toFixed(1)} s`);
  console.log(`\nacknowledged: ${validators.acked.size} attestations, ${customers.uploads.length} uploads; webhook attempts received ${receiver.ledger.length}`);
  if (validators.refusals.size > 0) console.log(`refused envelopes: ${[...validators.refusals].map(([why, n]) => `${n}× ${why}`).join('; ')}`);

  console.log('\n== Invariants ==');
  for (const i of invariants) console.log(`${i.ok ? 'PASS' : 'FAIL'}  ${pad(i.name, 52)} ${i.detail}`);
  const failed = invariants.some((i) => !i.ok);
  console.log(failed ? '\nsoak: FAILED' : '\nsoak: every invariant held');
  return failed;
}
