import { describe, expect, it } from 'vitest';
import {
  RoundAttestations,
  RoundScores,
  RoundStatus,
  RoundSummary,
  RoundsListResponse,
  RoundsStatusResponse,
  emptyRoundAttestations,
} from './rounds.js';
import {
  ALICE,
  ROUND_ID,
  attestationTask,
  finding,
  roundAttestations,
  roundScores,
  roundStatus,
  roundSummary,
  roundsListResponse,
  roundsStatusResponse,
} from '../test-support/fixtures.js';
import { REMOVE, expectAccepted, expectRejectedAt, rejectCase, withChange } from '../test-support/schema-cases.js';

describe('RoundStatus and RoundsStatusResponse', () => {
  it('accept the spec shapes', () => {
    expect(expectAccepted(RoundStatus, roundStatus())).toEqual(roundStatus());
    expectAccepted(RoundsStatusResponse, roundsStatusResponse());
    expectAccepted(
      RoundsStatusResponse,
      withChange(withChange(roundsStatusResponse(), ['next_round_opens_at'], '2026-11-21T12:00:00.000'), ['seconds_until_next_round'], 7200),
    );
  });

  it.each(['submission', 'evaluation', 'complete'])('accepts phase %s', (phase) => {
    expectAccepted(RoundStatus, withChange(roundStatus(), ['phase'], phase));
  });

  it.each([
    rejectCase('an unknown phase', ['phase'], 'scoring'),
    rejectCase('an unknown status', ['status'], 'pending'),
    rejectCase('an unknown track', ['track'], 'containers'),
    rejectCase('a 7-character round_id', ['round_id'], 'abcdef0'),
    rejectCase('an uppercase round_id', ['round_id'], '3F9A1C0E7B2D4A58'),
    rejectCase('a 65-character round_id', ['round_id'], 'a'.repeat(65)),
    rejectCase('a non-hex round_id', ['round_id'], 'round-0001'),
    rejectCase('round_number 0', ['round_number'], 0),
    rejectCase('an opened_at with an offset (wrong family)', ['opened_at'], '2026-11-21T06:00:00.000+00:00'),
    rejectCase('an impossible submission_closes_at', ['submission_closes_at'], '2026-11-21T24:00:00'),
    rejectCase('a negative seconds_until_close', ['seconds_until_close'], -1),
    rejectCase('accepting_submissions as a string', ['accepting_submissions'], 'false'),
    rejectCase('participants missing', ['participants'], REMOVE),
  ])('RoundStatus rejects $name', ({ path, value }) => {
    expectRejectedAt(RoundStatus, withChange(roundStatus(), path, value), path);
  });

  it.each([
    rejectCase('server_time with Z', ['server_time'], '2026-11-21T10:00:00Z'),
    rejectCase('next_round_opens_at missing', ['next_round_opens_at'], REMOVE),
    rejectCase('a bad entry in tracks', ['tracks', 1, 'phase'], 'done'),
  ])('RoundsStatusResponse rejects $name', ({ path, value }) => {
    expectRejectedAt(RoundsStatusResponse, withChange(roundsStatusResponse(), path, value), path);
  });
});

describe('RoundSummary, RoundsListResponse and RoundScores', () => {
  it('accept the spec shapes', () => {
    expectAccepted(RoundSummary, roundSummary());
    expectAccepted(RoundsListResponse, roundsListResponse());
    expectAccepted(RoundsListResponse, { rounds: [], meta: { total: 0 } });
    expectAccepted(RoundScores, roundScores());
  });

  it.each([
    rejectCase('status open (the list holds closed rounds only)', ['status'], 'open'),
    rejectCase('six winners (top five)', ['winners'], [1, 2, 3, 4, 5, 6].map((rank) => ({ ...roundSummary().winners[0], rank }))),
    rejectCase('a winner with rank 0', ['winners', 0, 'rank'], 0),
    rejectCase('a winner with a 46-character hotkey', ['winners', 0, 'hotkey'], ALICE.slice(0, 46)),
    rejectCase('a winner with a 49-character hotkey', ['winners', 0, 'hotkey'], `${ALICE}1`),
    rejectCase('a winner score as a string', ['winners', 0, 'score'], '0.9'),
    rejectCase('closed_at null', ['closed_at'], null),
  ])('RoundSummary rejects $name', ({ path, value }) => {
    expectRejectedAt(RoundSummary, withChange(roundSummary(), path, value), path);
  });

  it('RoundsListResponse rejects a missing meta.total', () => {
    expectRejectedAt(RoundsListResponse, withChange(roundsListResponse(), ['meta', 'total'], REMOVE), ['meta', 'total']);
  });

  it.each([
    rejectCase('a score entry with fractional validators', ['scores', 0, 'validators'], 2.5),
    rejectCase('an unknown track', ['track'], 'SKILLS'),
  ])('RoundScores rejects $name', ({ path, value }) => {
    expectRejectedAt(RoundScores, withChange(roundScores(), path, value), path);
  });
});

describe('RoundAttestations', () => {
  it('accepts the spec shape with tasks and findings', () => {
    expect(expectAccepted(RoundAttestations, roundAttestations())).toEqual(roundAttestations());
  });

  it('accepts exactly 500 tasks and exactly 50 findings per task', () => {
    const findings = Array.from({ length: 50 }, finding);
    const tasks = Array.from({ length: 500 }, () => ({ ...attestationTask(), findings }));
    expectAccepted(RoundAttestations, withChange(roundAttestations(), ['tasks'], tasks));
  });

  it.each([
    rejectCase('501 tasks', ['tasks'], Array.from({ length: 501 }, attestationTask)),
    rejectCase('51 findings in a task', ['tasks', 0, 'findings'], Array.from({ length: 51 }, finding)),
    rejectCase('risk_score 101', ['tasks', 0, 'risk_score'], 101),
    rejectCase('risk_score -1', ['tasks', 0, 'risk_score'], -1),
    rejectCase('a fractional risk_score', ['tasks', 0, 'risk_score'], 50.5),
    rejectCase('an unknown verdict', ['tasks', 0, 'verdict'], 'DENY'),
    rejectCase('a lowercase verdict', ['tasks', 0, 'verdict'], 'allow'),
    rejectCase('an unknown severity', ['tasks', 0, 'findings', 0, 'severity'], 'CRITICAL'),
    rejectCase('a finding without file', ['tasks', 0, 'findings', 0, 'file'], REMOVE),
    rejectCase('an artifact_ref that is not blanked', ['tasks', 0, 'artifact_ref'], 'pkg:npm/lodash@4.17.21'),
    rejectCase('a validator that is not blanked', ['tasks', 0, 'validator'], ALICE),
    rejectCase('a canonical_hash without the sha256: prefix', ['tasks', 0, 'canonical_hash'], 'e3b0'.repeat(16)),
    rejectCase('a 7-character round_id', ['round_id'], 'abcdef0'),
    rejectCase('an uppercase round_id', ['round_id'], ROUND_ID.toUpperCase()),
    rejectCase('a 65-character round_id', ['round_id'], 'f'.repeat(65)),
    rejectCase('a 46-character miner_hotkey', ['miner_hotkey'], ALICE.slice(0, 46)),
    rejectCase('a 49-character miner_hotkey', ['miner_hotkey'], `${ALICE}x`),
    rejectCase('a miner_hotkey outside the base58 alphabet', ['miner_hotkey'], `0${ALICE.slice(1)}`),
    rejectCase('an unknown round_status', ['round_status'], 'archived'),
    rejectCase('a negative runs', ['runs'], -1),
    rejectCase('policy_version missing', ['policy_version'], REMOVE),
  ])('rejects $name', ({ path, value }) => {
    expectRejectedAt(RoundAttestations, withChange(roundAttestations(), path, value), path);
  });
});

describe('emptyRoundAttestations', () => {
  it('echoes a well-formed round id and miner in an empty shell that parses', () => {
    const shell = emptyRoundAttestations({ roundId: ROUND_ID, miner: ALICE, track: 'skills', roundStatus: 'open' });
    expect(shell).toEqual({
      round_id: ROUND_ID,
      track: 'skills',
      round_status: 'open',
      miner_hotkey: ALICE,
      score: 0,
      runs: 0,
      failure_reason: null,
      policy_version: '',
      tasks: [],
    });
    expectAccepted(RoundAttestations, shell);
  });

  it.each([
    ['a 7-character round id', 'abcdef0', ALICE, '', ALICE],
    ['an uppercase round id', ROUND_ID.toUpperCase(), ALICE, '', ALICE],
    ['a 65-character round id', 'a'.repeat(65), ALICE, '', ALICE],
    ['a 46-character miner', ROUND_ID, ALICE.slice(0, 46), ROUND_ID, ''],
    ['a miner with characters outside base58', ROUND_ID, `${ALICE.slice(0, 47)}0`, ROUND_ID, ''],
    ['both malformed', '../../etc', '<script>', '', ''],
  ])('blanks %s and still parses', (_name, roundId, miner, echoedRound, echoedMiner) => {
    const shell = emptyRoundAttestations({ roundId, miner, roundStatus: 'unknown' });
    expect(shell.round_id).toBe(echoedRound);
    expect(shell.miner_hotkey).toBe(echoedMiner);
    expect(shell.track).toBe('');
    expect(shell.round_status).toBe('unknown');
    expect(shell.tasks).toEqual([]);
    expectAccepted(RoundAttestations, shell);
  });
});
