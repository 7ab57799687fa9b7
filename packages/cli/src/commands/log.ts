import { chmod, mkdir, readFile, rename, unlink, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { cosignatureVerifier, noteVerifier, parseVerifierKey, TlogError } from '@vigil/tlog';
import type { Command } from 'commander';
import { action, examples, type Kit } from '../command-kit.js';
import { abortableSleep } from '../abortable-sleep.js';
import { configDir } from '../config.js';
import { intArg, type Context } from '../context.js';
import { CliError, EXIT, UsageError } from '../exit-codes.js';
import { VigilApiError, VigilNotFoundError } from '@vigil/client';
import { auditLog, AuditInterrupted, type AuditFailure, type AuditSource } from '../log-audit.js';
import { monitorLog, MonitorStateError, SizeNotReachedError, type LogState, type MonitorFailure } from '../log-monitor.js';

/** The monitor's state: the last verified checkpoint of each log it follows, by origin. */
interface StateFile {
  logs: Record<string, LogState>;
}

const MONITOR_EXIT: Record<MonitorFailure, number> = { bad_checkpoint_signature: EXIT.badCheckpointSignature, log_inconsistent: EXIT.logInconsistent, not_witnessed: EXIT.notWitnessed };

/** `--log-key <vkey>`: a C2SP Ed25519 verifier key, checked before anything is sent. */
function logKeyArg(value: string): string {
  try {
    noteVerifier(value);
  } catch (err) {
    if (err instanceof TlogError) throw new UsageError(`--log-key: ${err.message}`);
    throw err;
  }
  return value;
}

/** `--witness <vkey>`, repeatable: a witness's cosignature/v1 verifier key (type 0x04). */
function witnessArg(value: string, previous: string[] = []): string[] {
  try {
    cosignatureVerifier(value);
  } catch (err) {
    if (err instanceof TlogError) throw new UsageError(`--witness: ${err.message}`);
    throw err;
  }
  return [...previous, value];
}

function minWitnessesArg(value: string): number {
  if (!/^[1-9][0-9]{0,3}$/.test(value)) throw new UsageError(`--min-witnesses: expected an integer of at least 1, got ${JSON.stringify(value)}`);
  return Number(value);
}

function isLogState(value: unknown, origin: string): value is LogState {
  const s = value as Partial<LogState> | null;
  return (
    typeof s === 'object' &&
    s !== null &&
    s.origin === origin &&
    typeof s.log_key === 'string' &&
    Number.isSafeInteger(s.size) &&
    (s.size ?? -1) >= 0 &&
    typeof s.root === 'string' &&
    /^[A-Za-z0-9+/]{43}=$/.test(s.root) &&
    typeof s.checkpoint === 'string' &&
    typeof s.checked_at === 'string'
  );
}

/** `missing`: what a state file that does not exist is — the monitor's first run (`empty`), or, for the read-only audit, a mistyped path (`error`). */
async function readState(path: string, missing: 'empty' | 'error' = 'empty'): Promise<StateFile> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT' && missing === 'empty') return { logs: {} };
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') throw new CliError(`--state: ${path}: no such file (the audit only reads a state file that \`vigil log monitor\` wrote)`);
    throw new CliError(`--state: ${path}: cannot read: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (err) {
    throw new CliError(`--state: ${path}: not JSON: ${(err as Error).message}`);
  }
  const logs = (parsed as { logs?: unknown } | null)?.logs;
  if (typeof logs !== 'object' || logs === null || Array.isArray(logs)) throw new CliError(`--state: ${path}: not a log monitor state file (expected {"logs": {"<origin>": {…}}})`);
  for (const [origin, state] of Object.entries(logs)) {
    if (!isLogState(state, origin)) throw new CliError(`--state: ${path}: the state of ${JSON.stringify(origin)} is not a checkpoint the monitor wrote (origin, log_key, size, root, checkpoint, checked_at)`);
  }
  return { logs: logs as Record<string, LogState> };
}

const cannotWrite = (path: string, err: unknown) => new CliError(`--state: ${path}: cannot write: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);

/**
 * Before the log is read (which may take minutes on a first run): the state file's directory can
 * hold the temporary file writeState renames into place, so a run never checks the whole log only
 * to fail at the end.
 */
async function checkStateWritable(path: string): Promise<void> {
  const probe = `${path}.${process.pid}.tmp`;
  try {
    await mkdir(dirname(path), { recursive: true, mode: 0o700 });
    await writeFile(probe, '', { mode: 0o600 });
    await unlink(probe);
  } catch (err) {
    throw cannotWrite(path, err);
  }
}

/** Replaces the file in one step: a monitor stopped mid-write keeps its previous state. */
async function writeState(path: string, state: StateFile): Promise<void> {
  const temporary = `${path}.${process.pid}.tmp`;
  try {
    await mkdir(dirname(path), { recursive: true, mode: 0o700 });
    await writeFile(temporary, `${JSON.stringify(state, null, 2)}\n`, { mode: 0o600 });
    await chmod(temporary, 0o600);
    await rename(temporary, path);
  } catch (err) {
    throw cannotWrite(path, err);
  }
}

const KEY_SOURCE = { pinned: 'pinned with --log-key', state: 'pinned in the state file (first run)', 'server-identity': 'from GET /v1/server-identity: not pinned' } as const;

interface MonitorFlags {
  logKey?: string;
  state?: string;
  witness?: string[];
  minWitnesses?: number;
}

async function monitor(ctx: Context, flags: MonitorFlags): Promise<number> {
  const witnesses = flags.witness ?? [];
  if (flags.minWitnesses !== undefined && witnesses.length === 0) throw new UsageError('--min-witnesses: only with --witness');
  if (flags.minWitnesses !== undefined && flags.minWitnesses > witnesses.length) {
    throw new UsageError(`--min-witnesses: ${flags.minWitnesses} is more than the ${witnesses.length} --witness key(s) given`);
  }
  const path = flags.state ?? join(configDir(ctx.io), 'log-monitor.json');
  const state = await readState(path);
  await checkStateWritable(path);
  const vigil = await ctx.vigil();
  let result;
  try {
    result = await monitorLog({
      source: {
        checkpoint: () => vigil.log.checkpoint(),
        consistency: (from, to) =>
          vigil.log.consistency(from, to).catch((err: unknown) => {
            throw (err as { code?: unknown }).code === 'log_size_not_reached' ? new SizeNotReachedError((err as Error).message) : err;
          }),
        tile: (tilePath) => vigil.log.tile(tilePath),
        serverHotkey: async () => (await vigil.network.identity()).server_hotkey,
      },
      previous: (origin) => state.logs[origin],
      ...(flags.logKey !== undefined ? { pinnedKey: flags.logKey } : {}),
      witnesses,
      ...(flags.minWitnesses !== undefined ? { minWitnesses: flags.minWitnesses } : {}),
      now: new Date(),
    });
  } catch (err) {
    if (err instanceof MonitorStateError) throw new CliError(`--state: ${path}: ${err.message}`);
    throw err;
  }
  if (result.ok && result.state !== null) {
    state.logs[result.state.origin] = result.state;
    await writeState(path, state);
  }
  const { state: _kept, ...shown } = result;
  ctx.emit(
    () => {
      const c = ctx.out.c;
      const failed = { log_inconsistent: 'LOG INCONSISTENT', bad_checkpoint_signature: 'BAD CHECKPOINT SIGNATURE', not_witnessed: 'NOT WITNESSED' } as const;
      ctx.out.line(result.ok ? c.green('consistent') : c.red(failed[result.failure!]));
      const types = Object.entries(result.entry_types).map(([type, n]) => `${type}: ${n}`);
      ctx.out.fields([
        ['log', result.origin],
        ['log key', result.log_key ? `${result.log_key} (${KEY_SOURCE[result.log_key_source]})` : '-'],
        ['previous', result.previous ? `${result.previous.size} entries (root ${result.previous.root})` : 'none: first run, every entry read'],
        ['checkpoint', result.checkpoint ? `${result.checkpoint.size} entries (root ${result.checkpoint.root})` : '-'],
        ...(result.witness_cosignatures === null
          ? []
          : ([['witnesses', `${result.witness_cosignatures.length} of ${witnesses.length} cosigned${result.witness_cosignatures.length > 0 ? ` (${result.witness_cosignatures.join(', ')})` : ''}`]] as [string, string][])),
        ...(result.ok ? ([['new entries', `${result.new_entries}${types.length > 0 ? ` (${types.join(', ')})` : ''}`]] as [string, string][]) : []),
        ...(result.reason ? ([['reason', result.reason]] as [string, string][]) : []),
        ['state', result.ok ? path : `${path} (unchanged)`],
      ]);
    },
    { ...shown, state_file: path },
  );
  return result.ok ? EXIT.ok : MONITOR_EXIT[result.failure!];
}

const AUDIT_EXIT: Record<AuditFailure, number> = { bad_checkpoint_signature: EXIT.badCheckpointSignature, log_inconsistent: EXIT.logInconsistent, served_mismatch: EXIT.servedMismatch };

interface AuditFlags {
  logKey?: string;
  state?: string;
  concurrency: number;
  progressEvery: number;
}

/** A 404 as null: for the audit an attestation the server no longer knows is a finding, not an error. */
async function orNull<T>(read: Promise<T>): Promise<T | null> {
  try {
    return await read;
  } catch (err) {
    if (err instanceof VigilNotFoundError) return null;
    throw err;
  }
}

async function audit(ctx: Context, flags: AuditFlags): Promise<number> {
  // Read only: the audit compares with the monitor's state but never writes it.
  const state = flags.state !== undefined ? await readState(flags.state, 'error') : { logs: {} };
  const { token } = await ctx.connect();
  const vigil = await ctx.vigil();
  const stop = new AbortController();
  if (ctx.io.interrupted) void ctx.io.interrupted().then(() => stop.abort(new AuditInterrupted('interrupted')));
  const call = { signal: stop.signal };
  // The audit reads one attestation or artifact per entry: a log of some thousands of entries spends
  // a server's per-IP budget (300 a minute by default) many times over. On a 429 it waits what
  // Retry-After says and goes on, saying so, instead of failing a long run (docs/cli.md).
  let waitingUntil = 0;
  const admitted = async <T>(read: () => Promise<T>): Promise<T> => {
    for (;;) {
      try {
        return await read();
      } catch (err) {
        if (!(err instanceof VigilApiError) || err.status !== 429 || stop.signal.aborted) throw err;
        const seconds = Math.max(1, err.retryAfterSeconds ?? 1);
        if (Date.now() >= waitingUntil) ctx.io.stderr(`vigil: log audit: the server's rate limit is spent; waiting ${seconds} s (Retry-After) and going on\n`);
        waitingUntil = Math.max(waitingUntil, Date.now() + seconds * 1000);
        await abortableSleep(seconds * 1000, stop.signal);
      }
    }
  };
  const source: AuditSource = {
    checkpoint: () => admitted(() => vigil.log.checkpoint(call)),
    tile: (path) => admitted(() => vigil.log.tile(path, call)),
    serverHotkey: async () => (await admitted(() => vigil.network.identity(call))).server_hotkey,
    ...(token === null
      ? {}
      : {
          attestation: (hash: string) => admitted(() => orNull(vigil.attestations.get(hash, call))),
          artifact: (id: string, proof: boolean) => admitted(() => orNull(proof ? vigil.artifacts.getWithProof(id, call) : vigil.artifacts.get(id, call))),
        }),
  };
  const pinned = flags.logKey;
  if (pinned !== undefined) {
    const kept = state.logs[parseVerifierKey(pinned).name];
    if (kept !== undefined && kept.log_key !== pinned) {
      throw new CliError(`--state: ${flags.state}: the state file pins another key for ${kept.origin} (${kept.log_key}) than --log-key`);
    }
  }
  let result;
  try {
    result = await auditLog({
      source,
      previous: (origin) => state.logs[origin],
      ...(pinned !== undefined ? { pinnedKey: pinned } : {}),
      concurrency: flags.concurrency,
      progressEvery: flags.progressEvery,
      onProgress: (read, size) => {
        if (flags.progressEvery > 0) ctx.io.stderr(`vigil: log audit: ${read} of ${size} entries read\n`);
      },
      signal: stop.signal,
    });
  } catch (err) {
    if (stop.signal.aborted) {
      ctx.io.stderr('vigil: interrupted: log audit stopped; nothing printed\n');
      return EXIT.interrupted;
    }
    throw err;
  }
  ctx.emit(
    () => {
      const c = ctx.out.c;
      const failed = { log_inconsistent: 'LOG INCONSISTENT', bad_checkpoint_signature: 'BAD CHECKPOINT SIGNATURE', served_mismatch: 'SERVED DIFFERS FROM LOG' } as const;
      ctx.out.line(result.ok ? c.green('audited') : c.red(failed[result.failure!]));
      const types = Object.entries(result.entry_types).map(([type, n]) => `${type}: ${n}`);
      const skipped = Object.entries(result.not_checkable).map(([why, n]) => `${n} (${why})`);
      const rows: [string, string][] = [
        ['log', result.origin ?? '-'],
        ['log key', result.log_key ? `${result.log_key} (${KEY_SOURCE[result.log_key_source]})` : '-'],
        ['checkpoint', result.checkpoint ? `${result.checkpoint.size} entries (root ${result.checkpoint.root})` : '-'],
      ];
      if (result.state !== null) rows.push(['state', `${result.state.size} entries (root ${result.state.root}): ${result.state.agrees ? 'a prefix of this log' : 'not confirmed'}`]);
      rows.push(['entries read', `${result.entries}${types.length > 0 ? ` (${types.join(', ')})` : ''}`]);
      if (result.checkpoint !== null && result.entries === result.checkpoint.size) {
        rows.push(['checked', `${result.checked.attestations} attestations, ${result.checked.verdicts} artifacts' latest verdicts (${result.checked.verdict_history} earlier verdict entries are history)`]);
        if (result.changed_since_checkpoint > 0) rows.push(['changed since', `${result.changed_since_checkpoint} artifacts' verdicts were published after this checkpoint (proven later in the log)`]);
        rows.push(['not checkable', skipped.length > 0 ? skipped.join('; ') : '0']);
      }
      if (result.reason) rows.push(['reason', result.reason]);
      ctx.out.fields(rows);
      for (const m of result.mismatches) ctx.out.line(`  ${c.red('differs')} ${m.reason}`);
      if (result.mismatch_count > result.mismatches.length) ctx.out.line(`  … and ${result.mismatch_count - result.mismatches.length} more`);
    },
    result,
  );
  return result.ok ? EXIT.ok : AUDIT_EXIT[result.failure!];
}

/** The server's transparency log, checked from the outside (docs/log.md, docs/cli.md "The log"). */
export function registerLog(program: Command, kit: Kit): void {
  const log = program.command('log').description("the server's transparency log, checked against a pinned key");
  examples(
    log
      .command('monitor')
      .description(
        'fetch the latest checkpoint, verify its signature and its consistency with the last one seen (kept in the state file), and check every new entry through the tiles; exit 9 on a fork or a rewritten history',
      )
      .option('--log-key <vkey>', "the log's verifier key to trust (<origin>+<id>+<key>); without it, the key kept in the state file, else the one derived from GET /v1/server-identity", logKeyArg)
      .option('--state <file>', 'where the last verified checkpoint of each log is kept (default: log-monitor.json in the configuration directory)')
      .option('--witness <vkey>', "a witness's cosignature key (<name>+<id>+<key>, type 0x04) whose cosignature the checkpoint must carry; repeatable", witnessArg)
      .option('--min-witnesses <n>', 'with --witness: how many of the given witnesses must have cosigned (default 1)', minWitnessesArg)
      .action(action(kit, async (ctx, opts: MonitorFlags) => monitor(ctx, opts))),
    ['vigil log monitor --log-key "$VIGIL_LOG_KEY"', 'vigil log monitor --log-key "$VIGIL_LOG_KEY" --state ./vigil-log.json --json', 'vigil log monitor --log-key "$VIGIL_LOG_KEY" --witness "$WITNESS_KEY"'],
  );
  examples(
    log
      .command('audit')
      .description(
        "read every entry of the log, recompute the root and compare it with the signed checkpoint (and --state's), then check each entry against what the server serves today; exit 11 when it serves something the log does not say",
      )
      .option('--log-key <vkey>', "the log's verifier key to trust (<origin>+<id>+<key>); without it, the key in --state, else the one derived from GET /v1/server-identity", logKeyArg)
      .option('--state <file>', "a `vigil log monitor` state file: its checkpoint of this log must be a prefix of the audited one (read, never written)")
      .option('--concurrency <n>', 'reads of attestations, artifacts and entry bundles at once (1-32, default 4)', intArg('--concurrency', 1, 32), 4)
      .option('--progress-every <n>', 'a progress line on stderr every n entries read (0: none; default 10000)', intArg('--progress-every', 0, 1_000_000_000), 10_000)
      .action(action(kit, async (ctx, opts: AuditFlags) => audit(ctx, opts))),
    ['vigil log audit --log-key "$VIGIL_LOG_KEY"', 'vigil log audit --log-key "$VIGIL_LOG_KEY" --state ./vigil-log.json --json'],
  );
}
