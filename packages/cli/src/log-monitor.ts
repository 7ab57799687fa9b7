import {
  checkCheckpointUpdate,
  cosignatureVerifier,
  formatHash,
  leafHash,
  noteVerifier,
  openCheckpoint,
  parseEntryBundle,
  parseHash,
  parseVerifierKey,
  storedHashIndex,
  tileHashReader,
  tilePath,
  TlogError,
  type Checkpoint,
} from '@vigil/tlog';
import { badOriginReason, chooseLog, entryBundleTiles, resolveLogKey, TILE_WIDTH } from './log-key.js';

/**
 * `vigil log monitor` (docs/cli.md, "The log"): follows the server's transparency log from the last
 * checkpoint it verified. Everything the server sends is checked against the pinned log key and the
 * previous checkpoint; nothing it says is trusted. Pure of I/O: the log is read through `LogSource`,
 * the state comes in and goes out.
 */

/** What the monitor reads from the server (the SDK's `vigil.log` and the identity key). */
export interface LogSource {
  checkpoint(): Promise<string>;
  consistency(from: number, to: number): Promise<Uint8Array[]>;
  tile(path: string): Promise<Uint8Array>;
  /** GET /v1/server-identity's key, for a log key that is neither pinned nor in the state. */
  serverHotkey(): Promise<string>;
}

/** The last checkpoint the monitor verified for one log (one origin). */
export interface LogState {
  origin: string;
  /** The verifier key every checkpoint of this log must be signed with. */
  log_key: string;
  size: number;
  /** Base64 root hash. */
  root: string;
  /** The signed checkpoint note, verbatim. */
  checkpoint: string;
  /** When it was verified, ISO 8601. */
  checked_at: string;
}

/** Why the monitor failed; each has its exit status (docs/cli.md, "Exit status"). */
export type MonitorFailure = 'bad_checkpoint_signature' | 'log_inconsistent' | 'not_witnessed';

export interface MonitorResult {
  ok: boolean;
  failure: MonitorFailure | null;
  reason: string | null;
  origin: string | null;
  log_key: string | null;
  /** Where the key came from: `--log-key`, the state file (pinned at the first run), or the server's identity (not pinned). */
  log_key_source: 'pinned' | 'state' | 'server-identity';
  previous: { size: number; root: string } | null;
  checkpoint: { size: number; root: string } | null;
  /** Entries read and checked this run (from the previous size to the new one). */
  new_entries: number;
  /** The new entries by their `type` field. */
  entry_types: Record<string, number>;
  /** With `--witness`: the names of the given witnesses whose cosignature of the checkpoint verified; null without. */
  witness_cosignatures: string[] | null;
  /** The state to keep: the new checkpoint when ok, else null (the previous state stays). */
  state: LogState | null;
}

function emptyResult(keySource: MonitorResult['log_key_source']): MonitorResult {
  return { ok: false, failure: null, reason: null, origin: null, log_key: null, log_key_source: keySource, previous: null, checkpoint: null, new_entries: 0, entry_types: {}, witness_cosignatures: null, state: null };
}


/**
 * Reads entries [from, to) of the tree `checkpoint` through the tiles: each leaf hash through a
 * tile reader that checks every tile against the signed root, each entry from its bundle, and
 * compares leafHash(entry) with the tree's leaf. Throws a TlogError, or a plain Error naming the
 * first entry that does not match.
 */
async function checkEntries(source: LogSource, checkpoint: Checkpoint, from: number, to: number, types: Record<string, number>): Promise<void> {
  const reader = tileHashReader(checkpoint, { readTiles: (tiles) => Promise.all(tiles.map((t) => source.tile(tilePath(t)))) });
  const decoder = new TextDecoder();
  for (const bundle of entryBundleTiles(from, to, checkpoint.size)) {
    const entries = parseEntryBundle(await source.tile(tilePath(bundle)));
    if (entries.length !== bundle.width) throw new Error(`${tilePath(bundle)} holds ${entries.length} entries, not ${bundle.width}`);
    const first = Math.max(from, bundle.n * TILE_WIDTH);
    const last = Math.min(to, bundle.n * TILE_WIDTH + bundle.width);
    const indexes = Array.from({ length: last - first }, (_, i) => first + i);
    const leaves = await reader.readHashes(indexes.map((i) => storedHashIndex(0, i)));
    for (const [k, index] of indexes.entries()) {
      const entry = entries[index - bundle.n * TILE_WIDTH]!;
      if (formatHash(leafHash(entry)) !== formatHash(leaves[k]!)) {
        throw new Error(`entry ${index} of ${tilePath(bundle)} is not the entry the signed tree holds at that index (its leaf hash differs)`);
      }
      let type = '(not JSON)';
      try {
        const parsed = JSON.parse(decoder.decode(entry)) as { type?: unknown };
        type = typeof parsed?.type === 'string' ? parsed.type : '(no type)';
      } catch {
        // Counted as not JSON: the log proves what was logged, whatever it is.
      }
      types[type] = (types[type] ?? 0) + 1;
    }
  }
}

/**
 * Thrown by a LogSource when the server answers that its log has not reached a size (404
 * `log_size_not_reached`): after it signed a checkpoint of that size, a contradiction of its own.
 */
export class SizeNotReachedError extends Error {
  override name = 'SizeNotReachedError';
}

/** The state file and the command line disagree: the user's to resolve (exit 1). */
export class MonitorStateError extends Error {
  override name = 'MonitorStateError';
}

export interface MonitorInput {
  source: LogSource;
  /** The state kept for this log by the last run, if any (found by the checkpoint's origin). */
  previous: (origin: string) => LogState | undefined;
  /** `--log-key`. */
  pinnedKey?: string;
  /** `--witness`: witness verifier keys (type 0x04), and how many of them must have cosigned (`--min-witnesses`). */
  witnesses?: readonly string[];
  minWitnesses?: number;
  now: Date;
}

export async function monitorLog(input: MonitorInput): Promise<MonitorResult> {
  const { source } = input;
  const note = await source.checkpoint();
  const chosen = chooseLog(note, input.pinnedKey, input.previous);
  const { claimedOrigin, previous } = chosen;
  if (input.pinnedKey !== undefined && previous !== undefined && previous.log_key !== input.pinnedKey) {
    throw new MonitorStateError(`the state file pins another key for ${claimedOrigin} (${previous.log_key}) than --log-key`);
  }
  const result = emptyResult(chosen.keySource);
  const logKey = await resolveLogKey(chosen, input.pinnedKey, () => source.serverHotkey());
  if (logKey === null) return { ...result, failure: 'bad_checkpoint_signature', reason: badOriginReason(claimedOrigin) };
  result.log_key = logKey;
  const origin = parseVerifierKey(logKey).name;
  result.origin = origin;
  const verifier = noteVerifier(logKey);
  if (previous !== undefined) result.previous = { size: previous.size, root: previous.root };

  let checkpoint: Checkpoint;
  if (previous === undefined) {
    try {
      checkpoint = openCheckpoint(note, origin, verifier).checkpoint;
    } catch (err) {
      if (!(err instanceof TlogError)) throw err;
      return { ...result, failure: 'bad_checkpoint_signature', reason: `the checkpoint is not signed by ${logKey}: ${err.message}` };
    }
  } else {
    const old: Checkpoint = { origin: previous.origin, size: previous.size, root: parseHash(previous.root), extensions: [] };
    // The proof is asked for only when the new tree is larger; checkCheckpointUpdate judges sizes and roots first.
    const claimedSize = Number(note.split('\n', 2)[1]);
    let proof: Uint8Array[] = [];
    if (Number.isSafeInteger(claimedSize) && claimedSize > previous.size && previous.size > 0) {
      try {
        proof = await source.consistency(previous.size, claimedSize);
      } catch (err) {
        if (!(err instanceof SizeNotReachedError)) throw err;
        // Only a contradiction if the checkpoint is really the log's: a forged note is a bad signature.
        const verdict = checkCheckpointUpdate({ previous: old, next: note, proof: [], origin, logVerifier: verifier });
        if (verdict.verdict === 'bad_signature') return { ...result, failure: 'bad_checkpoint_signature', reason: `the checkpoint is not signed by ${logKey}: ${verdict.reason}` };
        return {
          ...result,
          checkpoint: 'checkpoint' in verdict ? { size: verdict.checkpoint.size, root: formatHash(verdict.checkpoint.root) } : null,
          failure: 'log_inconsistent',
          reason: `the log signed a checkpoint of ${claimedSize} entries but answers that it has not reached that size (GET /v1/log/consistency: log_size_not_reached)`,
        };
      }
    }
    const verdict = checkCheckpointUpdate({ previous: old, next: note, proof, origin, logVerifier: verifier });
    if (verdict.verdict === 'bad_signature') return { ...result, failure: 'bad_checkpoint_signature', reason: `the checkpoint is not signed by ${logKey}: ${verdict.reason}` };
    if (verdict.verdict !== 'consistent') {
      return {
        ...result,
        checkpoint: { size: verdict.checkpoint.size, root: formatHash(verdict.checkpoint.root) },
        failure: 'log_inconsistent',
        reason: verdict.verdict === 'shrinking_tree' ? `the log shrank: ${verdict.reason}` : verdict.reason,
      };
    }
    checkpoint = verdict.checkpoint;
  }
  result.checkpoint = { size: checkpoint.size, root: formatHash(checkpoint.root) };

  const witnessKeys = input.witnesses ?? [];
  if (witnessKeys.length > 0) {
    const witnesses = witnessKeys.map((vkey) => cosignatureVerifier(vkey));
    let cosigned: string[];
    try {
      const { note: opened } = openCheckpoint(note, origin, verifier, witnesses);
      cosigned = opened.sigs.filter((sig) => witnesses.some((w) => w.name === sig.name && w.keyId === sig.keyId)).map((sig) => sig.name);
    } catch (err) {
      if (!(err instanceof TlogError)) throw err;
      // The log's signature verified above: what fails now is a given witness's line.
      return { ...result, failure: 'bad_checkpoint_signature', reason: `a witness cosignature of the checkpoint does not verify: ${err.message}` };
    }
    result.witness_cosignatures = cosigned;
    const required = input.minWitnesses ?? 1;
    if (cosigned.length < required) {
      return { ...result, failure: 'not_witnessed', reason: `the checkpoint has ${cosigned.length} cosignature(s) of the given witnesses, ${required} required` };
    }
  }

  const from = previous?.size ?? 0;
  try {
    await checkEntries(source, checkpoint, from, checkpoint.size, result.entry_types);
  } catch (err) {
    // A tile that does not hash to the signed root, or an entry that is not the tree's leaf: the
    // server serves another log than the one it signed. A failed request is an error (exit 1).
    if (err instanceof TlogError && err.code !== 'inconsistent_tile' && err.code !== 'malformed_entry_bundle') throw err;
    if (!(err instanceof TlogError) && !(err instanceof Error && /^(entry \d+|tile\/)/.test(err.message))) throw err;
    return { ...result, failure: 'log_inconsistent', reason: `the tiles do not match the signed checkpoint of ${checkpoint.size} entries: ${(err as Error).message}` };
  }
  result.new_entries = checkpoint.size - from;
  result.ok = true;
  result.state = { origin, log_key: logKey, size: checkpoint.size, root: formatHash(checkpoint.root), checkpoint: note, checked_at: input.now.toISOString() };
  return result;
}
