import type { Verdict } from '@vigil/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { scoreRound, verdictsToPublish, WINNERS_PER_ROUND, type RoundAttestation } from './round-scoring.js';

const VERDICTS: Verdict[] = ['ALLOW', 'WARN', 'BLOCK'];
let nextArtifact = 1;

/** A labeled attestation of `miner` by `validator`. */
function labeled(miner: string, validator: string, groundTruth: Verdict, verdict: Verdict): RoundAttestation {
  const artifactId = nextArtifact++;
  return { minerHotkey: miner, validatorHotkey: validator, verdict, riskScore: 50, artifactId, bundleHash: `b${artifactId}`, kind: 'labeled', groundTruth };
}

function live(miner: string, validator: string, artifactId: number, verdict: Verdict, riskScore: number): RoundAttestation {
  return { minerHotkey: miner, validatorHotkey: validator, verdict, riskScore, artifactId, bundleHash: `live${artifactId}`, kind: 'live', groundTruth: null };
}

/** An agent answering every label right (`perfect`) or ALLOW to everything, seen by `validator`. */
function answers(miner: string, validator: string, perfect: boolean): RoundAttestation[] {
  return [labeled(miner, validator, 'BLOCK', perfect ? 'BLOCK' : 'ALLOW'), labeled(miner, validator, 'ALLOW', 'ALLOW')];
}

describe('scoreRound', () => {
  it('scores, ranks and picks winners from plain attestations', () => {
    const agents = [
      { hotkey: 'constant', submittedAt: 1 },
      { hotkey: 'late', submittedAt: 30 },
      { hotkey: 'early', submittedAt: 20 },
      { hotkey: 'silent', submittedAt: 5 },
      { hotkey: 'one-class', submittedAt: 6 },
    ];
    const attestations = [
      ...answers('constant', 'v1', false),
      ...answers('late', 'v1', true),
      ...answers('late', 'v2', true),
      ...answers('early', 'v1', true),
      labeled('one-class', 'v1', 'BLOCK', 'BLOCK'),
      // An agent not frozen into the round is ignored.
      ...answers('stranger', 'v1', true),
    ];
    const scores = scoreRound(agents, attestations);
    expect(scores.ranked).toEqual(['early', 'late', 'constant']);
    // A score of 0 ranks but never wins.
    expect(scores.winners).toEqual(['early', 'late']);
    expect(scores.agents).toEqual([
      { hotkey: 'constant', score: 0, validators: 1, rank: 3, winner: false, attestations: 2, failureReason: null },
      { hotkey: 'late', score: 1, validators: 2, rank: 2, winner: true, attestations: 4, failureReason: null },
      { hotkey: 'early', score: 1, validators: 1, rank: 1, winner: true, attestations: 2, failureReason: null },
      { hotkey: 'silent', score: null, validators: 0, rank: null, winner: false, attestations: 0, failureReason: 'no attestations were recorded for this agent' },
      {
        hotkey: 'one-class',
        score: null,
        validators: 0,
        rank: null,
        winner: false,
        attestations: 1,
        failureReason: 'no validator attested both malicious and benign labeled artifacts for this agent',
      },
    ]);
    expect(scores.validatorScores).toEqual([
      { hotkey: 'constant', validatorHotkey: 'v1', score: 0, labeledTasks: 2 },
      { hotkey: 'late', validatorHotkey: 'v1', score: 1, labeledTasks: 2 },
      { hotkey: 'late', validatorHotkey: 'v2', score: 1, labeledTasks: 2 },
      { hotkey: 'early', validatorHotkey: 'v1', score: 1, labeledTasks: 2 },
    ]);
  });

  it('takes the median of the validators’ scores', () => {
    // v1 sees a perfect agent, v2 a constant one: median of 1 and 0.
    const scores = scoreRound([{ hotkey: 'm', submittedAt: 0 }], [...answers('m', 'v1', true), ...answers('m', 'v2', false)]);
    expect(scores.agents[0]!.score).toBe(0.5);
  });

  it('breaks equal scores and submission times by the lower hotkey', () => {
    const agents = [{ hotkey: 'b', submittedAt: 7 }, { hotkey: 'a', submittedAt: 7 }];
    const scores = scoreRound(agents, [...answers('b', 'v', true), ...answers('a', 'v', true)]);
    expect(scores.ranked).toEqual(['a', 'b']);
  });

  const verdict = fc.constantFrom<Verdict>(...VERDICTS);
  const hotkey = fc.constantFrom('m1', 'm2', 'm3', 'm4', 'm5', 'm6', 'm7');
  const roundInput = fc.record({
    agents: fc.uniqueArray(fc.record({ hotkey, submittedAt: fc.integer({ min: 0, max: 5 }) }), { selector: (a) => a.hotkey }),
    attestations: fc.array(
      fc.record({
        minerHotkey: hotkey,
        validatorHotkey: fc.constantFrom('v1', 'v2', 'v3'),
        verdict,
        riskScore: fc.integer({ min: 0, max: 100 }),
        artifactId: fc.integer({ min: 1, max: 8 }),
        bundleHash: fc.constant('b'),
        kind: fc.constantFrom<'labeled' | 'live'>('labeled', 'live'),
        groundTruth: verdict,
      }),
      { maxLength: 80 },
    ),
  });

  it('ranks every scored agent 1..n best first, and picks at most five winners, all scored above 0', () => {
    fc.assert(
      fc.property(roundInput, ({ agents, attestations }) => {
        const scores = scoreRound(agents, attestations);
        const byHotkey = new Map(scores.agents.map((a) => [a.hotkey, a]));
        expect(scores.agents.map((a) => a.hotkey)).toEqual(agents.map((a) => a.hotkey));
        expect(scores.ranked.map((h) => byHotkey.get(h)!.rank)).toEqual(scores.ranked.map((_, i) => i + 1));
        for (let i = 1; i < scores.ranked.length; i++) {
          expect(byHotkey.get(scores.ranked[i - 1]!)!.score!).toBeGreaterThanOrEqual(byHotkey.get(scores.ranked[i]!)!.score!);
        }
        expect(scores.winners).toEqual(scores.ranked.filter((h) => byHotkey.get(h)!.score! > 0).slice(0, WINNERS_PER_ROUND));
        for (const a of scores.agents) {
          expect(a.score === null).toBe(a.rank === null);
          expect(a.score === null).toBe(a.failureReason !== null);
          expect(a.winner).toBe(scores.winners.includes(a.hotkey));
          expect(a.validators).toBe(scores.validatorScores.filter((s) => s.hotkey === a.hotkey).length);
          if (a.score !== null) expect(a.score >= 0 && a.score <= 1).toBe(true);
        }
      }),
    );
  });

  it('does not depend on the order of the attestations', () => {
    fc.assert(
      fc.property(roundInput, ({ agents, attestations }) => {
        const reversed = scoreRound(agents, [...attestations].reverse());
        const forward = scoreRound(agents, attestations);
        expect(reversed.ranked).toEqual(forward.ranked);
        expect(reversed.agents.map((a) => a.score)).toEqual(forward.agents.map((a) => a.score));
      }),
    );
  });
});

describe('verdictsToPublish', () => {
  it('publishes the winners’ verdict for each live artifact they attested, in first-seen order', () => {
    const attestations = [
      live('w1', 'v1', 9, 'WARN', 40),
      live('loser', 'v1', 3, 'BLOCK', 99),
      live('w2', 'v2', 9, 'WARN', 61),
      live('w1', 'v1', 4, 'ALLOW', 2),
      live('w2', 'v1', 9, 'BLOCK', 99),
      labeled('w1', 'v1', 'BLOCK', 'BLOCK'),
    ];
    expect(verdictsToPublish(attestations, new Set(['w1', 'w2']))).toEqual([
      { artifactId: 9, bundleHash: 'live9', verdict: 'WARN', riskScore: 51 },
      { artifactId: 4, bundleHash: 'live4', verdict: 'ALLOW', riskScore: 2 },
    ]);
  });

  it('publishes nothing without winners', () => {
    expect(verdictsToPublish([live('m', 'v', 1, 'BLOCK', 90)], new Set())).toEqual([]);
  });
});
