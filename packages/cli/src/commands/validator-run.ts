import { isIP } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseKeypairFile } from '@vigil/client';
import type { Track } from '@vigil/core';
import type { Command } from 'commander';
import { action, examples, type Kit } from '../command-kit.js';
import { intArg, readText } from '../context.js';
import { CliError, EXIT, UsageError } from '../exit-codes.js';
import { keyfileOf } from '../keyfile.js';
import type { MetricsListener } from '../validator/metrics-listener.js';
import type { LoopEvent } from '../validator/validator-loop.js';
import { trackOption } from './public-reads.js';

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

/** The stderr line of an event for people (`--json` prints the events themselves on stdout). */
function line(event: LoopEvent): string | null {
  switch (event.event) {
    case 'claimed':
      return `claimed ${event.tasks} task${event.tasks === 1 ? '' : 's'} of round ${event.round_id} (${event.track})`;
    case 'task_done':
      return `done    ${event.task_id}  ${event.track}  ${event.verdict} ${event.risk_score}  ${event.findings} finding${event.findings === 1 ? '' : 's'}  ${seconds(event.elapsed_ms)}`;
    case 'task_failed':
      return `failed  ${event.task_id}  ${event.track}  ${event.failure_reason}: ${event.detail} (${event.released ? 'lease released' : 'lease left to expire'})`;
    case 'batch_submitted':
      return `submitted ${event.attestations} attestation${event.attestations === 1 ? '' : 's'}: ${event.created} created, ${event.duplicate} duplicate, ${event.refused} refused`;
    case 'attestation_refused':
      return `refused ${event.task_id}: ${event.status ?? ''} ${event.detail}`.replace('  ', ' ');
    case 'server_unreachable':
      return `server unreachable (${event.during}): ${event.reason}; retrying in ${seconds(event.retry_in_ms)}`;
    case 'stopping':
      return `stopping: ${event.running} agent${event.running === 1 ? '' : 's'} running, ${event.pending} attestation${event.pending === 1 ? '' : 's'} to send (Ctrl-C again to quit at once)`;
    case 'summary':
      return `summary: ${event.claimed} claimed, ${event.attested} attested, ${event.duplicate} duplicate, ${event.refused} refused, ${event.failed} failed, ${event.unsent} unsent, ${seconds(event.elapsed_ms)}`;
  }
}

interface RunOptions {
  keyfile?: string;
  track?: Track;
  concurrency: number;
  batchSize: number;
  pollInterval: number;
  exitWhenIdle?: boolean;
  workDir?: string;
  grace: number;
  metricsPort?: number;
  metricsHost?: string;
}

/**
 * `--metrics-port`/`--metrics-host`, else `VIGIL_VALIDATOR_METRICS_PORT`/`_HOST`: where the
 * Prometheus listener binds, or null for none (docs/operations.md, "Validator metrics").
 */
function metricsAddress(opts: RunOptions, env: Record<string, string | undefined>): { host: string; port: number } | null {
  const envPort = env.VIGIL_VALIDATOR_METRICS_PORT?.trim() || undefined;
  const port = opts.metricsPort ?? (envPort === undefined ? undefined : intArg('VIGIL_VALIDATOR_METRICS_PORT', 0, 65_535)(envPort));
  const host = opts.metricsHost ?? (env.VIGIL_VALIDATOR_METRICS_HOST?.trim() || undefined);
  const hostFrom = opts.metricsHost !== undefined ? '--metrics-host' : 'VIGIL_VALIDATOR_METRICS_HOST';
  if (host !== undefined && isIP(host) === 0) throw new UsageError(`${hostFrom}: expected an IP address, got ${JSON.stringify(host)}`);
  if (port === undefined) {
    if (host !== undefined) throw new UsageError(`${hostFrom}: only with --metrics-port (or VIGIL_VALIDATOR_METRICS_PORT)`);
    return null;
  }
  return { host: host ?? '127.0.0.1', port };
}

/** `vigil validator run`: the validator's work loop (docs/cli.md, "vigil validator run"). */
export function registerValidatorRun(validator: Command, kit: Kit): void {
  examples(
    validator
      .command('run')
      .description('claims tasks, runs each agent in the sandbox on its artifact, signs and submits the attestations in batches, until stopped')
      .option('--keyfile <file>', 'the hotkey file of the validator; default VIGIL_KEYFILE')
      .addOption(trackOption())
      .option('--concurrency <n>', 'agents run at once (1-64)', intArg('--concurrency', 1, 64), 2)
      .option('--batch-size <n>', 'attestations per batch submission (1-500)', intArg('--batch-size', 1, 500), 20)
      .option('--poll-interval <s>', 'seconds between claims while there is nothing to do (1-3600)', intArg('--poll-interval', 1, 3600), 5)
      .option('--exit-when-idle', 'exit 0 once a claim returns no task and nothing runs or waits to be sent')
      .option('--work-dir <dir>', 'where artifacts and agent bundles are cached and runs unpacked (default <tmp>/vigil-validator-<hotkey>)')
      .option('--grace <s>', 'seconds running agents may finish after Ctrl-C before they are aborted (0-600)', intArg('--grace', 0, 600), 10)
      .option('--metrics-port <n>', 'serve Prometheus metrics on http://<metrics host>:<n>/metrics (0-65535; 0 picks a free port); default VIGIL_VALIDATOR_METRICS_PORT, else none', intArg('--metrics-port', 0, 65_535))
      .option('--metrics-host <ip>', 'the IP address the metrics listener binds; default VIGIL_VALIDATOR_METRICS_HOST, else 127.0.0.1')
      .action(
        action(kit, async (ctx, opts: RunOptions) => {
          const metricsAt = metricsAddress(opts, ctx.io.env);
          const path = keyfileOf(ctx, opts.keyfile);
          const client = await ctx.signed(path);
          const keypair = parseKeypairFile(await readText(ctx.io, path, '--keyfile'));
          if (keypair.hotkey !== client.hotkey) throw new UsageError('--keyfile: changed while it was read');
          const stop = new AbortController();
          const kill = new AbortController();
          if (ctx.io.interrupted) {
            const interrupted = ctx.io.interrupted;
            void interrupted().then(() => {
              stop.abort();
              // Registered only now, so the first signal means "stop cleanly" and the second "now".
              void interrupted().then(() => kill.abort());
            });
          }
          // Imported only with a listener: prom-client stays off the start-up of a validator without one.
          const metrics = metricsAt === null ? null : (await import('../validator/validator-metrics.js')).createValidatorMetrics();
          let listener: MetricsListener | null = null;
          if (metrics !== null && metricsAt !== null) {
            const { startMetricsListener } = await import('../validator/metrics-listener.js');
            try {
              listener = await startMetricsListener(metrics.registry, metricsAt.host, metricsAt.port);
            } catch (err) {
              const code = (err as NodeJS.ErrnoException).code;
              if (code === 'EADDRINUSE') throw new CliError(`--metrics-port: ${metricsAt.port} is in use on ${metricsAt.host} (pass another, or 0 for a free one)`);
              throw new CliError(`--metrics-host: cannot listen on ${metricsAt.host}:${metricsAt.port}: ${code ?? (err as Error).message}`);
            }
            ctx.io.stderr(`vigil: validator metrics on ${listener.url}\n`);
          }
          const emit = (event: LoopEvent) => {
            metrics?.observe(event);
            if (ctx.json) ctx.io.stdout(`${JSON.stringify(event)}\n`);
            else {
              const text = line(event);
              if (text !== null) ctx.io.stderr(`${text}\n`);
            }
          };
          // Imported here: the loop needs @vigil/sandbox, which stays off the start-up of every other command (src/commands/scan.ts).
          const { runValidatorLoop } = await import('../validator/validator-loop.js');
          let summary;
          try {
            summary = await runValidatorLoop({
              client,
              keypair,
              ...(opts.track ? { track: opts.track } : {}),
              concurrency: opts.concurrency,
              batchSize: opts.batchSize,
              pollIntervalMs: opts.pollInterval * 1000,
              exitWhenIdle: opts.exitWhenIdle === true,
              workDir: opts.workDir ?? join(tmpdir(), `vigil-validator-${keypair.hotkey.slice(0, 12)}`),
              graceMs: opts.grace * 1000,
              emit,
              stop: stop.signal,
              kill: kill.signal,
              ...(metrics ? { onSandboxRun: metrics.sandboxRun } : {}),
            });
          } finally {
            await listener?.close();
          }
          if (summary.killed) return EXIT.interrupted;
          return summary.unsent > 0 ? EXIT.error : EXIT.ok;
        }),
      ),
    [
      'vigil validator run --keyfile validator.json',
      'vigil validator run --track packages --concurrency 4 --exit-when-idle',
      'vigil validator run --json > events.jsonl',
      'vigil validator run --metrics-port 9465',
    ],
  );
}
