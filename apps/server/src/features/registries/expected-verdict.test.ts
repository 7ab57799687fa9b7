import { describe, expect, it } from 'vitest';
import type { RoundsTable } from '../../platform/db/schema.js';
import { expectedVerdictAt } from './expected-verdict.js';

const timings = { submissionMs: 60_000, evaluationMs: 600_000, gapMs: 30_000 };
const now = 1_000_000;
const round = (fields: Partial<RoundsTable>): RoundsTable => ({
  round_id: 'packages-1',
  track: 'packages',
  round_number: 1,
  status: 'open',
  phase: 'submission',
  policy_version: 'p',
  opened_at: now - 10_000,
  submission_closes_at: now + 50_000,
  closes_at: now + 650_000,
  evaluation_started_at: null,
  closed_at: null,
  next_round_opens_at: null,
  ...fields,
});

describe('expectedVerdictAt', () => {
  it('is the close of a round still in submission: its selection comes later', () => {
    expect(expectedVerdictAt(round({}), { hasTask: false, now, timings })).toBe(now + 650_000);
  });

  it('is the close of a round in evaluation that holds tasks of the artifact', () => {
    expect(expectedVerdictAt(round({ phase: 'evaluation' }), { hasTask: true, now, timings })).toBe(now + 650_000);
  });

  it('is the next round after a round in evaluation without its tasks: gap, submission, evaluation', () => {
    expect(expectedVerdictAt(round({ phase: 'evaluation' }), { hasTask: false, now, timings })).toBe(now + 650_000 + 30_000 + 660_000);
  });

  it('counts from now when the round is overdue', () => {
    expect(expectedVerdictAt(round({ phase: 'evaluation', closes_at: now - 100_000 }), { hasTask: false, now, timings })).toBe(now + 660_000);
    expect(expectedVerdictAt(round({ status: 'closed', phase: 'complete', next_round_opens_at: now - 5 }), { hasTask: false, now, timings })).toBe(now + 660_000);
  });

  it('is one period after the next opening once the round closed', () => {
    expect(expectedVerdictAt(round({ status: 'closed', phase: 'complete', next_round_opens_at: now + 20_000 }), { hasTask: false, now, timings })).toBe(now + 20_000 + 660_000);
  });

  it('is one period from now on a track without rounds', () => {
    expect(expectedVerdictAt(undefined, { hasTask: false, now, timings })).toBe(now + 660_000);
  });
});
