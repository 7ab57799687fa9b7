import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { createValidatorMetrics, reasonLabel } from './validator-metrics.js';

/** The value of one series in the scrape, or undefined when it is absent. */
const series = (text: string, name: string) => {
  const line = text.split('\n').find((l) => l.startsWith(`${name} `));
  return line === undefined ? undefined : Number(line.slice(name.length + 1));
};

describe('validator metrics', () => {
  it('labels a failure reason by its class, keeping the kind of forbidden', () => {
    expect(['timeout', 'crashed: exit 1', 'crashed: signal SIGSEGV', 'invalid_output: findings.0.severity', 'forbidden: network', 'unpack_refused: zip_bomb', 'sandbox_error: ENOENT'].map(reasonLabel)).toEqual([
      'timeout',
      'crashed',
      'crashed',
      'invalid_output',
      'forbidden: network',
      'unpack_refused',
      'sandbox_error',
    ]);
  });

  it('counts claims, runs, failures, batch outcomes, refusals by status and outages from the loop', async () => {
    const m = createValidatorMetrics();
    m.observe({ event: 'claimed', round_id: 'r', track: 'skills', tasks: 3 });
    m.sandboxRun({ track: 'skills', failureReason: null, seconds: 0.2 });
    m.sandboxRun({ track: 'skills', failureReason: 'forbidden: network', seconds: 1.5 });
    m.observe({ event: 'task_failed', task_id: 't2', track: 'skills', failure_reason: 'forbidden: network', detail: 'x', released: true });
    m.observe({ event: 'task_failed', task_id: 't3', track: 'skills', failure_reason: 'download_failed', detail: 'x', released: false });
    m.observe({ event: 'attestation_refused', task_id: 't1', status: 409, detail: 'lease expired' });
    m.observe({ event: 'batch_submitted', attestations: 2, created: 1, duplicate: 0, refused: 1 });
    m.observe({ event: 'attestation_refused', task_id: 't4', status: null, detail: 'x' });
    m.observe({ event: 'server_unreachable', during: 'claim', reason: 'connection failed', retry_in_ms: 500 });
    const text = await m.registry.metrics();
    expect(series(text, 'vigil_validator_tasks_claimed_total{track="skills"}')).toBe(3);
    expect(series(text, 'vigil_validator_sandbox_runs_total{track="skills",outcome="ok"}')).toBe(1);
    expect(series(text, 'vigil_validator_sandbox_runs_total{track="skills",outcome="forbidden: network"}')).toBe(1);
    expect(series(text, 'vigil_validator_sandbox_run_duration_seconds_bucket{le="2.5",track="skills",result="failed"}')).toBe(1);
    expect(series(text, 'vigil_validator_sandbox_run_duration_seconds_bucket{le="1",track="skills",result="failed"}')).toBe(0);
    expect(series(text, 'vigil_validator_tasks_failed_total{track="skills",reason="download_failed"}')).toBe(1);
    expect(series(text, 'vigil_validator_attestations_total{outcome="created"}')).toBe(1);
    // Refusals come from their own events: the batch's refused count is not added twice.
    expect(series(text, 'vigil_validator_attestations_total{outcome="refused"}')).toBe(2);
    expect(series(text, 'vigil_validator_attestations_refused_total{status="409"}')).toBe(1);
    expect(series(text, 'vigil_validator_attestations_refused_total{status="none"}')).toBe(1);
    expect(series(text, 'vigil_validator_server_unreachable_total{during="claim"}')).toBe(1);
    expect(series(text, 'process_cpu_seconds_total')).toBeGreaterThan(0);
  });

  it('docs/operations.md "Validator metrics" lists every metric with its type and labels, and nothing else', () => {
    const text = readFileSync(new URL('../../../../docs/operations.md', import.meta.url), 'utf8');
    const start = text.indexOf('\n## Validator metrics\n');
    const section = text.slice(start, text.indexOf('\n## ', start + 1));
    const rows = [...section.matchAll(/^\| `(vigil_[a-z_]+)` \| ([a-z]+) \| ([^|]+) \|/gm)].map((m) => ({
      name: m[1]!,
      type: m[2]!,
      labels: m[3]!.trim() === 'none' ? [] : [...m[3]!.matchAll(/`([a-z_]+)`/g)].map((l) => l[1]!).sort(),
    }));
    const own = createValidatorMetrics()
      .registry.getMetricsAsArray()
      .filter((m) => m.name.startsWith('vigil_'))
      .map((m) => ({ name: m.name, type: (m as unknown as { type: string }).type, labels: [...((m as unknown as { labelNames?: string[] }).labelNames ?? [])].sort() }));
    expect(rows.sort((a, b) => a.name.localeCompare(b.name))).toEqual(own.sort((a, b) => a.name.localeCompare(b.name)));
  });
});
