import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database, TrackName } from '../../../platform/db/schema.js';
import { inTransaction } from '../../../platform/db/transaction.js';
import type { LogEntryInput } from '../../log/index.js';
import { publishArtifactVerdict } from '../rounds/publish-verdict.js';
import { decideFastVerdict, planFastTasks, type FastDecision, type FastTaskPlan, type IncumbentRound } from './fast-task-plan.js';
import { REPLICAS } from './replicas.js';

/**
 * The last closed round of each track (of `track` when given) with its winners, best rank first:
 * the incumbents between rounds. A track with no closed round is absent.
 */
export async function incumbentRounds(db: Kysely<Database>, track?: TrackName): Promise<IncumbentRound[]> {
  const rounds = await db
    .selectFrom('rounds as r')
    .select(['r.round_id', 'r.track', 'r.closed_at'])
    .where('r.status', '=', 'closed')
    .$if(track !== undefined, (qb) => qb.where('r.track', '=', track!))
    .where(({ eb, selectFrom }) =>
      eb(
        'r.round_number',
        '=',
        selectFrom('rounds as later')
          .select((e) => e.fn.max('later.round_number').as('n'))
          .whereRef('later.track', '=', 'r.track')
          .where('later.status', '=', 'closed'),
      ),
    )
    .orderBy('r.closed_at')
    .orderBy('r.round_id')
    .execute();
  if (rounds.length === 0) return [];
  const winners = await db
    .selectFrom('round_results')
    .select(['round_id', 'hotkey'])
    .where('round_id', 'in', rounds.map((r) => r.round_id))
    .where('winner', '=', 1)
    .orderBy('rank')
    .orderBy('hotkey')
    .execute();
  return rounds.map((r) => ({
    roundId: r.round_id,
    track: r.track,
    winners: winners.filter((w) => w.round_id === r.round_id).map((w) => w.hotkey),
  }));
}

export interface FastTasksResult {
  plan: FastTaskPlan;
  taskIds: string[];
}

/**
 * What "an artifact was stored" means to the network (docs/rounds.md, "Verdicts between rounds"):
 * the incumbents of its track (the winners of the last closed round) get a fast task for it at
 * once, in that round, so validators run it ahead of round work and its verdict is published as
 * soon as enough of them have attested. Labeled artifacts get fast tasks like live ones (their
 * verdict is never published): that an artifact appeared in a fast task must not say it is live.
 * Idempotent: an incumbent that already has a task for the artifact in that round gets none.
 * Pass the transaction that stored the artifact, so the artifact and its fast tasks commit together.
 */
export async function artifactStored(db: Kysely<Database>, input: { artifactId: number; now: number }): Promise<FastTasksResult> {
  return inTransaction(db, async (trx) => {
    const artifact = await trx.selectFrom('artifacts').select(['id', 'track']).where('id', '=', input.artifactId).executeTakeFirstOrThrow();
    const [incumbents] = await incumbentRounds(trx, artifact.track);
    const tasked =
      incumbents === undefined
        ? []
        : await trx.selectFrom('tasks').select('hotkey').where('round_id', '=', incumbents.roundId).where('artifact_id', '=', artifact.id).execute();
    const plan = planFastTasks({ artifact, incumbents: incumbents ?? null, alreadyTasked: new Set(tasked.map((t) => t.hotkey)) });
    if (plan.status !== 'planned') return { plan, taskIds: [] };
    const rows = plan.hotkeys.map((hotkey) => ({
      task_id: randomUUID(),
      round_id: plan.roundId,
      hotkey,
      artifact_id: artifact.id,
      created_at: input.now,
      fast: 1,
    }));
    await trx.insertInto('tasks').values(rows).execute();
    return { plan, taskIds: rows.map((r) => r.task_id) };
  });
}

/**
 * After an attestation of a fast task is recorded (in its transaction): when the fast tasks of the
 * artifact now decide it (decideFastVerdict), publishes the verdict under the incumbents' round
 * with the same rule and effects as a round's close. Nothing for a labeled artifact, nor when a
 * newer round of the track has closed since the task was made (its winners are the incumbents now,
 * and that round or their fast tasks speak for the artifact). Returns the decision and, when a
 * verdict was published, its transparency-log entry for the caller to append last.
 */
export async function settleFastVerdict(
  db: Kysely<Database>,
  input: { artifactId: number; roundId: string; now: number },
): Promise<{ decision: FastDecision | null; logEntry: LogEntryInput | null }> {
  const artifact = await db
    .selectFrom('artifacts')
    .select(['id', 'bundle_hash', 'track', 'kind'])
    .where('id', '=', input.artifactId)
    .executeTakeFirstOrThrow();
  if (artifact.kind !== 'live') return { decision: null, logEntry: null };
  const [incumbents] = await incumbentRounds(db, artifact.track);
  if (incumbents === undefined || incumbents.roundId !== input.roundId) return { decision: null, logEntry: null };
  const votes = await db
    .selectFrom('attestations')
    .innerJoin('tasks', 'tasks.task_id', 'attestations.task_id')
    .select(['attestations.miner_hotkey', 'attestations.validator_hotkey', 'attestations.verdict', 'attestations.risk_score'])
    .where('tasks.round_id', '=', input.roundId)
    .where('tasks.artifact_id', '=', artifact.id)
    .where('tasks.fast', '=', 1)
    .orderBy('attestations.id')
    .execute();
  const active = await db
    .selectFrom('validators')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('status', '=', 'active')
    .executeTakeFirst();
  const quorum = Math.max(1, Math.min(REPLICAS, Number(active?.n ?? 0)));
  const decision = decideFastVerdict({
    incumbents: incumbents.winners,
    votes: votes.map((v) => ({ minerHotkey: v.miner_hotkey, validatorHotkey: v.validator_hotkey, verdict: v.verdict, riskScore: Number(v.risk_score) })),
    quorum,
  });
  if (!decision.decided) return { decision, logEntry: null };
  const published = await publishArtifactVerdict(db, {
    artifactId: artifact.id,
    bundleHash: artifact.bundle_hash,
    track: artifact.track,
    roundId: input.roundId,
    verdict: decision.verdict,
    riskScore: decision.riskScore,
    now: input.now,
  });
  return { decision, logEntry: published.logEntry };
}
