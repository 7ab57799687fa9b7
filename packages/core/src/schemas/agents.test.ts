import { describe, expect, it } from 'vitest';
import { Agent, AgentEligibility, AgentsResponse, Leaderboard } from './agents.js';
import { ALICE, agent, agentEligibility, agentsResponse, leaderboard } from '../test-support/fixtures.js';
import { REMOVE, expectAccepted, expectRejectedAt, rejectCase, withChange } from '../test-support/schema-cases.js';

describe('Leaderboard', () => {
  it('accepts the spec shape, including a null score for a resubmitted agent', () => {
    const parsed = expectAccepted(Leaderboard, leaderboard());
    expect(parsed.rows[1]?.score).toBeNull();
  });

  it.each([
    rejectCase('an unknown track', ['rows', 0, 'track'], 'mcp'),
    rejectCase('rank 0', ['rows', 0, 'rank'], 0),
    rejectCase('version as a string', ['rows', 0, 'version'], '3'),
    rejectCase('an updated_at with an offset (wrong family)', ['rows', 0, 'updated_at'], '2026-11-21T09:30:00.000+00:00'),
    rejectCase('resubmitted_since missing', ['rows', 0, 'resubmitted_since'], REMOVE),
    rejectCase('a 46-character hotkey', ['rows', 0, 'hotkey'], ALICE.slice(0, 46)),
    rejectCase('a 49-character hotkey', ['rows', 0, 'hotkey'], `${ALICE}z`),
    rejectCase('meta.last_update with Z', ['meta', 'last_update'], '2026-11-21T09:30:00Z'),
    rejectCase('meta.total_agents negative', ['meta', 'total_agents'], -1),
  ])('rejects $name', ({ path, value }) => {
    expectRejectedAt(Leaderboard, withChange(leaderboard(), path, value), path);
  });
});

describe('Agent and AgentsResponse', () => {
  it('accept the spec shapes', () => {
    expect(expectAccepted(Agent, agent())).toEqual(agent());
    expectAccepted(AgentsResponse, agentsResponse());
    expectAccepted(AgentsResponse, { agents: [] });
  });

  it.each(['processing', 'completed', 'pending'])('accepts the reserved evaluation_state %s', (state) => {
    expectAccepted(Agent, withChange(agent(), ['evaluation_state'], state));
  });

  it('accepts 500 agents and rejects 501', () => {
    expectAccepted(AgentsResponse, { agents: Array.from({ length: 500 }, agent) });
    expectRejectedAt(AgentsResponse, { agents: Array.from({ length: 501 }, agent) }, ['agents']);
  });

  it.each([
    rejectCase('an unknown track', ['track'], 'plugins'),
    rejectCase('a status other than active', ['status'], 'inactive'),
    rejectCase('an unknown evaluation_state', ['evaluation_state'], 'queued'),
    rejectCase('an agent_hash without the prefix', ['agent_hash'], 'ab'.repeat(32)),
    rejectCase('an agent_hash in uppercase', ['agent_hash'], `sha256:${'AB'.repeat(32)}`),
    rejectCase('a round number that is not an integer', ['rounds', 0], 409.5),
    rejectCase('a validator score without its validator', ['validator_scores', 0, 'validator'], REMOVE),
    rejectCase('evaluated as a string', ['evaluated', ], 'yes'),
    rejectCase('a 46-character hotkey', ['hotkey'], ALICE.slice(0, 46)),
  ])('Agent rejects $name', ({ path, value }) => {
    expectRejectedAt(Agent, withChange(agent(), path, value), path);
  });
});

describe('AgentEligibility', () => {
  it('accepts the spec shape; last_round_hash is always a sha256 string, never null', () => {
    expectAccepted(AgentEligibility, agentEligibility());
    expect(AgentEligibility.safeParse(withChange(withChange(agentEligibility(), ['last_round_hash'], null), ['state'], 'new')).success).toBe(false);
  });

  it.each(['new', 'winner', 'updated', 'excluded', 'inactive'])('accepts state %s', (state) => {
    expectAccepted(AgentEligibility, withChange(agentEligibility(), ['state'], state));
  });

  it.each([
    rejectCase('an unknown state', ['state'], 'banned'),
    rejectCase('an uppercase state', ['state'], 'WINNER'),
    rejectCase('an empty reason', ['reason'], ''),
    rejectCase('qualifies_next_round missing', ['qualifies_next_round'], REMOVE),
    rejectCase('a last_round_hash that is not sha256:<hex>', ['last_round_hash'], 'sha1:abc'),
    rejectCase('an unknown track', ['track'], 'npm'),
  ])('rejects $name', ({ path, value }) => {
    expectRejectedAt(AgentEligibility, withChange(agentEligibility(), path, value), path);
  });
});
