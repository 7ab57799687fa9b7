import { formatOffsetTimestamp } from '@vigil/core';
import { createAttestationVerifier, type AttestationVerifier } from '@vigil/crypto';
import {
  formatHash,
  leafHash,
  noteVerifier,
  openCheckpoint,
  parseEntryBundle,
  parseVerifierKey,
  tilePath,
  TlogError,
  verifyTlogProof,
  type Checkpoint,
} from '@vigil/tlog';
import type { LogState } from './log-monitor.js';
import { badOriginReason, chooseLog, entryBundleTiles, resolveLogKey } from './log-key.js';
import { RootAccumulator } from './root-accumulator.js';

/**
 * `vigil log audit` (docs/cli.md, "Auditing the log"): replays every entry of the server's
 * transparency log, recomputes the root from them, and checks each entry against what the server
 * serves today. Pure of I/O: the server is read through `AuditSource`.
 */

/** The parts of `GET /v1/attestations/{canonical_hash}` the audit compares (the SDK's answer). */
export interface ServedAttestation {
  attestation: { canonical_hash: string; validator_hotkey: string; verdict: string; recorded_at: Date; artifact: { id: number; bundle_hash: string } };
  envelope: { canonical_hash: string; signature: string; payload: { validator_hotkey?: unknown; verdict?: unknown; artifact?: { bundle_hash?: unknown } } } | null;
}

/** The parts of `GET /v1/artifacts/{id}` the audit compares. */
export interface ServedArtifact {
  track: string;
  verdict: { verdict: string; risk_score: number; round_id: string; decided_at: Date } | null;
  log_entry?: string | null | undefined;
  log_proof?: string | null | undefined;
}

export interface AuditSource {
  checkpoint(): Promise<string>;
  tile(path: string): Promise<Uint8Array>;
  serverHotkey(): Promise<string>;
  /** Null when the server answers 404. Absent without an API token: attestations are read with a key. */
  attestation?: (canonicalHash: string) => Promise<ServedAttestation | null>;
  /** `art_<id>`, with `?proof=true` when `proof`; null when the server answers 404. Absent without a token. */
  artifact?: (id: string, proof: boolean) => Promise<ServedArtifact | null>;
}

export type AuditFailure = 'bad_checkpoint_signature' | 'log_inconsistent' | 'served_mismatch';

export interface AuditMismatch {
  index: number;
  type: string;
  /** The attestation's canonical hash, or the artifact's bundle hash. */
  subject: string;
  reason: string;
}

export interface AuditResult {
  ok: boolean;
  failure: AuditFailure | null;
  reason: string | null;
  origin: string | null;
  log_key: string | null;
  log_key_source: 'pinned' | 'state' | 'server-identity';
  checkpoint: { size: number; root: string } | null;
  /** The monitor's checkpoint of this log (`--state`) and whether the entries agree with it; null without one. */
  state: { size: number; root: string; agrees: boolean } | null;
  /** Entries read (all of them unless the log failed). */
  entries: number;
  entry_types: Record<string, number>;
  /** Attestation entries checked against their served attestation; verdict entries checked (the latest of each artifact) and those that are history. */
  checked: { attestations: number; verdicts: number; verdict_history: number };
  /** Artifacts whose served verdict was published after the audited checkpoint (its log entry proven later in the log). */
  changed_since_checkpoint: number;
  /** Entries that could not be checked against a public read, by why. */
  not_checkable: Record<string, number>;
  mismatch_count: number;
  /** The first `MAX_LISTED` mismatches, in entry order. */
  mismatches: AuditMismatch[];
}

const MAX_LISTED = 100;

export const NOT_CHECKABLE = {
  noToken: 'no API token: attestations and artifacts are read with a key (scope read)',
  unknownArtifact: 'no logged attestation names the artifact, so its id is not known',
  unreadableArtifact: 'the artifact is not readable with this key (another account’s upload)',
  unknownType: 'not an entry type this audit knows',
} as const;

export class AuditInterrupted extends Error {
  override name = 'AuditInterrupted';
}

export interface AuditInput {
  source: AuditSource;
  /** The monitor's state for an origin (`--state`), if any. */
  previous: (origin: string) => LogState | undefined;
  pinnedKey?: string;
  /** How many reads of attestations and artifacts run at once (and entry bundles read ahead). */
  concurrency: number;
  /** Called after every `progressEvery` entries read (0: never), and once at the end of the read. */
  progressEvery: number;
  onProgress?: (read: number, size: number) => void;
  signal?: AbortSignal;
}

/** At most `limit` tasks at once; `run` waits for a free slot, so the caller is held back (bounded memory). */
class Pool {
  #running = 0;
  #waiting: (() => void)[] = [];
  #tasks = new Set<Promise<void>>();
  #error: unknown = undefined;
  constructor(private readonly limit: number) {}

  async run(task: () => Promise<void>): Promise<void> {
    while (this.#running >= this.limit) await new Promise<void>((resolve) => this.#waiting.push(resolve));
    if (this.#error !== undefined) throw this.#error;
    this.#running++;
    const p = task()
      .catch((err: unknown) => {
        this.#error ??= err;
      })
      .finally(() => {
        this.#running--;
        this.#tasks.delete(p);
        this.#waiting.shift()?.();
      });
    this.#tasks.add(p);
  }

  async drain(): Promise<void> {
    while (this.#tasks.size > 0) await Promise.all([...this.#tasks]);
    if (this.#error !== undefined) throw this.#error;
  }
}


type Entry = Record<string, unknown>;

/** The latest verdict entry of one artifact, by bundle hash. */
interface LatestVerdict {
  index: number;
  entry: Entry;
  bytes: string;
}

const show = (value: unknown) => (typeof value === 'string' ? value : JSON.stringify(value));

export async function auditLog(input: AuditInput): Promise<AuditResult> {
  const { source, signal } = input;
  const checkAborted = () => {
    if (signal?.aborted) throw new AuditInterrupted('interrupted');
  };
  const note = await source.checkpoint();
  const chosen = chooseLog(note, input.pinnedKey, input.previous);
  const { claimedOrigin, previous, keySource } = chosen;
  const result: AuditResult = {
    ok: false,
    failure: null,
    reason: null,
    origin: null,
    log_key: null,
    log_key_source: keySource,
    checkpoint: null,
    state: null,
    entries: 0,
    entry_types: {},
    checked: { attestations: 0, verdicts: 0, verdict_history: 0 },
    changed_since_checkpoint: 0,
    not_checkable: {},
    mismatch_count: 0,
    mismatches: [],
  };
  const logKey = await resolveLogKey(chosen, input.pinnedKey, () => source.serverHotkey());
  if (logKey === null) return { ...result, failure: 'bad_checkpoint_signature', reason: badOriginReason(claimedOrigin) };
  result.log_key = logKey;
  const origin = parseVerifierKey(logKey).name;
  result.origin = origin;
  const verifier = noteVerifier(logKey);
  let checkpoint: Checkpoint;
  try {
    checkpoint = openCheckpoint(note, origin, verifier).checkpoint;
  } catch (err) {
    if (!(err instanceof TlogError)) throw err;
    return { ...result, failure: 'bad_checkpoint_signature', reason: `the checkpoint is not signed by ${logKey}: ${err.message}` };
  }
  result.checkpoint = { size: checkpoint.size, root: formatHash(checkpoint.root) };
  if (previous !== undefined) {
    result.state = { size: previous.size, root: previous.root, agrees: false };
    if (previous.size > checkpoint.size) {
      return { ...result, failure: 'log_inconsistent', reason: `the log shrank: the state file holds a checkpoint of ${previous.size} entries, the server signed one of ${checkpoint.size}` };
    }
  }

  const notCheckable = (why: string) => {
    result.not_checkable[why] = (result.not_checkable[why] ?? 0) + 1;
  };
  const mismatch = (m: AuditMismatch) => {
    result.mismatch_count++;
    if (result.mismatches.length < MAX_LISTED) result.mismatches.push(m);
  };
  // Hash and signature of a served envelope; the permit is not the audit's question (no snapshot).
  const envelopes: AttestationVerifier = createAttestationVerifier(null as never);
  /** Artifact ids by bundle hash, learned from the attestations served. */
  const artifactIds = new Map<string, number>();
  const latest = new Map<string, LatestVerdict>();
  const pool = new Pool(input.concurrency);

  const checkAttestation = async (index: number, entry: Entry): Promise<void> => {
    const hash = show(entry.canonical_hash);
    const served = await source.attestation!(hash);
    if (served === null) {
      mismatch({ index, type: 'vigil.attestation/v1', subject: hash, reason: `entry ${index} logs attestation ${hash}, but GET /v1/attestations/${hash} answers 404 (attestation not found)` });
      return;
    }
    const record = served.attestation;
    artifactIds.set(record.artifact.bundle_hash, record.artifact.id);
    // The entry as docs/log.md builds it from the record; the signature only the envelope has.
    const expected: [string, unknown][] = [
      ['type', 'vigil.attestation/v1'],
      ['canonical_hash', record.canonical_hash],
      ['validator_hotkey', record.validator_hotkey],
      ['bundle_hash', record.artifact.bundle_hash],
      ['verdict', record.verdict],
      ['recorded_at', formatOffsetTimestamp(record.recorded_at)],
    ];
    if (served.envelope !== null) {
      expected.push(
        ['signature', served.envelope.signature],
        ['canonical_hash', served.envelope.canonical_hash],
        ['validator_hotkey', served.envelope.payload.validator_hotkey],
        ['bundle_hash', served.envelope.payload.artifact?.bundle_hash],
        ['verdict', served.envelope.payload.verdict],
      );
    }
    for (const [field, value] of expected) {
      if (entry[field] !== value) {
        mismatch({ index, type: 'vigil.attestation/v1', subject: hash, reason: `entry ${index} logs attestation ${hash} with ${field} ${show(entry[field])}, the server serves ${show(value)}` });
        return;
      }
    }
    if (served.envelope !== null) {
      const verified = envelopes.verify(served.envelope);
      if (!verified.checks.hash || !verified.checks.signature) {
        mismatch({ index, type: 'vigil.attestation/v1', subject: hash, reason: `the envelope served for attestation ${hash} (entry ${index}) does not verify: ${verified.reason}` });
        return;
      }
    }
    result.checked.attestations++;
  };

  const checkVerdict = async (bundleHash: string, last: LatestVerdict): Promise<void> => {
    const id = artifactIds.get(bundleHash);
    if (id === undefined) return notCheckable(NOT_CHECKABLE.unknownArtifact);
    const served = await source.artifact!(`art_${id}`, false);
    if (served === null) return notCheckable(NOT_CHECKABLE.unreadableArtifact);
    const e = last.entry;
    const says = `${show(e.verdict)} (risk ${show(e.risk_score)}, round ${show(e.round_id)}, published ${show(e.published_at)})`;
    /** What the artifact serves, when it is not `entry`'s verdict; null when it is. */
    const differs = (artifact: ServedArtifact, entry: Entry): string | null => {
      if (artifact.track !== entry.track) return `track ${artifact.track}`;
      const v = artifact.verdict;
      if (v === null) return 'no published verdict';
      const fields: [unknown, unknown][] = [
        [v.verdict, entry.verdict],
        [v.risk_score, entry.risk_score],
        [v.round_id, entry.round_id],
        [formatOffsetTimestamp(v.decided_at), entry.published_at],
      ];
      return fields.every(([a, b]) => a === b) ? null : `${v.verdict} (risk ${v.risk_score}, round ${v.round_id}, decided ${formatOffsetTimestamp(v.decided_at)})`;
    };
    const servedNow = differs(served, e);
    if (servedNow === null) {
      result.checked.verdicts++;
      return;
    }
    // Published after the checkpoint? Then the server proves, with the log key, a later entry of
    // this artifact that is the verdict it serves.
    const proven = await source.artifact!(`art_${id}`, true);
    if (proven !== null && typeof proven.log_entry === 'string' && typeof proven.log_proof === 'string') {
      try {
        const later = verifyTlogProof(proven.log_proof, { leafHash: leafHash(new TextEncoder().encode(proven.log_entry)), origin, logVerifier: verifier });
        const entry = JSON.parse(proven.log_entry) as Entry;
        if (later.index >= checkpoint.size && entry.type === 'vigil.verdict/v1' && entry.bundle_hash === bundleHash && differs(proven, entry) === null) {
          result.changed_since_checkpoint++;
          return;
        }
      } catch (err) {
        if (!(err instanceof TlogError) && !(err instanceof SyntaxError)) throw err;
      }
    }
    mismatch({
      index: last.index,
      type: 'vigil.verdict/v1',
      subject: bundleHash,
      reason: `entry ${last.index}, the latest verdict logged for ${bundleHash}, says ${says}; the server publishes ${servedNow} for art_${id}`,
    });
  };

  const acc = new RootAccumulator();
  const decoder = new TextDecoder();
  const all = entryBundleTiles(0, checkpoint.size, checkpoint.size);
  // Bundles are read ahead, `concurrency` at a time, and consumed in order.
  const ahead: Promise<Uint8Array>[] = [];
  let next = 0;
  const fill = () => {
    while (ahead.length < input.concurrency && next < all.length) {
      const p = source.tile(tilePath(all[next++]!));
      p.catch(() => undefined); // awaited in order below; a rejection is not left unhandled meanwhile
      ahead.push(p);
    }
  };
  const stateMismatch = () => `the log's first ${previous!.size} entries hash to ${formatHash(acc.root())}, not the root ${previous!.root} of the checkpoint in the state file (a rewritten history)`;
  for (const bundle of all) {
    checkAborted();
    fill();
    let entries: Uint8Array[];
    try {
      entries = parseEntryBundle(await ahead.shift()!);
    } catch (err) {
      if (!(err instanceof TlogError)) throw err;
      return { ...result, failure: 'log_inconsistent', reason: `${tilePath(bundle)}: ${err.message}` };
    }
    if (entries.length !== bundle.width) {
      return { ...result, failure: 'log_inconsistent', reason: `${tilePath(bundle)} holds ${entries.length} entries, not ${bundle.width}` };
    }
    for (const bytes of entries) {
      const index = acc.size;
      acc.push(leafHash(bytes));
      result.entries++;
      if (previous !== undefined && acc.size === previous.size) {
        if (formatHash(acc.root()) !== previous.root) return { ...result, failure: 'log_inconsistent', reason: stateMismatch() };
        result.state!.agrees = true;
      }
      let entry: Entry | null = null;
      const text = decoder.decode(bytes);
      try {
        const parsed = JSON.parse(text) as unknown;
        if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)) entry = parsed as Entry;
      } catch {
        // Counted as not JSON: the log proves what was logged, whatever it is.
      }
      const type = entry === null ? '(not JSON)' : typeof entry.type === 'string' ? entry.type : '(no type)';
      result.entry_types[type] = (result.entry_types[type] ?? 0) + 1;
      if (type === 'vigil.attestation/v1' && entry !== null) {
        if (source.attestation === undefined) notCheckable(NOT_CHECKABLE.noToken);
        else await pool.run(() => checkAttestation(index, entry));
      } else if (type === 'vigil.verdict/v1' && entry !== null) {
        const key = show(entry.bundle_hash);
        if (latest.has(key)) result.checked.verdict_history++;
        latest.set(key, { index, entry, bytes: text });
      } else {
        notCheckable(NOT_CHECKABLE.unknownType);
      }
      if (input.progressEvery > 0 && result.entries % input.progressEvery === 0) input.onProgress?.(result.entries, checkpoint.size);
    }
  }
  input.onProgress?.(result.entries, checkpoint.size);
  if (previous !== undefined && previous.size === 0) result.state!.agrees = true;
  const root = formatHash(acc.root());
  if (root !== formatHash(checkpoint.root)) {
    await pool.drain().catch(() => undefined);
    return { ...result, failure: 'log_inconsistent', reason: `the ${checkpoint.size} entries served hash to ${root}, not the signed root ${formatHash(checkpoint.root)}` };
  }
  await pool.drain();
  for (const [bundleHash, last] of latest) {
    checkAborted();
    if (source.artifact === undefined) notCheckable(NOT_CHECKABLE.noToken);
    else await pool.run(() => checkVerdict(bundleHash, last));
  }
  await pool.drain();
  checkAborted();
  result.mismatches.sort((a, b) => a.index - b.index);
  if (result.mismatch_count > 0) {
    return { ...result, failure: 'served_mismatch', reason: `${result.mismatch_count} logged entr${result.mismatch_count === 1 ? 'y does' : 'ies do'} not match what the server serves; first: ${result.mismatches[0]!.reason}` };
  }
  return { ...result, ok: true };
}
