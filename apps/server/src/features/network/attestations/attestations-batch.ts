import { randomUUID } from 'node:crypto';
import { AttestationSubmission, type AttestationPayload, type ErrorCode } from '@vigil/core';
import type { Kysely, Transaction } from 'kysely';
import { partitionKeysOfHashes } from '../../../platform/db/attestation-partitions.js';
import { lockForUpdate } from '../../../platform/db/dialect.js';
import type { Database } from '../../../platform/db/schema.js';
import { chunkRows } from '../../../platform/db/chunk-rows.js';
import { applyAttestationAggregatesBatch, type AttestationFacts } from './aggregates.js';
import { inTransaction } from '../../../platform/db/transaction.js';
import { SpanKind, withSpan } from '../../../platform/tracing/index.js';
import { indexAttestations } from '../../../platform/search-index.js';
import {
  attestationCreatedEvent,
  attestationDocument,
  attestationRow,
  type CheckedSnapshot,
  checkAgainstTask,
  loggedAttestation,
  selectAttestationTasks,
  type AttestationArtifactRow,
  type AttestationTaskRow,
} from './attestations.js';
import { settleFastVerdict } from '../tasks/fast-tasks.js';
import { VigilError } from '../../../platform/errors.js';
import { appendLogEntries } from '../../log/index.js';

/** Envelopes recorded per transaction; longer inputs are split into consecutive transactions. */
export const MAX_ATTESTATION_BATCH = 500;

export interface AttestationBatchResult {
  canonical_hash: string;
  /** `duplicate`: this exact attestation was already recorded (earlier, or earlier in the batch). */
  outcome: 'created' | 'duplicate' | 'refused';
  /** The stored attestation's id (created and duplicate). */
  id?: number;
  isRerun?: boolean;
  /** Why it was refused: the code and message recordAttestation would have thrown. */
  error?: { code: ErrorCode; message: string };
}

interface Parsed {
  index: number;
  /** The payload as received: what is stored (see attestationRow). */
  received: unknown;
  payload: AttestationPayload;
  canonicalHash: string;
  signature: string;
  /** The DSSE signature of the statement, verified by the caller; null when none was sent. */
  dsseSignature: string | null;
}

interface Accepted {
  index: number;
  parsed: Parsed;
  task: AttestationTaskRow;
  artifact: AttestationArtifactRow;
  isRerun: boolean;
}

/** What the stored rows say about a batch, read once under the artifact locks. */
interface StoredState {
  taskById: Map<string, AttestationTaskRow>;
  artifactById: Map<number, AttestationArtifactRow>;
  /** Attestations already stored, by canonical hash. */
  stored: Map<string, { id: number; isRerun: boolean }>;
  validatorStatus: Map<string, string>;
  /** Validators that attested each task; grows as the batch's envelopes are accepted. */
  attestedBy: Map<string, Set<string>>;
}

/** The envelopes accepted for insertion, and those repeating one accepted earlier in the batch. */
interface Decisions {
  accepted: Accepted[];
  duplicatesOfBatch: { index: number; of: Accepted }[];
}

function refused(canonicalHash: string, error: VigilError): AttestationBatchResult {
  return { canonical_hash: canonicalHash, outcome: 'refused', error: { code: error.code, message: error.message } };
}

/** The claimed hash of an envelope that may not even parse (results are keyed by it). */
function claimedHash(envelope: unknown): string {
  const hash = (envelope as { canonical_hash?: unknown } | null)?.canonical_hash;
  return typeof hash === 'string' ? hash : '';
}

async function recordChunk(
  db: Kysely<Database>,
  envelopes: readonly unknown[],
  recordedAt: readonly number[],
  checkedAgainst: CheckedSnapshot | null,
): Promise<AttestationBatchResult[]> {
  const results: AttestationBatchResult[] = new Array(envelopes.length);
  const parsedList = parseEnvelopes(envelopes, results);
  if (parsedList.length === 0) return results;

  return withSpan('vigil.attestations.record_batch', SpanKind.INTERNAL, () => ({ 'vigil.attestations.envelopes': parsedList.length }), () =>
    inTransaction(db, async (trx) => {
      const state = await readStoredState(trx, parsedList);
      const { accepted, duplicatesOfBatch } = decide(parsedList, state, results);
      // A duplicate within the batch always follows an accepted envelope, so none are pending here.
      if (accepted.length === 0) return results;

      const at = (a: Accepted) => recordedAt[a.index]!;
      const ids = await insertAttestations(trx, accepted, at, checkedAgainst);
      for (const a of accepted) {
        results[a.index] = { canonical_hash: a.parsed.canonicalHash, outcome: 'created', id: ids.get(a.parsed.canonicalHash)!, isRerun: a.isRerun };
      }
      for (const d of duplicatesOfBatch) {
        results[d.index] = { canonical_hash: d.of.parsed.canonicalHash, outcome: 'duplicate', id: ids.get(d.of.parsed.canonicalHash)!, isRerun: d.of.isRerun };
      }
      await applyAcceptedEffects(trx, accepted, at);
      return results;
    }),
  );
}

/** The envelopes that parse; each one that does not gets its `invalid_argument` refusal in `results`. */
function parseEnvelopes(envelopes: readonly unknown[], results: AttestationBatchResult[]): Parsed[] {
  const parsedList: Parsed[] = [];
  for (const [index, envelope] of envelopes.entries()) {
    const parsed = AttestationSubmission.safeParse(envelope);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      results[index] = refused(
        claimedHash(envelope),
        new VigilError('invalid_argument', `envelope.${issue?.path.join('.') ?? ''}: ${issue?.message ?? 'invalid'}`),
      );
      continue;
    }
    parsedList.push({ index, received: (envelope as { payload: unknown }).payload, payload: parsed.data.payload, canonicalHash: parsed.data.canonical_hash, signature: parsed.data.signature, dsseSignature: parsed.data.dsse_signature ?? null });
  }
  return parsedList;
}

/** Reads the tasks, locks their artifacts, then reads what the decisions depend on, set-based. */
async function readStoredState(trx: Transaction<Database>, parsedList: readonly Parsed[]): Promise<StoredState> {
  const tasks = await selectAttestationTasks(trx)
    .where('tasks.task_id', 'in', [...new Set(parsedList.map((p) => p.payload.task_id))])
    .execute();
  const state: StoredState = {
    taskById: new Map(tasks.map((t) => [t.task_id, t])),
    artifactById: new Map(),
    stored: new Map(),
    validatorStatus: new Map(),
    attestedBy: new Map(),
  };
  const known = parsedList.filter((p) => state.taskById.has(p.payload.task_id));
  if (known.length === 0) return state;
  const artifactIds = [...new Set(known.map((p) => state.taskById.get(p.payload.task_id)!.artifact_id))].sort((a, b) => a - b);
  await lockArtifacts(trx, artifactIds, state.artifactById);
  // After the locks, as in the single path: no other writer can add to these sets meanwhile.
  const hashes = [...new Set(known.map((p) => p.canonicalHash))];
  const validatorKeys = [...new Set(known.map((p) => p.payload.validator_hotkey))];
  const taskIds = [...new Set(known.map((p) => p.payload.task_id))];
  // PostgreSQL: the months holding any of these hashes, so the lookup reads those partitions only.
  const keys = await partitionKeysOfHashes(trx, hashes);
  const duplicates =
    keys !== undefined && keys.length === 0
      ? []
      : await trx
          .selectFrom('attestations')
          .select(['id', 'is_rerun', 'canonical_hash'])
          .where('canonical_hash', 'in', hashes)
          .$if(keys !== undefined, (q) => q.where('recorded_at', 'in', keys!))
          .execute();
  const validators = await trx.selectFrom('validators').select(['hotkey', 'status']).where('hotkey', 'in', validatorKeys).execute();
  const earlier = await trx.selectFrom('attestations').select(['task_id', 'validator_hotkey']).where('task_id', 'in', taskIds).execute();
  for (const d of duplicates) state.stored.set(d.canonical_hash, { id: d.id, isRerun: d.is_rerun === 1 });
  for (const v of validators) state.validatorStatus.set(v.hotkey, v.status);
  for (const e of earlier) {
    const set = state.attestedBy.get(e.task_id) ?? new Set<string>();
    set.add(e.validator_hotkey);
    state.attestedBy.set(e.task_id, set);
  }
  return state;
}

/**
 * Replays recordAttestation's decisions in input order, against the stored state plus what the
 * envelopes before it in this batch have added. Refusals and stored duplicates go into `results`.
 */
function decide(parsedList: readonly Parsed[], state: StoredState, results: AttestationBatchResult[]): Decisions {
  const decisions: Decisions = { accepted: [], duplicatesOfBatch: [] };
  const acceptedByHash = new Map<string, Accepted>();
  for (const p of parsedList) {
    const task = state.taskById.get(p.payload.task_id);
    if (task === undefined) {
      results[p.index] = refused(p.canonicalHash, new VigilError('task_not_found', `envelope.payload.task_id: no task ${p.payload.task_id}`));
      continue;
    }
    const before = state.stored.get(p.canonicalHash);
    if (before !== undefined) {
      results[p.index] = { canonical_hash: p.canonicalHash, outcome: 'duplicate', id: before.id, isRerun: before.isRerun };
      continue;
    }
    const inBatch = acceptedByHash.get(p.canonicalHash);
    if (inBatch !== undefined) {
      decisions.duplicatesOfBatch.push({ index: p.index, of: inBatch });
      continue;
    }
    const artifact = state.artifactById.get(task.artifact_id)!;
    const problem = checkAgainstTask(p.payload, task, artifact) ?? checkValidator(p.payload, task, state);
    if (problem !== null) {
      results[p.index] = refused(p.canonicalHash, problem);
      continue;
    }
    const validators = state.attestedBy.get(task.task_id) ?? new Set<string>();
    const entry: Accepted = { index: p.index, parsed: p, task, artifact, isRerun: validators.size > 0 };
    validators.add(p.payload.validator_hotkey);
    state.attestedBy.set(task.task_id, validators);
    decisions.accepted.push(entry);
    acceptedByHash.set(p.canonicalHash, entry);
  }
  return decisions;
}

/** The validator checks, in recordAttestation's order: registered, active, not yet attested the task. */
function checkValidator(payload: AttestationPayload, task: AttestationTaskRow, state: StoredState): VigilError | null {
  const status = state.validatorStatus.get(payload.validator_hotkey);
  if (status === undefined) {
    return new VigilError('validator_not_found', `envelope.payload.validator_hotkey: ${payload.validator_hotkey} is not a registered validator`);
  }
  if (status !== 'active') return new VigilError('validator_not_active', `envelope.payload.validator_hotkey: validator is ${status}`);
  if (state.attestedBy.get(task.task_id)?.has(payload.validator_hotkey) === true) {
    return new VigilError('attestation_conflict', 'envelope.payload.task_id: this validator already attested the task');
  }
  return null;
}

/** When each accepted envelope is recorded: the call's `now`, or its own time when history is replayed. */
type RecordedAt = (a: Accepted) => number;

/** What recording the accepted envelopes implies beyond their rows: aggregates, last-seen times, events, log entries. */
async function applyAcceptedEffects(trx: Transaction<Database>, accepted: readonly Accepted[], at: RecordedAt): Promise<void> {
  const facts: AttestationFacts[] = accepted.map((a) => ({
    artifactId: a.artifact.id,
    track: a.task.track,
    verdict: a.parsed.payload.verdict,
    findings: a.parsed.payload.findings,
    recordedAt: at(a),
    isRerun: a.isRerun,
  }));
  await applyAttestationAggregatesBatch(trx, facts);
  await markValidatorsSeen(trx, accepted, at);
  await enqueueCreatedEvents(trx, accepted, at);
  // Each artifact whose fast tasks were attested may now be decided (docs/rounds.md), once per
  // artifact, after all of the batch's attestations of it are in, at the time of the last of them.
  const fast = new Map<string, { artifactId: number; roundId: string; now: number }>();
  for (const a of accepted) {
    if (a.task.fast === 1) fast.set(`${a.artifact.id} ${a.task.round_id}`, { artifactId: a.artifact.id, roundId: a.task.round_id, now: at(a) });
  }
  const published = [];
  for (const settle of fast.values()) {
    const settled = await settleFastVerdict(trx, settle);
    if (settled.logEntry !== null) published.push(settled.logEntry);
  }
  // Last, the attestations in input order (the order recording them one by one gives their entries),
  // then the verdicts they decided.
  await appendLogEntries(
    trx,
    [...accepted.map((a) => loggedAttestation(a.parsed.payload, a.parsed.canonicalHash, a.parsed.signature, a.artifact, at(a))), ...published],
    at(accepted.at(-1)!),
  );
}

/**
 * Each validator's last_seen_at becomes the time of its last accepted envelope in input order, as
 * recording them one by one leaves it: one statement per distinct time (one for a call's single `now`).
 */
async function markValidatorsSeen(trx: Transaction<Database>, accepted: readonly Accepted[], at: RecordedAt): Promise<void> {
  const lastSeen = new Map<string, number>();
  for (const a of accepted) lastSeen.set(a.parsed.payload.validator_hotkey, at(a));
  const byTime = new Map<number, string[]>();
  for (const [hotkey, time] of lastSeen) byTime.set(time, [...(byTime.get(time) ?? []), hotkey]);
  for (const [time, hotkeys] of byTime) {
    await trx.updateTable('validators').set({ last_seen_at: time }).where('hotkey', 'in', hotkeys.sort()).execute();
  }
}

/**
 * Locks the batch's artifact rows in ascending id order (PostgreSQL), so two batches touching
 * overlapping artifacts queue instead of deadlocking; SQLite serialises writers anyway.
 */
async function lockArtifacts(trx: Transaction<Database>, ids: readonly number[], into: Map<number, AttestationArtifactRow>): Promise<void> {
  const rows = await trx
    .selectFrom('artifacts')
    .select(['id', 'bundle_hash', 'content_hash', 'kind'])
    .where('id', 'in', ids)
    .orderBy('id')
    .$call(lockForUpdate(trx))
    .execute();
  for (const r of rows) into.set(r.id, r);
}

const ATTESTATION_COLUMNS = 19;

async function insertAttestations(
  trx: Transaction<Database>,
  accepted: readonly Accepted[],
  at: RecordedAt,
  checkedAgainst: CheckedSnapshot | null,
): Promise<Map<string, number>> {
  const rows = accepted.map((a) => {
    const { parsed: { payload, canonicalHash, signature, received, dsseSignature }, task, artifact, isRerun } = a;
    return attestationRow(payload, canonicalHash, signature, task, artifact, isRerun, at(a), received, checkedAgainst, dsseSignature);
  });
  const ids = new Map<string, number>();
  // Rows go in input order, so ids ascend in the order recordAttestation would have assigned them;
  // the returned ids are matched by hash, not by position.
  for (const chunk of chunkRows(rows, ATTESTATION_COLUMNS)) {
    const inserted = await trx.insertInto('attestations').values(chunk).returning(['id', 'canonical_hash']).execute();
    for (const r of inserted) ids.set(r.canonical_hash, Number(r.id));
  }
  await indexAttestations(
    trx,
    accepted.map((a) => {
      const { parsed: { payload, canonicalHash }, task, artifact } = a;
      return { ...attestationDocument(ids.get(canonicalHash)!, payload, canonicalHash, task, artifact), recordedAt: at(a) };
    }),
    at(accepted.at(-1)!),
  );
  return ids;
}

async function enqueueCreatedEvents(trx: Transaction<Database>, accepted: readonly Accepted[], at: RecordedAt): Promise<void> {
  const rows = accepted.map((a) => ({
    id: randomUUID(),
    kind: 'attestation.created' as const,
    payload: JSON.stringify(attestationCreatedEvent(a.parsed.payload, a.parsed.canonicalHash, a.task, a.artifact, at(a))),
    created_at: at(a),
    delivered_at: null,
    last_error: null,
    account_id: null,
    // An attestation is recorded once (its canonical hash is unique), so its one event is the
    // first and only of its resource: no turn-taking on the resource's counter is needed.
    resource: `attestation:${a.parsed.canonicalHash}`,
    sequence: 1,
    feed_position: null,
  }));
  for (const chunk of chunkRows(rows, 10)) await trx.insertInto('outbox_events').values(chunk).execute();
}

/**
 * Records many already-verified envelopes (see recordAttestation) with the same checks and the same
 * effects as recording them one by one in input order — the same rows in attestations, every
 * aggregate and the outbox — but MAX_ATTESTATION_BATCH at a time, each batch in one transaction
 * with set-based reads and writes. Each envelope gets its own result: `created`, `duplicate` (this
 * exact attestation is already stored, possibly earlier in the same input) or `refused` with the
 * VigilError code and message recordAttestation would have thrown; a refusal does not affect the
 * other envelopes. Errors other than refusals (database failures) reject the whole call; batches
 * committed before the failure stay committed.
 *
 * `recordedAt`, one time per envelope, replays history (the demo seed): each envelope is recorded as
 * if it had arrived alone at its own time — its row, aggregates, event and the validator's last-seen
 * time — instead of all at `now`, and the state equals recording them one by one at those times.
 */
export async function recordAttestations(
  db: Kysely<Database>,
  envelopes: readonly AttestationSubmission[],
  options: { now: number; checkedAgainst?: CheckedSnapshot | null; recordedAt?: readonly number[] },
): Promise<AttestationBatchResult[]> {
  if (!Array.isArray(envelopes)) throw new VigilError('invalid_argument', 'envelopes: expected an array');
  if (!Number.isSafeInteger(options.now)) throw new VigilError('invalid_argument', 'options.now: expected epoch milliseconds');
  const recordedAt = options.recordedAt ?? envelopes.map(() => options.now);
  if (recordedAt.length !== envelopes.length || !recordedAt.every((t) => Number.isSafeInteger(t))) {
    throw new VigilError('invalid_argument', 'options.recordedAt: expected epoch milliseconds for each envelope');
  }
  const results: AttestationBatchResult[] = [];
  for (let start = 0; start < envelopes.length; start += MAX_ATTESTATION_BATCH) {
    const end = start + MAX_ATTESTATION_BATCH;
    results.push(...(await recordChunk(db, envelopes.slice(start, end), recordedAt.slice(start, end), options.checkedAgainst ?? null)));
  }
  return results;
}
