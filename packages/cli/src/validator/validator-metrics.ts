import { collectDefaultMetrics, Counter, Histogram, Registry } from 'prom-client';
import type { LoopEvent, SandboxRun } from './validator-loop.js';

/** Sandbox run durations: an agent's default wall-clock budget is 60 s, and a run is rarely under 50 ms. */
const RUN_BUCKETS = [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 20, 30, 45, 60, 90, 120];

/**
 * A failure reason as a label value: the reason up to its first `:` (`crashed: exit 1` is
 * `crashed`, `invalid_output: findings.0.severity` is `invalid_output`), so the label's values are
 * a fixed set however agents fail; `forbidden: <kind>` keeps its kind, which comes from a fixed set
 * (docs/agents.md, "Failure reasons") and says what an agent tried.
 */
export function reasonLabel(failureReason: string): string {
  if (failureReason.startsWith('forbidden: ')) return failureReason;
  const colon = failureReason.indexOf(':');
  return colon === -1 ? failureReason : failureReason.slice(0, colon);
}

export interface ValidatorMetrics {
  registry: Registry;
  /** Counts what one loop event reports (claims, failed tasks, batch outcomes, refusals, outages). */
  observe(event: LoopEvent): void;
  /** Counts and times one agent run in the sandbox. */
  sandboxRun(run: SandboxRun): void;
}

/**
 * The metrics of `vigil validator run --metrics-port` (docs/operations.md, "Validator metrics"): a
 * registry of its own (nothing a dependency registers leaks in) with the process metrics of
 * prom-client's defaults, fed from the loop's events and sandbox runs.
 */
export function createValidatorMetrics(): ValidatorMetrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const registers = [registry];
  const claimed = new Counter({ name: 'vigil_validator_tasks_claimed_total', help: 'Tasks this validator claimed, by track.', labelNames: ['track'] as const, registers });
  const runs = new Counter({
    name: 'vigil_validator_sandbox_runs_total',
    help: 'Agent runs in the sandbox that ended, by track and outcome: ok, or the failure reason (forbidden keeps its kind).',
    labelNames: ['track', 'outcome'] as const,
    registers,
  });
  const runSeconds = new Histogram({
    name: 'vigil_validator_sandbox_run_duration_seconds',
    help: 'Time of one agent run in the sandbox, start to end, by track and result (ok or failed).',
    labelNames: ['track', 'result'] as const,
    buckets: RUN_BUCKETS,
    registers,
  });
  const failed = new Counter({
    name: 'vigil_validator_tasks_failed_total',
    help: 'Tasks released as failed (no attestation), by track and reason: the sandbox failure reasons, integrity, download_failed, unpack_refused, validator_error.',
    labelNames: ['track', 'reason'] as const,
    registers,
  });
  const attestations = new Counter({
    name: 'vigil_validator_attestations_total',
    help: 'Signed attestations the server answered for, by outcome: created, duplicate, refused.',
    labelNames: ['outcome'] as const,
    registers,
  });
  const refused = new Counter({
    name: 'vigil_validator_attestations_refused_total',
    help: 'Attestations the server refused, by HTTP status of the refusal (none when the answer gave none).',
    labelNames: ['status'] as const,
    registers,
  });
  const unreachable = new Counter({
    name: 'vigil_validator_server_unreachable_total',
    help: 'Calls to the server that failed transiently and were retried, by the step that made them.',
    labelNames: ['during'] as const,
    registers,
  });
  // Every series a dashboard plots from the start is present at 0, so rate() has a baseline.
  for (const outcome of ['created', 'duplicate', 'refused']) attestations.inc({ outcome }, 0);

  return {
    registry,
    observe(event) {
      switch (event.event) {
        case 'claimed':
          claimed.inc({ track: event.track }, event.tasks);
          break;
        case 'task_failed':
          failed.inc({ track: event.track, reason: reasonLabel(event.failure_reason) });
          break;
        case 'batch_submitted':
          attestations.inc({ outcome: 'created' }, event.created);
          attestations.inc({ outcome: 'duplicate' }, event.duplicate);
          // Refusals are counted once, from their attestation_refused events (a batch refused whole has no receipt).
          break;
        case 'attestation_refused':
          attestations.inc({ outcome: 'refused' });
          refused.inc({ status: event.status === null ? 'none' : String(event.status) });
          break;
        case 'server_unreachable':
          unreachable.inc({ during: event.during });
          break;
        default:
          break;
      }
    },
    sandboxRun(run) {
      runs.inc({ track: run.track, outcome: run.failureReason === null ? 'ok' : reasonLabel(run.failureReason) });
      runSeconds.observe({ track: run.track, result: run.failureReason === null ? 'ok' : 'failed' }, run.seconds);
    },
  };
}
