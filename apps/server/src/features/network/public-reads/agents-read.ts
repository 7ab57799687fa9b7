import {
  LIMITS,
  TRACKS,
  formatNaiveTimestamp,
  type Agent,
  type AgentEligibility,
  type AgentsResponse,
  type EligibilityState,
  type Leaderboard,
  type LeaderboardRow,
  type Track,
} from '@vigil/core';
import { sql, type Kysely } from 'kysely';
import type { Database } from '../../../platform/db/schema.js';
import { VigilError } from '../../../platform/errors.js';

function trackOrder(track: string): number {
  return (TRACKS as readonly string[]).indexOf(track);
}

/** The display round of every track: its latest closed round. */
async function displayRounds(db: Kysely<Database>) {
  return db
    .selectFrom('rounds as r')
    .select(['r.round_id', 'r.track', 'r.round_number', 'r.closed_at'])
    .where('r.status', '=', 'closed')
    .where('r.round_number', '=', (eb) =>
      eb
        .selectFrom('rounds as r2')
        .select((e) => e.fn.max('r2.round_number').as('m'))
        .whereRef('r2.track', '=', 'r.track')
        .where('r2.status', '=', 'closed'),
    )
    .execute();
}

/** GET /v1/leaderboard: ranked results of each track's display round against each agent's current code. */
export async function readLeaderboard(db: Kysely<Database>, now: Date): Promise<Leaderboard> {
  const rounds = await displayRounds(db);
  const ids = rounds.map((r) => r.round_id);
  const [rows, total] = await Promise.all([
    ids.length === 0
      ? Promise.resolve([])
      : db
          .selectFrom('round_results as rr')
          .innerJoin('rounds as r', 'r.round_id', 'rr.round_id')
          .innerJoin('agents as a', (j) => j.onRef('a.hotkey', '=', 'rr.hotkey').onRef('a.track', '=', 'r.track'))
          .select([
            'r.track',
            'rr.rank',
            'rr.hotkey',
            'rr.name',
            'rr.version',
            'rr.score',
            'rr.code_hash',
            'rr.attestations',
            'a.code_hash as current_hash',
            'a.version as current_version',
            'a.updated_at',
          ])
          .where('rr.round_id', 'in', ids)
          .where('rr.rank', 'is not', null)
          .execute(),
    db
      .selectFrom('agents')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('status', '=', 'active')
      .executeTakeFirst(),
  ]);
  const out: LeaderboardRow[] = rows
    .sort((a, b) => trackOrder(a.track) - trackOrder(b.track) || a.rank! - b.rank!)
    .map((r) => {
      const resubmitted = r.current_hash !== r.code_hash;
      return {
        rank: r.rank!,
        track: r.track,
        hotkey: r.hotkey,
        name: r.name,
        version: r.version,
        score: resubmitted ? null : r.score,
        attestations: r.attestations,
        updated_at: formatNaiveTimestamp(r.updated_at),
        resubmitted_since: resubmitted,
        current_version: r.current_version,
      };
    });
  const lastClosed = rounds.reduce<number | null>((m, r) => (r.closed_at !== null && (m === null || r.closed_at > m) ? r.closed_at : m), null);
  return {
    rows: out,
    meta: { total_agents: Number(total?.n ?? 0), last_update: formatNaiveTimestamp(lastClosed ?? now) },
  };
}

interface ResultRow {
  hotkey: string;
  track: Track;
  round_id: string;
  round_number: number;
  score: number | null;
  validators: number;
  code_hash: string;
  rank: number | null;
  winner: number;
}

/** Closed-round results of the given hotkeys, oldest round first. */
async function closedResults(db: Kysely<Database>, hotkeys: readonly string[]): Promise<ResultRow[]> {
  if (hotkeys.length === 0) return [];
  return db
    .selectFrom('round_results as rr')
    .innerJoin('rounds as r', 'r.round_id', 'rr.round_id')
    .select(['rr.hotkey', 'r.track', 'r.round_id', 'r.round_number', 'rr.score', 'rr.validators', 'rr.code_hash', 'rr.rank', 'rr.winner'])
    .where('rr.hotkey', 'in', hotkeys)
    .where('r.status', '=', 'closed')
    .orderBy('r.round_number')
    .execute();
}

/** GET /v1/agents: active agents, most recently updated first, at most 500. */
export async function readAgents(db: Kysely<Database>, track: Track | undefined): Promise<AgentsResponse> {
  const agents = await db
    .selectFrom('agents')
    .selectAll()
    .where('status', '=', 'active')
    .$if(track !== undefined, (qb) => qb.where('track', '=', track!))
    .orderBy('updated_at', 'desc')
    .orderBy('hotkey')
    .orderBy('track')
    .limit(LIMITS.maxAgentsReturned)
    .execute();
  const hotkeys = [...new Set(agents.map((a) => a.hotkey))];
  const results = await closedResults(db, hotkeys);
  const evaluatedRounds = new Map<string, ResultRow>();
  for (const a of agents) {
    const own = results.filter((r) => r.hotkey === a.hotkey && r.track === a.track);
    const latest = own.filter((r) => r.code_hash === a.code_hash && r.score !== null).at(-1);
    if (latest) evaluatedRounds.set(`${a.hotkey} ${a.track}`, latest);
  }
  const scoredRoundIds = [...new Set([...evaluatedRounds.values()].map((r) => r.round_id))];
  const validatorScores =
    scoredRoundIds.length === 0
      ? []
      : await db
          .selectFrom('validator_scores')
          .select(['round_id', 'hotkey', 'validator_hotkey', 'score'])
          .where('round_id', 'in', scoredRoundIds)
          .where('hotkey', 'in', hotkeys)
          .orderBy('validator_hotkey')
          .execute();

  return {
    agents: agents.map((a): Agent => {
      const latest = evaluatedRounds.get(`${a.hotkey} ${a.track}`);
      return {
        hotkey: a.hotkey,
        track: a.track,
        name: a.name,
        version: a.version,
        status: 'active',
        agent_hash: a.code_hash,
        provider: a.provider,
        evaluated: latest !== undefined,
        evaluation_state: null,
        runs: latest?.validators ?? 0,
        score: latest?.score ?? 0,
        validator_scores: latest
          ? validatorScores
              .filter((v) => v.round_id === latest.round_id && v.hotkey === a.hotkey)
              .map((v) => ({ validator: v.validator_hotkey, score: v.score, round_number: latest.round_number }))
          : [],
        rounds: results.filter((r) => r.hotkey === a.hotkey && r.track === a.track).map((r) => r.round_number),
        updated_at: formatNaiveTimestamp(a.updated_at),
      };
    }),
  };
}

/**
 * GET /v1/agents/{hotkey}: whether the agent enters the next round of its track. Without a track,
 * the hotkey's most recently updated active agent (or, if none is active, its most recent one).
 */
export async function readAgentEligibility(
  db: Kysely<Database>,
  hotkey: string,
  track: Track | undefined,
): Promise<AgentEligibility> {
  const agent = await db
    .selectFrom('agents')
    .selectAll()
    .where('hotkey', '=', hotkey)
    .$if(track !== undefined, (qb) => qb.where('track', '=', track!))
    .orderBy(sql`case when status = 'active' then 0 else 1 end`)
    .orderBy('updated_at', 'desc')
    .orderBy('track')
    .limit(1)
    .executeTakeFirst();
  if (agent === undefined) throw new VigilError('agent_not_found');

  const [miner, previous, history] = await Promise.all([
    db
      .selectFrom('miners')
      .select('status')
      .where('hotkey', '=', hotkey)
      .where('track', '=', agent.track)
      .executeTakeFirst(),
    db
      .selectFrom('rounds')
      .select(['round_id', 'round_number'])
      .where('track', '=', agent.track)
      .where('status', '=', 'closed')
      .orderBy('round_number', 'desc')
      .limit(1)
      .executeTakeFirst(),
    closedResults(db, [hotkey]),
  ]);
  const own = history.filter((r) => r.track === agent.track);
  const last = own.at(-1);
  const inPrevious = previous === undefined ? undefined : own.find((r) => r.round_id === previous.round_id);

  let state: EligibilityState;
  let reason: string;
  if (agent.status !== 'active') {
    state = 'inactive';
    reason = 'the agent was deleted; submit a new version to take part again';
  } else if (miner?.status !== 'registered') {
    state = 'inactive';
    reason = `the hotkey is not registered on the ${agent.track} track`;
  } else if (inPrevious?.winner === 1) {
    state = 'winner';
    reason = `placed #${inPrevious.rank} in the top five of the previous round (round ${previous!.round_number})`;
  } else if (last !== undefined && last.code_hash !== agent.code_hash) {
    state = 'updated';
    reason = `version ${agent.version} has new code since round ${last.round_number}; it will be evaluated in the next round`;
  } else if (last === undefined) {
    state = 'new';
    reason = `version ${agent.version} has not been evaluated yet; it enters the next round`;
  } else {
    state = 'excluded';
    reason = `version ${agent.version} was already evaluated in round ${last.round_number} without placing in the top five; submit new code to take part again`;
  }
  return {
    hotkey: agent.hotkey,
    track: agent.track,
    name: agent.name,
    status: agent.status,
    agent_hash: agent.code_hash,
    version: agent.version,
    qualifies_next_round: state === 'new' || state === 'winner' || state === 'updated',
    state,
    reason,
    // Never entered a round: the hash it will be frozen with next (the spec has no null here).
    last_round_hash: last?.code_hash ?? agent.code_hash,
    score: last?.score ?? 0,
    rounds: own.map((r) => r.round_number),
  };
}
