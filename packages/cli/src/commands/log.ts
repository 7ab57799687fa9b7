import { chmod, mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { noteVerifier, TlogError } from '@vigil/tlog';
import type { Command } from 'commander';
import { action, examples, type Kit } from '../command-kit.js';
import { configDir } from '../config.js';
import type { Context } from '../context.js';
import { CliError, EXIT, UsageError } from '../exit-codes.js';
import { monitorLog, MonitorStateError, SizeNotReachedError, type LogState, type MonitorFailure } from '../log-monitor.js';

/** The monitor's state: the last verified checkpoint of each log it follows, by origin. */
interface StateFile {
  logs: Record<string, LogState>;
}

const MONITOR_EXIT: Record<MonitorFailure, number> = { bad_checkpoint_signature: EXIT.badCheckpointSignature, log_inconsistent: EXIT.logInconsistent };

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

async function readState(path: string): Promise<StateFile> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { logs: {} };
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

/** Replaces the file in one step: a monitor stopped mid-write keeps its previous state. */
async function writeState(path: string, state: StateFile): Promise<void> {
  await mkdir(dirname(path), { recursive: true, mode: 0o700 });
  const temporary = `${path}.${process.pid}.tmp`;
  await writeFile(temporary, `${JSON.stringify(state, null, 2)}\n`, { mode: 0o600 });
  await chmod(temporary, 0o600);
  await rename(temporary, path);
}

const KEY_SOURCE = { pinned: 'pinned with --log-key', state: 'pinned in the state file (first run)', 'server-identity': 'from GET /v1/server-identity: not pinned' } as const;

async function monitor(ctx: Context, flags: { logKey?: string; state?: string }): Promise<number> {
  const path = flags.state ?? join(configDir(ctx.io), 'log-monitor.json');
  const state = await readState(path);
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
      ctx.out.line(result.ok ? c.green('consistent') : c.red(result.failure === 'log_inconsistent' ? 'LOG INCONSISTENT' : 'BAD CHECKPOINT SIGNATURE'));
      const types = Object.entries(result.entry_types).map(([type, n]) => `${type}: ${n}`);
      ctx.out.fields([
        ['log', result.origin],
        ['log key', result.log_key ? `${result.log_key} (${KEY_SOURCE[result.log_key_source]})` : '-'],
        ['previous', result.previous ? `${result.previous.size} entries (root ${result.previous.root})` : 'none: first run, every entry read'],
        ['checkpoint', result.checkpoint ? `${result.checkpoint.size} entries (root ${result.checkpoint.root})` : '-'],
        ...(result.ok ? ([['new entries', `${result.new_entries}${types.length > 0 ? ` (${types.join(', ')})` : ''}`]] as [string, string][]) : []),
        ...(result.reason ? ([['reason', result.reason]] as [string, string][]) : []),
        ['state', result.ok ? path : `${path} (unchanged)`],
      ]);
    },
    { ...shown, state_file: path },
  );
  return result.ok ? EXIT.ok : MONITOR_EXIT[result.failure!];
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
      .action(action(kit, async (ctx, opts: { logKey?: string; state?: string }) => monitor(ctx, opts))),
    ['vigil log monitor --log-key "$VIGIL_LOG_KEY"', 'vigil log monitor --log-key "$VIGIL_LOG_KEY" --state ./vigil-log.json --json'],
  );
}
