import { describe, expect, it } from 'vitest';
import { AgentEligibilityQuery, AgentsQuery, RoundAttestationsQuery, RoundsQuery, TrendsQuery } from './queries.js';
import { expectAccepted, expectRejectedAt } from '../test-support/schema-cases.js';

describe('TrendsQuery', () => {
  it.each([
    [{}, 30],
    [{ days: '1' }, 1],
    [{ days: '30' }, 30],
    [{ days: '180' }, 180],
  ])('reads %j as days %i', (query, days) => {
    expect(expectAccepted(TrendsQuery, query)).toEqual({ days });
  });

  it.each(['0', '181', '-5', '1.5', 'abc', '', '1e2', '99999999999999999999'])('rejects days=%j', (days) => {
    expectRejectedAt(TrendsQuery, { days }, ['days']);
  });
});

describe('RoundsQuery', () => {
  it.each([
    [{}, 60],
    [{ limit: '1' }, 1],
    [{ limit: '200' }, 200],
  ])('reads %j as limit %i', (query, limit) => {
    expect(expectAccepted(RoundsQuery, query)).toEqual({ limit });
  });

  it.each(['0', '201', '-1', 'ten', ' 5'])('rejects limit=%j', (limit) => {
    expectRejectedAt(RoundsQuery, { limit }, ['limit']);
  });
});

describe('AgentsQuery and AgentEligibilityQuery', () => {
  it.each(['skills', 'mcp_servers', 'packages', 'repositories'])('accept track %s', (track) => {
    expect(expectAccepted(AgentsQuery, { track })).toEqual({ track });
    expect(expectAccepted(AgentEligibilityQuery, { track })).toEqual({ track });
  });

  it('accept no track', () => {
    expect(expectAccepted(AgentsQuery, {})).toEqual({});
  });

  it.each(['Skills', 'mcp-servers', 'all', ''])('reject track %j', (track) => {
    expectRejectedAt(AgentsQuery, { track }, ['track']);
    expectRejectedAt(AgentEligibilityQuery, { track }, ['track']);
  });
});

describe('RoundAttestationsQuery', () => {
  it('leaves a malformed miner for the handler to blank (spec rule 3), rather than rejecting it', () => {
    expect(expectAccepted(RoundAttestationsQuery, { miner: 'not-a-hotkey' })).toEqual({ miner: 'not-a-hotkey' });
    expect(expectAccepted(RoundAttestationsQuery, {})).toEqual({});
    // Not one string (given twice, or a bracketed key): read as absent, so the shell answers it too.
    expect(expectAccepted(RoundAttestationsQuery, { miner: ['a', 'b'] })).toEqual({ miner: undefined });
    expect(expectAccepted(RoundAttestationsQuery, { miner: { x: 'a' } })).toEqual({ miner: undefined });
  });
});
