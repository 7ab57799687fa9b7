// What the traffic saw, by phase and by kind of request: counts by outcome and latencies.
import { percentile } from './percentile.mjs';

export function createStats() {
  let phase = 'setup';
  /** phase → kind → { ok, rejected (4xx the driver expects, e.g. 429), errors (5xx, timeouts, resets), ms[] } */
  const table = new Map();
  const order = [];
  let slowest = { ms: 0, what: '' };
  return {
    get phase() {
      return phase;
    },
    setPhase(name) {
      phase = name;
      if (!order.includes(name)) order.push(name);
    },
    /** outcome: 'ok' | 'rejected' | 'error'. */
    record(kind, outcome, ms, what = kind) {
      if (!table.has(phase)) table.set(phase, new Map());
      const byKind = table.get(phase);
      if (!byKind.has(kind)) byKind.set(kind, { ok: 0, rejected: 0, error: 0, ms: [], errors: new Map() });
      const row = byKind.get(kind);
      row[outcome] += 1;
      row.ms.push(ms);
      if (outcome === 'error') row.errors.set(what, (row.errors.get(what) ?? 0) + 1);
      if (ms > slowest.ms) slowest = { ms, what: `${kind} in ${phase}: ${what}` };
    },
    /** Requests answered later than `limitMs` (or `byKind[kind]`), as "kind in phase: ms". */
    late(limitMs, byKind = {}) {
      const found = [];
      for (const [name, byKindRows] of table) {
        for (const [kind, row] of byKindRows) {
          for (const ms of row.ms) if (ms > (byKind[kind] ?? limitMs)) found.push(`${kind} in ${name}: ${Math.round(ms)} ms`);
        }
      }
      return found;
    },
    get slowest() {
      return slowest;
    },
    rows() {
      const rows = [];
      for (const name of order) {
        for (const [kind, row] of table.get(name) ?? []) {
          const total = row.ok + row.rejected + row.error;
          rows.push({
            phase: name,
            kind,
            total,
            ok: row.ok,
            rejected: row.rejected,
            error: row.error,
            errorRate: total === 0 ? 0 : row.error / total,
            p50: percentile(row.ms, 50),
            p95: percentile(row.ms, 95),
            p99: percentile(row.ms, 99),
            errors: [...row.errors].sort((a, b) => b[1] - a[1]).slice(0, 3),
          });
        }
      }
      return rows;
    },
  };
}
