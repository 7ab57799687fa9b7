import { contentHash, formatOffsetTimestamp, parsePackageRef, type AttestationPayload, type Finding } from '@vigil/core';
import { generateSecretKey, getPublicKey, signAttestation, ss58Encode } from '@vigil/crypto';
import type { Kysely } from 'kysely';
import type { Database, TrackName, VerdictName } from '../platform/db/schema.js';
import { registerArtifact, type ArtifactRow } from '../features/artifacts/register-artifact.js';
import { submitAgent } from '../features/network/miners/agents.js';
import { recordAttestation, type RecordedAttestation } from '../features/network/attestations/attestations.js';
import { registerMiner } from '../features/network/miners/miners.js';
import { closeRound, openRound, startEvaluation, type RoundRow } from '../features/network/rounds/rounds.js';
import { createTasks, type CreatedTask } from '../features/network/tasks/tasks.js';
import { registerValidator } from '../features/network/validators/validators.js';

/** 2026-11-21T10:00:00Z: the pinned "now" of storage tests. */
export const T0 = Date.UTC(2026, 10, 21, 10, 0, 0);
export const HOUR = 3_600_000;
export const DAY = 86_400_000;
export const POLICY_VERSION = 'policy-2026.11';

export interface TestKey {
  hotkey: string;
  secretKey: Uint8Array;
}

/** A real ed25519 key pair and its ss58 hotkey (so envelopes verify with @vigil/crypto). */
export function newKey(): TestKey {
  const secretKey = generateSecretKey();
  return { hotkey: ss58Encode(getPublicKey(secretKey)), secretKey };
}

export function codeHash(seed: string): string {
  return contentHash(`agent-bundle:${seed}`);
}

export interface ArtifactSpec {
  label: string;
  sourceId: string;
  kind: 'labeled' | 'live';
  groundTruth?: VerdictName;
}

export interface SeededRound {
  round: RoundRow;
  track: TrackName;
  tasks: CreatedTask[];
  artifacts: Map<string, ArtifactRow>;
  agentHashes: Map<string, string>;
}

/**
 * Registers validators, miners with one agent each, artifacts; opens a round, starts its
 * evaluation and creates a task per (miner, artifact). Everything through the write services.
 */
export async function seedRound(
  db: Kysely<Database>,
  input: {
    track?: TrackName;
    now: number;
    miners: readonly TestKey[];
    validators: readonly TestKey[];
    artifacts: readonly ArtifactSpec[];
    /** Reuse agents already submitted (later rounds). */
    skipAgents?: boolean;
  },
): Promise<SeededRound> {
  const track = input.track ?? 'skills';
  for (const [i, v] of input.validators.entries()) {
    await registerValidator(db, { hotkey: v.hotkey, uid: i, allowedIps: ['127.0.0.1'], now: input.now });
  }
  const agentHashes = new Map<string, string>();
  for (const m of input.miners) {
    if (!input.skipAgents) {
      await registerMiner(db, { hotkey: m.hotkey, track, now: input.now });
      const agent = await submitAgent(db, {
        hotkey: m.hotkey,
        track,
        name: `agent-${m.hotkey.slice(0, 6)}`,
        provider: 'test-provider',
        codeHash: codeHash(m.hotkey),
        now: input.now,
      });
      agentHashes.set(m.hotkey, agent.code_hash);
    }
  }
  const artifacts = new Map<string, ArtifactRow>();
  for (const spec of input.artifacts) {
    const base = { track, label: spec.label, sourceId: spec.sourceId, contentHash: contentHash(`${spec.label}/${spec.sourceId}`), now: input.now };
    const row =
      spec.kind === 'labeled'
        ? await registerArtifact(db, { ...base, kind: 'labeled', groundTruth: spec.groundTruth ?? 'ALLOW' })
        : await registerArtifact(db, { ...base, kind: 'live' });
    artifacts.set(row.bundle_hash, row);
  }
  const round = await openRound(db, { track, now: input.now, submissionMs: HOUR, evaluationMs: 2 * HOUR, policyVersion: POLICY_VERSION });
  await startEvaluation(db, { roundId: round.round_id, now: input.now + HOUR });
  const frozen = await db.selectFrom('round_agents').select(['hotkey', 'code_hash']).where('round_id', '=', round.round_id).execute();
  for (const f of frozen) agentHashes.set(f.hotkey, f.code_hash);
  const tasks = await createTasks(db, { roundId: round.round_id, bundleHashes: [...artifacts.keys()], now: input.now + HOUR });
  const fresh = await db.selectFrom('rounds').selectAll().where('round_id', '=', round.round_id).executeTakeFirstOrThrow();
  return { round: fresh, track, tasks, artifacts, agentHashes };
}

export function findTask(seeded: SeededRound, miner: TestKey, bundleHash: string): CreatedTask {
  const task = seeded.tasks.find((t) => t.hotkey === miner.hotkey && t.bundleHash === bundleHash);
  if (!task) throw new Error(`no task for ${miner.hotkey} on ${bundleHash}`);
  return task;
}

export function finding(category: string, severity: Finding['severity'], title = `${category} found`): Finding {
  return { type: 'static', category, severity, title, file: 'SKILL.md' };
}

/** Builds the payload for a task and signs it as the validator. */
export function signedEnvelope(
  seeded: SeededRound,
  task: CreatedTask,
  validator: TestKey,
  input: { verdict: VerdictName; riskScore?: number; findings?: Finding[]; createdAt: number },
) {
  const artifact = seeded.artifacts.get(task.bundleHash);
  if (!artifact) throw new Error(`unknown artifact ${task.bundleHash}`);
  const payload: AttestationPayload = {
    round_id: seeded.round.round_id,
    task_id: task.taskId,
    track: seeded.track,
    miner_hotkey: task.hotkey,
    agent_hash: seeded.agentHashes.get(task.hotkey)!,
    artifact: { bundle_hash: artifact.bundle_hash, sha256: artifact.content_hash },
    verdict: input.verdict,
    risk_score: input.riskScore ?? (input.verdict === 'BLOCK' ? 90 : input.verdict === 'WARN' ? 55 : 5),
    findings: input.findings ?? [],
    policy_version: seeded.round.policy_version,
    validator_hotkey: validator.hotkey,
    created_at: formatOffsetTimestamp(input.createdAt),
  };
  return signAttestation(payload, validator.secretKey);
}

export async function attest(
  db: Kysely<Database>,
  seeded: SeededRound,
  miner: TestKey,
  bundleHash: string,
  validator: TestKey,
  input: { verdict: VerdictName; riskScore?: number; findings?: Finding[]; now: number },
): Promise<RecordedAttestation> {
  const envelope = signedEnvelope(seeded, findTask(seeded, miner, bundleHash), validator, { ...input, createdAt: input.now });
  return recordAttestation(db, envelope, { now: input.now });
}

export function bundle(track: TrackName, spec: Pick<ArtifactSpec, 'label' | 'sourceId'>): string {
  return `${track}/${spec.label}/${spec.sourceId}`;
}

/**
 * Publishes `verdict` for a live package artifact named by `purl`, the way Vigil does: a round of
 * the packages track where one of two miners judges the labeled artifacts right (so it wins) and
 * gives the live one `verdict` before two validators; the round closes. The artifact is then
 * registered under `purl` as an upload by `uploadedBy` (an account id). Returns its row id.
 */
export async function publishLiveVerdict(
  db: Kysely<Database>,
  input: { purl: string; verdict: VerdictName; riskScore: number; findings?: Finding[]; uploadedBy: string },
): Promise<number> {
  const miners = [newKey(), newKey()];
  const validators = [newKey(), newKey()];
  const labeled = [
    { label: 'npm', sourceId: `pkg:npm/bench-bad-${input.purl}`, kind: 'labeled' as const, groundTruth: 'BLOCK' as const },
    { label: 'npm', sourceId: `pkg:npm/bench-ok-${input.purl}`, kind: 'labeled' as const, groundTruth: 'ALLOW' as const },
  ];
  const live = { label: 'npm', sourceId: input.purl, kind: 'live' as const };
  const seeded = await seedRound(db, { track: 'packages', now: T0, miners, validators, artifacts: [...labeled, live] });
  const at = T0 + HOUR;
  for (const v of validators) {
    for (const spec of labeled) {
      await attest(db, seeded, miners[0]!, bundle('packages', spec), v, { verdict: spec.groundTruth, now: at });
      await attest(db, seeded, miners[1]!, bundle('packages', spec), v, { verdict: 'ALLOW', now: at });
    }
    await attest(db, seeded, miners[0]!, bundle('packages', live), v, { verdict: input.verdict, riskScore: input.riskScore, findings: input.findings ?? [], now: at });
  }
  await closeRound(db, { roundId: seeded.round.round_id, now: T0 + 3 * HOUR });
  const artifactId = Number(seeded.artifacts.get(bundle('packages', live))!.id);
  const ref = parsePackageRef(input.purl);
  await db
    .insertInto('artifact_packages')
    .values({
      artifact_id: artifactId,
      purl: ref.purl,
      ecosystem: ref.type,
      namespace: ref.namespace,
      name: ref.name,
      version: ref.version,
      uploaded_by: input.uploadedBy,
      size: 1,
      media_type: 'application/octet-stream',
      created_at: T0,
    })
    .execute();
  return artifactId;
}

/**
 * Publishes a verdict for each purl in one round of the packages track (publishLiveVerdict for many
 * packages at once), starting at `at` (default T0); the artifacts are registered as uploads of
 * `uploadedBy`. Publishing again later (a later `at`) for the same purls changes their verdicts the
 * way a later round does. Returns the artifact row id of each purl.
 */
export async function publishLiveVerdicts(
  db: Kysely<Database>,
  input: { verdicts: ReadonlyMap<string, VerdictName>; uploadedBy: string; at?: number },
): Promise<Map<string, number>> {
  const start = input.at ?? T0;
  const miners = [newKey(), newKey()];
  const validators = [newKey(), newKey()];
  const labeled = [
    { label: 'npm', sourceId: 'pkg:npm/bench-bad@1.0.0', kind: 'labeled' as const, groundTruth: 'BLOCK' as const },
    { label: 'npm', sourceId: 'pkg:npm/bench-ok@1.0.0', kind: 'labeled' as const, groundTruth: 'ALLOW' as const },
  ];
  const live = [...input.verdicts.keys()].map((purl) => ({ label: parsePackageRef(purl).type, sourceId: purl, kind: 'live' as const }));
  const seeded = await seedRound(db, { track: 'packages', now: start, miners, validators, artifacts: [...labeled, ...live] });
  const at = start + HOUR;
  for (const v of validators) {
    for (const spec of labeled) {
      await attest(db, seeded, miners[0]!, bundle('packages', spec), v, { verdict: spec.groundTruth, now: at });
      await attest(db, seeded, miners[1]!, bundle('packages', spec), v, { verdict: 'ALLOW', now: at });
    }
    for (const spec of live) {
      await attest(db, seeded, miners[0]!, bundle('packages', spec), v, { verdict: input.verdicts.get(spec.sourceId)!, now: at });
    }
  }
  await closeRound(db, { roundId: seeded.round.round_id, now: start + 3 * HOUR });
  const ids = new Map<string, number>();
  for (const spec of live) {
    const artifactId = Number(seeded.artifacts.get(bundle('packages', spec))!.id);
    const ref = parsePackageRef(spec.sourceId);
    await db
      .insertInto('artifact_packages')
      .values({
        artifact_id: artifactId,
        purl: ref.purl,
        ecosystem: ref.type,
        namespace: ref.namespace,
        name: ref.name,
        version: ref.version,
        uploaded_by: input.uploadedBy,
        size: 1,
        media_type: 'application/octet-stream',
        created_at: start,
      })
      .onConflict((oc) => oc.columns(['artifact_id', 'purl', 'uploaded_by']).doNothing())
      .execute();
    ids.set(ref.purl, artifactId);
  }
  return ids;
}
