import { AttestationSubmission, formatOffsetTimestamp, parseTimestamp, type AttestationPayload } from '@vigil/core';
import type { Kysely } from 'kysely';
import { partitionKeysOfHashes } from '../../../platform/db/attestation-partitions.js';
import { lockForUpdate, shareLock } from '../../../platform/db/dialect.js';
import type { Database, TrackName } from '../../../platform/db/schema.js';
import { applyAttestationAggregates } from './aggregates.js';
import { enqueueOutboxEvent } from '../../../platform/outbox.js';
import { indexAttestations } from '../../../platform/search-index.js';
import { inTransaction } from '../../../platform/db/transaction.js';
import { SpanKind, withSpan } from '../../../platform/tracing/index.js';
import { settleFastVerdict } from '../tasks/fast-tasks.js';
import { VigilError } from '../../../platform/errors.js';
import { appendLogEntries, attestationLogEntry } from '../../log/index.js';

export interface RecordedAttestation {
  id: number;
  /** False when this exact attestation (same canonical hash) had already been recorded. */
  created: boolean;
  isRerun: boolean;
}

export function attestationMismatch(field: string, expected: string): VigilError {
  return new VigilError('attestation_mismatch', `envelope.payload.${field}: does not match the task (expected ${expected})`);
}

/** A task as attestations are checked against it: its round's state and the agent code frozen into it. */
export interface AttestationTaskRow {
  task_id: string;
  round_id: string;
  hotkey: string;
  artifact_id: number;
  track: TrackName;
  status: string;
  phase: string;
  code_hash: string;
  policy_version: string;
  /** 1 for a fast task (docs/rounds.md, "Verdicts between rounds"): its round is closed and still takes its attestations. */
  fast: number;
}

export interface AttestationArtifactRow {
  id: number;
  bundle_hash: string;
  content_hash: string;
  kind: string;
}

/**
 * Tasks joined with their round and frozen agent; callers add the `where`. On PostgreSQL the round
 * rows are share-locked: closeRound takes them FOR UPDATE, so an attestation recorded while its
 * round closes either lands before the close (and is scored) or sees the round closed.
 */
export function selectAttestationTasks(db: Kysely<Database>) {
  const query = db
    .selectFrom('tasks')
    .innerJoin('rounds', 'rounds.round_id', 'tasks.round_id')
    .innerJoin('round_agents', (j) =>
      j.onRef('round_agents.round_id', '=', 'tasks.round_id').onRef('round_agents.hotkey', '=', 'tasks.hotkey'),
    )
    .select([
      'tasks.task_id',
      'tasks.round_id',
      'tasks.hotkey',
      'tasks.artifact_id',
      'rounds.track',
      'rounds.status',
      'rounds.phase',
      'rounds.policy_version',
      'round_agents.code_hash',
      'tasks.fast',
    ]);
  return query.$call(shareLock(db, 'rounds'));
}

/** The checks that depend on the task, its round and its artifact, in order; null when it matches. */
export function checkAgainstTask(
  payload: AttestationPayload,
  task: AttestationTaskRow,
  artifact: AttestationArtifactRow,
): VigilError | null {
  // A fast task is made for the incumbents of a closed round and is attested after that close.
  const accepting = task.fast === 1 ? task.status === 'closed' : task.status === 'open' && task.phase === 'evaluation';
  if (!accepting) {
    return new VigilError('round_not_open', `envelope.payload.round_id: round ${task.round_id} does not accept attestations`);
  }
  if (payload.round_id !== task.round_id) return attestationMismatch('round_id', task.round_id);
  if (payload.miner_hotkey !== task.hotkey) return attestationMismatch('miner_hotkey', task.hotkey);
  if (payload.track !== task.track) return attestationMismatch('track', task.track);
  if (payload.agent_hash !== task.code_hash) return attestationMismatch('agent_hash', 'the code hash frozen into the round');
  if (payload.policy_version !== task.policy_version) return attestationMismatch('policy_version', task.policy_version);
  if (payload.artifact.bundle_hash !== artifact.bundle_hash) return attestationMismatch('artifact.bundle_hash', artifact.bundle_hash);
  if (payload.artifact.sha256 !== artifact.content_hash) return attestationMismatch('artifact.sha256', artifact.content_hash);
  return null;
}

/** The metagraph snapshot an attestation's permit was checked against before it was recorded. */
export interface CheckedSnapshot {
  block: number;
  /** The snapshot's `taken_at`, epoch ms. */
  takenAt: number;
}

/** The snapshot a permit check used, as stored beside the attestation. */
export function checkedSnapshot(snapshot: { block: number; taken_at: string }): CheckedSnapshot {
  return { block: snapshot.block, takenAt: parseTimestamp(snapshot.taken_at).getTime() };
}

/**
 * The stored row of an accepted attestation, the same from both write paths. `signedPayload` is the
 * payload as received (unknown fields included, wherever they are): what the hash and signature
 * cover, so the stored envelope verifies offline exactly as it was submitted.
 */
export function attestationRow(
  payload: AttestationPayload,
  canonicalHash: string,
  signature: string,
  task: AttestationTaskRow,
  artifact: AttestationArtifactRow,
  isRerun: boolean,
  recordedAt: number,
  signedPayload: unknown,
  checkedAgainst: CheckedSnapshot | null,
  dsseSignature: string | null,
) {
  return {
    canonical_hash: canonicalHash,
    task_id: task.task_id,
    round_id: task.round_id,
    track: task.track,
    miner_hotkey: task.hotkey,
    validator_hotkey: payload.validator_hotkey,
    artifact_id: artifact.id,
    agent_hash: payload.agent_hash,
    verdict: payload.verdict,
    risk_score: payload.risk_score,
    findings: JSON.stringify(payload.findings),
    payload: JSON.stringify(signedPayload),
    signature,
    created_at: parseTimestamp(payload.created_at).getTime(),
    recorded_at: recordedAt,
    is_rerun: isRerun ? 1 : 0,
    metagraph_block: checkedAgainst?.block ?? null,
    metagraph_taken_at: checkedAgainst?.takenAt ?? null,
    dsse_signature: dsseSignature,
  };
}

/** The search document of a recorded attestation (platform/search-index.ts), the same from both write paths. */
export function attestationDocument(
  id: number,
  payload: AttestationPayload,
  canonicalHash: string,
  task: AttestationTaskRow,
  artifact: AttestationArtifactRow,
) {
  return {
    id,
    canonical_hash: canonicalHash,
    task_id: task.task_id,
    round_id: task.round_id,
    track: task.track,
    miner_hotkey: task.hotkey,
    validator_hotkey: payload.validator_hotkey,
    verdict: payload.verdict,
    findings: payload.findings,
    bundle_hash: artifact.bundle_hash,
    sha256: artifact.content_hash,
    artifact: { id: artifact.id, bundle_hash: artifact.bundle_hash, content_hash: artifact.content_hash },
  };
}

/** The `attestation.created` event, the same from both write paths. */
export function attestationCreatedEvent(
  payload: AttestationPayload,
  canonicalHash: string,
  task: AttestationTaskRow,
  artifact: AttestationArtifactRow,
  recordedAt: number,
): Record<string, unknown> {
  return {
    canonical_hash: canonicalHash,
    round_id: task.round_id,
    task_id: task.task_id,
    track: task.track,
    miner_hotkey: task.hotkey,
    validator_hotkey: payload.validator_hotkey,
    verdict: payload.verdict,
    risk_score: payload.risk_score,
    // Named for every artifact alike, as the customer attestations API does: a null only for the
    // labeled ones would tell a receiver (a validator among them) which artifacts are the benchmark.
    bundle_hash: artifact.bundle_hash,
    created_at: payload.created_at,
    recorded_at: formatOffsetTimestamp(recordedAt),
  };
}

/** An accepted attestation's transparency-log entry (docs/log.md), the same from both write paths. */
export function loggedAttestation(
  payload: AttestationPayload,
  canonicalHash: string,
  signature: string,
  artifact: AttestationArtifactRow,
  recordedAt: number,
) {
  return attestationLogEntry({
    canonicalHash,
    signature,
    validatorHotkey: payload.validator_hotkey,
    bundleHash: artifact.bundle_hash,
    verdict: payload.verdict,
    recordedAt,
  });
}

/**
 * Records an attestation whose hash, signature, validator permit and (when sent) DSSE signature the
 * caller has already verified (@vigil/crypto). Checks it against the task it claims — round open in evaluation, miner,
 * track, artifact identity and content, frozen agent hash — and that the validator is registered and
 * active. In one transaction: the attestation row, every aggregate, an `attestation.created`
 * outbox event and its transparency-log entry. Re-recording the same envelope is idempotent; a second, different attestation of the
 * same task by the same validator is refused.
 */
export async function recordAttestation(
  db: Kysely<Database>,
  envelope: AttestationSubmission,
  options: { now: number; checkedAgainst?: CheckedSnapshot | null },
): Promise<RecordedAttestation> {
  const parsed = AttestationSubmission.safeParse(envelope);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new VigilError('invalid_argument', `envelope.${issue?.path.join('.') ?? ''}: ${issue?.message ?? 'invalid'}`);
  }
  const { payload, canonical_hash: canonicalHash, signature, dsse_signature: dsseSignature } = parsed.data;
  const now = options.now;

  return withSpan('vigil.attestations.record', SpanKind.INTERNAL, () => ({ 'vigil.task_id': payload.task_id }), () =>
    inTransaction(db, async (trx) => {
      const task = await selectAttestationTasks(trx)
        .where('tasks.task_id', '=', payload.task_id)
        .executeTakeFirst();
      if (task === undefined) throw new VigilError('task_not_found', `envelope.payload.task_id: no task ${payload.task_id}`);

      // Serialises attestations of one artifact (PostgreSQL), so the duplicate check, the
      // first-vs-rerun decision and the per-artifact aggregate state see one writer at a time.
      const artifact = await trx
        .selectFrom('artifacts')
        .select(['id', 'bundle_hash', 'content_hash', 'kind', 'track'])
        .where('id', '=', task.artifact_id)
        .$call(lockForUpdate(trx))
        .executeTakeFirstOrThrow();

      // A retried submission returns the stored attestation, even after the round has closed.
      const keys = await partitionKeysOfHashes(trx, [canonicalHash]);
      const duplicate =
        keys !== undefined && keys.length === 0
          ? undefined
          : await trx
              .selectFrom('attestations')
              .select(['id', 'is_rerun'])
              .where('canonical_hash', '=', canonicalHash)
              .$if(keys !== undefined, (q) => q.where('recorded_at', 'in', keys!))
              .executeTakeFirst();
      if (duplicate !== undefined) return { id: duplicate.id, created: false, isRerun: duplicate.is_rerun === 1 };

      const problem = checkAgainstTask(payload, task, artifact);
      if (problem !== null) throw problem;

      const validator = await trx
        .selectFrom('validators')
        .select('status')
        .where('hotkey', '=', payload.validator_hotkey)
        .executeTakeFirst();
      if (validator === undefined) {
        throw new VigilError('validator_not_found', `envelope.payload.validator_hotkey: ${payload.validator_hotkey} is not a registered validator`);
      }
      if (validator.status !== 'active') {
        throw new VigilError('validator_not_active', `envelope.payload.validator_hotkey: validator is ${validator.status}`);
      }

      const earlier = await trx
        .selectFrom('attestations')
        .select(['validator_hotkey'])
        .where('task_id', '=', task.task_id)
        .execute();
      if (earlier.some((e) => e.validator_hotkey === payload.validator_hotkey)) {
        throw new VigilError('attestation_conflict', 'envelope.payload.task_id: this validator already attested the task');
      }
      const isRerun = earlier.length > 0;

      const inserted = await trx
        .insertInto('attestations')
        .values(attestationRow(payload, canonicalHash, signature, task, artifact, isRerun, now, envelope.payload, options.checkedAgainst ?? null, dsseSignature ?? null))
        .returning('id')
        .executeTakeFirstOrThrow();
      await indexAttestations(trx, [attestationDocument(Number(inserted.id), payload, canonicalHash, task, artifact)], now);

      await applyAttestationAggregates(trx, {
        artifactId: artifact.id,
        track: task.track,
        verdict: payload.verdict,
        findings: payload.findings,
        recordedAt: now,
        isRerun,
      });
      await trx.updateTable('validators').set({ last_seen_at: now }).where('hotkey', '=', payload.validator_hotkey).execute();
      await enqueueOutboxEvent(
        trx,
        'attestation.created',
        attestationCreatedEvent(payload, canonicalHash, task, artifact, now),
        now,
        { resource: `attestation:${canonicalHash}`, accountId: null },
      );
      // A fast task's attestation may decide its artifact (docs/rounds.md): that publication is logged too.
      const logged = [loggedAttestation(payload, canonicalHash, signature, artifact, now)];
      if (task.fast === 1) {
        const settled = await settleFastVerdict(trx, { artifactId: artifact.id, roundId: task.round_id, now });
        if (settled.logEntry !== null) logged.push(settled.logEntry);
      }
      // Last: the log's append lock is then held only until this transaction commits.
      await appendLogEntries(trx, logged, now);
      return { id: inserted.id, created: true, isRerun };
    }),
  );
}
