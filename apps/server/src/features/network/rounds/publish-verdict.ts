import { formatOffsetTimestamp } from '@vigil/core';
import type { Kysely } from 'kysely';
import type { Database, TrackName, VerdictName } from '../../../platform/db/schema.js';
import { enqueueOutboxEvent } from '../../../platform/outbox.js';
import { verdictLogEntry, type LogEntryInput } from '../../log/index.js';

/**
 * Writes an artifact's published verdict as decided by `roundId` (a round's close, or the fast tasks
 * of that round's winners, docs/rounds.md). A changed verdict is recorded in verdict_history with a
 * `verdict.changed` outbox event; the same verdict again only updates its risk score, round and
 * time. Returns whether the verdict changed, and the transparency-log entry of this publication
 * (every publication is logged, one that confirms the verdict too: docs/log.md), which the caller
 * appends last in its transaction, so the log's append lock is held only until the commit.
 */
export async function publishArtifactVerdict(
  trx: Kysely<Database>,
  input: { artifactId: number; bundleHash: string; track: TrackName; roundId: string; verdict: VerdictName; riskScore: number; now: number },
): Promise<{ changed: boolean; logEntry: LogEntryInput }> {
  const { artifactId, now } = input;
  const current = await trx.selectFrom('published_verdicts').select('verdict').where('artifact_id', '=', artifactId).executeTakeFirst();
  const row = { verdict: input.verdict, risk_score: input.riskScore, round_id: input.roundId, updated_at: now };
  if (current === undefined) {
    await trx.insertInto('published_verdicts').values({ artifact_id: artifactId, ...row }).execute();
  } else {
    await trx.updateTable('published_verdicts').set(row).where('artifact_id', '=', artifactId).execute();
  }
  const previous = current?.verdict ?? null;
  const logEntry = verdictLogEntry({
    bundleHash: input.bundleHash,
    track: input.track,
    verdict: input.verdict,
    previousVerdict: previous,
    riskScore: input.riskScore,
    roundId: input.roundId,
    publishedAt: now,
  });
  if (current?.verdict === input.verdict) return { changed: false, logEntry };
  await trx
    .insertInto('verdict_history')
    .values({
      artifact_id: artifactId,
      verdict: input.verdict,
      previous_verdict: previous,
      risk_score: input.riskScore,
      round_id: input.roundId,
      changed_at: now,
    })
    .execute();
  await enqueueOutboxEvent(
    trx,
    'verdict.changed',
    {
      bundle_hash: input.bundleHash,
      track: input.track,
      verdict: input.verdict,
      previous_verdict: previous,
      risk_score: input.riskScore,
      round_id: input.roundId,
      changed_at: formatOffsetTimestamp(now),
    },
    now,
    { resource: `artifact:${input.bundleHash}`, accountId: null },
  );
  return { changed: true, logEntry };
}
