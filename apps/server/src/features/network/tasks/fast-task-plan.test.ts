import { describe, expect, it } from 'vitest';
import { decideFastVerdict, planFastTasks, type FastVote } from './fast-task-plan.js';

const INCUMBENTS = { roundId: 'a'.repeat(16), track: 'packages' as const, winners: ['w1', 'w2'] };

describe('planFastTasks', () => {
  it('gives every incumbent of the track a fast task in the incumbents’ round', () => {
    expect(planFastTasks({ artifact: { track: 'packages' }, incumbents: INCUMBENTS, alreadyTasked: new Set() })).toEqual({
      status: 'planned',
      roundId: INCUMBENTS.roundId,
      hotkeys: ['w1', 'w2'],
    });
  });

  it('skips incumbents that already have a task for the artifact (storing it again adds nothing)', () => {
    expect(planFastTasks({ artifact: { track: 'packages' }, incumbents: INCUMBENTS, alreadyTasked: new Set(['w1']) })).toMatchObject({ hotkeys: ['w2'] });
    expect(planFastTasks({ artifact: { track: 'packages' }, incumbents: INCUMBENTS, alreadyTasked: new Set(['w1', 'w2']) })).toEqual({
      status: 'none',
      reason: 'already_tasked',
    });
  });

  it('plans nothing without a closed round, without winners, or for another track', () => {
    expect(planFastTasks({ artifact: { track: 'packages' }, incumbents: null, alreadyTasked: new Set() })).toEqual({ status: 'none', reason: 'no_closed_round' });
    expect(planFastTasks({ artifact: { track: 'packages' }, incumbents: { ...INCUMBENTS, winners: [] }, alreadyTasked: new Set() })).toEqual({
      status: 'none',
      reason: 'no_incumbents',
    });
    expect(planFastTasks({ artifact: { track: 'skills' }, incumbents: INCUMBENTS, alreadyTasked: new Set() })).toEqual({ status: 'none', reason: 'other_track' });
  });
});

const vote = (minerHotkey: string, validatorHotkey: string, verdict: FastVote['verdict'], riskScore = verdict === 'ALLOW' ? 5 : 90): FastVote => ({
  minerHotkey,
  validatorHotkey,
  verdict,
  riskScore,
});

describe('decideFastVerdict', () => {
  it('waits until every incumbent is attested by `quorum` validators', () => {
    const votes = [vote('w1', 'v1', 'BLOCK'), vote('w1', 'v2', 'BLOCK'), vote('w2', 'v1', 'BLOCK')];
    expect(decideFastVerdict({ incumbents: ['w1', 'w2'], votes, quorum: 2 })).toEqual({ decided: false, waitingFor: [{ hotkey: 'w2', have: 1 }] });
  });

  it('decides with the rule of a round’s close: most frequent verdict, ties to the more severe, median risk', () => {
    const votes = [vote('w1', 'v1', 'BLOCK', 90), vote('w1', 'v2', 'WARN', 60), vote('w2', 'v1', 'WARN', 50), vote('w2', 'v2', 'BLOCK', 80)];
    expect(decideFastVerdict({ incumbents: ['w1', 'w2'], votes, quorum: 2 })).toEqual({ decided: true, verdict: 'BLOCK', riskScore: 85, votes: 4 });
    const allow = [vote('w1', 'v1', 'ALLOW', 4), vote('w1', 'v2', 'ALLOW', 7), vote('w1', 'v3', 'WARN', 55)];
    expect(decideFastVerdict({ incumbents: ['w1'], votes: allow, quorum: 3 })).toEqual({ decided: true, verdict: 'ALLOW', riskScore: 6, votes: 3 });
  });

  it('ignores votes of agents that are not incumbents, and one validator counted twice for an agent', () => {
    const votes = [vote('loser', 'v1', 'ALLOW'), vote('loser', 'v2', 'ALLOW'), vote('w1', 'v1', 'BLOCK'), vote('w1', 'v1', 'ALLOW')];
    expect(decideFastVerdict({ incumbents: ['w1'], votes, quorum: 2 })).toEqual({ decided: false, waitingFor: [{ hotkey: 'w1', have: 1 }] });
    expect(decideFastVerdict({ incumbents: ['w1'], votes: [...votes, vote('w1', 'v2', 'BLOCK', 70)], quorum: 2 })).toEqual({
      decided: true,
      verdict: 'BLOCK',
      riskScore: 80,
      votes: 2,
    });
  });

  it('never decides without incumbents, and refuses a quorum below 1', () => {
    expect(decideFastVerdict({ incumbents: [], votes: [vote('w1', 'v1', 'BLOCK')], quorum: 1 })).toEqual({ decided: false, waitingFor: [] });
    expect(() => decideFastVerdict({ incumbents: ['w1'], votes: [], quorum: 0 })).toThrow(RangeError);
  });
});
