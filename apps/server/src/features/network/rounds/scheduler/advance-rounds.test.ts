import { contentHash } from '@vigil/core';
import { sql, type Kysely } from 'kysely';
import { expect, it } from 'vitest';
import type { Database, TrackName } from '../../../../platform/db/schema.js';
import { submitAgent } from '../../miners/agents.js';
import { registerArtifact } from '../../../artifacts/register-artifact.js';
import { registerMiner } from '../../miners/miners.js';
import { describeEachDialect } from '../../../../test-support/databases.js';
import { HOUR, T0, codeHash, newKey } from '../../../../test-support/fixtures.js';
import { advanceRounds, type RoundTransition } from './advance-rounds.js';
import type { SchedulerSettings } from './settings.js';

const MINUTE = 60_000;
const SETTINGS: SchedulerSettings = {
  submissionMs: HOUR,
  evaluationMs: 2 * HOUR,
  gapMs: 30 * MINUTE,
  intervalMs: 1000,
  policyVersion: 'policy-test-1',
  labeledArtifacts: 2,
  liveArtifacts: 1,
};

const summary = (ts: RoundTransition[]) => ts.map((t) => `${t.track}:${t.action}:${t.roundNumber}`).sort();

async function seedSkills(db: Kysely<Database>) {
  const miner = newKey();
  await registerMiner(db, { hotkey: miner.hotkey, track: 'skills', now: T0 - HOUR });
  await submitAgent(db, { hotkey: miner.hotkey, track: 'skills', name: 'a1', provider: 'p', codeHash: codeHash('v1'), now: T0 - HOUR });
  const artifact = (label: string, sourceId: string) => ({
    track: 'skills' as TrackName,
    label,
    sourceId,
    contentHash: contentHash(`${label}/${sourceId}`),
    now: T0 - HOUR,
  });
  for (const id of ['l1', 'l2', 'l3']) {
    await registerArtifact(db, { ...artifact('bench', id), kind: 'labeled', groundTruth: id === 'l1' ? 'BLOCK' : 'ALLOW' });
  }
  await registerArtifact(db, { ...artifact('live', 'first'), kind: 'live' });
  await registerArtifact(db, { ...artifact('live', 'second'), kind: 'live' });
  return miner;
}

async function taskHashes(db: Kysely<Database>, roundId: string): Promise<string[]> {
  const rows = await db
    .selectFrom('tasks')
    .innerJoin('artifacts', 'artifacts.id', 'tasks.artifact_id')
    .select('artifacts.bundle_hash')
    .where('tasks.round_id', '=', roundId)
    .execute();
  return rows.map((r) => r.bundle_hash).sort();
}

describeEachDialect('advanceRounds', (ctx) => {
  it('runs every track through opened → evaluation → closed → next round after the gap', async () => {
    const db = ctx.db();
    const miner = await seedSkills(db);
    const step = (now: number) => advanceRounds(db, { now, settings: SETTINGS });

    const opened = await step(T0);
    expect(summary(opened)).toEqual(['mcp_servers:opened:1', 'packages:opened:1', 'repositories:opened:1', 'skills:opened:1']);
    const skills1 = opened.find((t) => t.track === 'skills')!.roundId;
    const round1 = await db.selectFrom('rounds').selectAll().where('round_id', '=', skills1).executeTakeFirstOrThrow();
    expect(round1).toMatchObject({
      status: 'open',
      phase: 'submission',
      policy_version: 'policy-test-1',
      opened_at: T0,
      submission_closes_at: T0 + HOUR,
      closes_at: T0 + 3 * HOUR,
      next_round_opens_at: null,
    });

    expect(await step(T0 + HOUR - 1)).toEqual([]);
    const started = await step(T0 + HOUR);
    expect(summary(started)).toEqual([
      'mcp_servers:evaluation_started:1',
      'packages:evaluation_started:1',
      'repositories:evaluation_started:1',
      'skills:evaluation_started:1',
    ]);
    expect(started.find((t) => t.track === 'skills')).toMatchObject({ agents: 1, tasks: 3 });
    expect(started.find((t) => t.track === 'packages')).toMatchObject({ agents: 0, tasks: 0 });
    const frozen = await db.selectFrom('round_agents').selectAll().where('round_id', '=', skills1).execute();
    expect(frozen).toEqual([expect.objectContaining({ hotkey: miner.hotkey, version: 1, code_hash: codeHash('v1'), frozen_at: T0 + HOUR })]);
    const hashes1 = await taskHashes(db, skills1);
    expect(hashes1.filter((h) => h.startsWith('skills/bench/'))).toHaveLength(2);
    // Live: the never-evaluated artifact registered first.
    expect(hashes1.filter((h) => h.startsWith('skills/live/'))).toEqual(['skills/live/first']);

    // A resubmission after the freeze does not change what round 1 evaluates.
    await submitAgent(db, { hotkey: miner.hotkey, track: 'skills', name: 'a1', provider: 'p', codeHash: codeHash('v2'), now: T0 + 2 * HOUR });
    expect(await step(T0 + 3 * HOUR - 1)).toEqual([]);
    const closed = await step(T0 + 3 * HOUR);
    expect(summary(closed)).toEqual(['mcp_servers:closed:1', 'packages:closed:1', 'repositories:closed:1', 'skills:closed:1']);
    const after = await db.selectFrom('rounds').selectAll().execute();
    expect(after.every((r) => r.status === 'closed' && r.phase === 'complete')).toBe(true);
    expect(after.every((r) => r.closed_at === T0 + 3 * HOUR && r.next_round_opens_at === T0 + 3 * HOUR + 30 * MINUTE)).toBe(true);
    const results = await db.selectFrom('round_results').selectAll().where('round_id', '=', skills1).execute();
    expect(results).toEqual([expect.objectContaining({ hotkey: miner.hotkey, score: null, attestations: 0 })]);

    expect(await step(T0 + 3 * HOUR + 30 * MINUTE - 1)).toEqual([]);
    const reopened = await step(T0 + 3 * HOUR + 30 * MINUTE);
    expect(summary(reopened)).toEqual(['mcp_servers:opened:2', 'packages:opened:2', 'repositories:opened:2', 'skills:opened:2']);
    const skills2 = reopened.find((t) => t.track === 'skills')!.roundId;
    expect(await step(T0 + 4 * HOUR + 30 * MINUTE)).toHaveLength(4);
    const frozen2 = await db.selectFrom('round_agents').selectAll().where('round_id', '=', skills2).execute();
    expect(frozen2).toEqual([expect.objectContaining({ version: 2, code_hash: codeHash('v2') })]);
    // Round 2 takes the live artifact that round 1 did not evaluate.
    expect((await taskHashes(db, skills2)).filter((h) => h.startsWith('skills/live/'))).toEqual(['skills/live/second']);
  });

  it('does one transition when two steps run at the same instant', async () => {
    const db = ctx.db();
    await seedSkills(db);
    for (const at of [T0, T0 + HOUR, T0 + 3 * HOUR, T0 + 3 * HOUR + 30 * MINUTE]) {
      expect(await advanceRounds(db, { now: at, settings: SETTINGS })).toHaveLength(4);
      expect(await advanceRounds(db, { now: at, settings: SETTINGS })).toEqual([]);
    }
    const numbers = await db.selectFrom('rounds').select(['track', 'round_number', 'status']).orderBy('track').orderBy('round_number').execute();
    expect(numbers.filter((r) => r.status === 'open').map((r) => r.track)).toEqual(['mcp_servers', 'packages', 'repositories', 'skills']);
    expect(numbers.map((r) => r.round_number)).toEqual([1, 2, 1, 2, 1, 2, 1, 2]);
    const tasks = await db.selectFrom('tasks').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    expect(Number(tasks.n)).toBe(3);
  });

  it('keeps advancing the other tracks when one track fails', async () => {
    const db = ctx.db();
    await installFailingTrigger(db, ctx.dialect, 'packages');
    try {
      const failures: TrackName[] = [];
      const opened = await advanceRounds(db, { now: T0, settings: SETTINGS, onTrackError: (track) => failures.push(track) });
      expect(failures).toEqual(['packages']);
      expect(summary(opened)).toEqual(['mcp_servers:opened:1', 'repositories:opened:1', 'skills:opened:1']);
      // Tracks keep their own clocks: packages opens later and runs on its own schedule.
      await dropFailingTrigger(db, ctx.dialect);
      expect(summary(await advanceRounds(db, { now: T0 + 10 * MINUTE, settings: SETTINGS }))).toEqual(['packages:opened:1']);
      expect(summary(await advanceRounds(db, { now: T0 + HOUR, settings: SETTINGS }))).toEqual([
        'mcp_servers:evaluation_started:1',
        'repositories:evaluation_started:1',
        'skills:evaluation_started:1',
      ]);
      expect(summary(await advanceRounds(db, { now: T0 + HOUR + 10 * MINUTE, settings: SETTINGS }))).toEqual([
        'packages:evaluation_started:1',
      ]);
    } finally {
      await dropFailingTrigger(db, ctx.dialect);
    }
  });
});

async function installFailingTrigger(db: Kysely<Database>, dialect: 'sqlite' | 'postgres', track: TrackName) {
  if (dialect === 'sqlite') {
    await sql
      .raw(
        `CREATE TRIGGER scheduler_test_fail BEFORE INSERT ON rounds WHEN NEW.track = '${track}' ` +
          `BEGIN SELECT RAISE(ABORT, 'track is broken'); END`,
      )
      .execute(db);
    return;
  }
  await sql
    .raw(
      `CREATE FUNCTION scheduler_test_fail() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN ` +
        `IF NEW.track = '${track}' THEN RAISE EXCEPTION 'track is broken'; END IF; RETURN NEW; END $$`,
    )
    .execute(db);
  await sql
    .raw('CREATE TRIGGER scheduler_test_fail BEFORE INSERT ON rounds FOR EACH ROW EXECUTE FUNCTION scheduler_test_fail()')
    .execute(db);
}

async function dropFailingTrigger(db: Kysely<Database>, dialect: 'sqlite' | 'postgres') {
  if (dialect === 'sqlite') {
    await sql.raw('DROP TRIGGER IF EXISTS scheduler_test_fail').execute(db);
    return;
  }
  await sql.raw('DROP TRIGGER IF EXISTS scheduler_test_fail ON rounds').execute(db);
  await sql.raw('DROP FUNCTION IF EXISTS scheduler_test_fail()').execute(db);
}
