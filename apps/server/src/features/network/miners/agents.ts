import { LIMITS, SHA256_HASH_RE } from '@vigil/core';
import type { Kysely } from 'kysely';
import { lockForUpdate } from '../../../platform/db/dialect.js';
import type { AgentsTable, Database, TrackName } from '../../../platform/db/schema.js';
import { VigilError } from '../../../platform/errors.js';
import { inTransaction } from '../../../platform/db/transaction.js';

export interface SubmitAgentInput {
  hotkey: string;
  track: TrackName;
  name: string;
  provider: string;
  /** `sha256:<hex>` of the agent bundle (computed by the caller from the uploaded bytes). */
  codeHash: string;
  now: number;
}

/** The agent after a submission: `created` is false when the submission repeated the current version. */
export type SubmittedAgent = AgentsTable & { created: boolean; submitted_at: number };

/**
 * Stores a new version of the hotkey's agent on a track: version 1 for the first submission, then
 * one more than the last version ever submitted (also after a deletion). A submission identical to
 * the active version (same code hash, name and provider) changes nothing and answers that version
 * with `created: false`. The miner must be registered on the track. Concurrent submissions of one
 * hotkey and track are serialized on the miner's row, so identical ones create one version.
 */
export async function submitAgent(db: Kysely<Database>, input: SubmitAgentInput): Promise<SubmittedAgent> {
  if (!SHA256_HASH_RE.test(input.codeHash)) {
    throw new VigilError('invalid_argument', 'codeHash: expected sha256:<64 lowercase hex>');
  }
  if (input.name.trim() === '') throw new VigilError('invalid_argument', 'name: must not be empty');
  if (input.provider.trim() === '') throw new VigilError('invalid_argument', 'provider: must not be empty');
  return inTransaction(db, async (trx) => {
    const miner = await trx
      .selectFrom('miners')
      .select('status')
      .where('hotkey', '=', input.hotkey)
      .where('track', '=', input.track)
      .$call(lockForUpdate(trx))
      .executeTakeFirst();
    if (miner?.status !== 'registered') {
      throw new VigilError('miner_not_registered', `hotkey: ${input.hotkey} is not registered on track ${input.track}`);
    }
    const current = await trx
      .selectFrom('agents')
      .selectAll()
      .where('hotkey', '=', input.hotkey)
      .where('track', '=', input.track)
      .executeTakeFirst();
    if (
      current?.status === 'active' &&
      current.code_hash === input.codeHash &&
      current.name === input.name &&
      current.provider === input.provider
    ) {
      const submitted = await trx
        .selectFrom('agent_versions')
        .select('submitted_at')
        .where('hotkey', '=', input.hotkey)
        .where('track', '=', input.track)
        .where('version', '=', current.version)
        .executeTakeFirstOrThrow();
      return { ...current, created: false, submitted_at: Number(submitted.submitted_at) };
    }
    await refuseBeyondDailyVersions(trx, input);
    const version = (current?.version ?? 0) + 1;
    const row: AgentsTable = {
      hotkey: input.hotkey,
      track: input.track,
      name: input.name,
      provider: input.provider,
      version,
      code_hash: input.codeHash,
      status: 'active',
      created_at: input.now,
      updated_at: input.now,
    };
    if (current === undefined) {
      await trx.insertInto('agents').values(row).execute();
    } else {
      await trx
        .updateTable('agents')
        .set({ name: row.name, provider: row.provider, version, code_hash: row.code_hash, status: 'active', updated_at: input.now })
        .where('hotkey', '=', input.hotkey)
        .where('track', '=', input.track)
        .execute();
    }
    await trx
      .insertInto('agent_versions')
      .values({
        hotkey: input.hotkey,
        track: input.track,
        version,
        code_hash: input.codeHash,
        name: input.name,
        provider: input.provider,
        submitted_at: input.now,
      })
      .execute();
    const stored = await trx
      .selectFrom('agents')
      .selectAll()
      .where('hotkey', '=', input.hotkey)
      .where('track', '=', input.track)
      .executeTakeFirstOrThrow();
    return { ...stored, created: true, submitted_at: input.now };
  });
}

const DAY_MS = 86_400_000;

/** A miner may add at most LIMITS.maxAgentVersionsPerDay versions per track in any 24 hours (429 with Retry-After beyond). */
async function refuseBeyondDailyVersions(trx: Kysely<Database>, input: SubmitAgentInput): Promise<void> {
  const recent = await trx
    .selectFrom('agent_versions')
    .select('submitted_at')
    .where('hotkey', '=', input.hotkey)
    .where('track', '=', input.track)
    .where('submitted_at', '>', input.now - DAY_MS)
    .orderBy('submitted_at', 'desc')
    .limit(LIMITS.maxAgentVersionsPerDay)
    .execute();
  if (recent.length < LIMITS.maxAgentVersionsPerDay) return;
  // The window frees a slot when the oldest of the last N versions turns a day old.
  const oldest = Number(recent[recent.length - 1]!.submitted_at);
  const retryAfter = Math.max(1, Math.ceil((oldest + DAY_MS - input.now) / 1000));
  throw new VigilError('agent_submission_limit', { headers: { 'retry-after': String(retryAfter) } });
}

/** Marks the agent deleted (history and round results stay). Throws agent_not_found when there is no active agent. */
export async function deleteAgent(
  db: Kysely<Database>,
  input: { hotkey: string; track: TrackName; now: number },
): Promise<void> {
  const result = await db
    .updateTable('agents')
    .set({ status: 'deleted', updated_at: input.now })
    .where('hotkey', '=', input.hotkey)
    .where('track', '=', input.track)
    .where('status', '=', 'active')
    .executeTakeFirst();
  if (result.numUpdatedRows === 0n) throw new VigilError('agent_not_found');
}
