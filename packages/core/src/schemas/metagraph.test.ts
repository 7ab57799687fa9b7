import { describe, expect, it } from 'vitest';
import { MetagraphSnapshot } from './metagraph.js';
import { metagraphSnapshot } from '../test-support/fixtures.js';
import { REMOVE, expectAccepted, expectRejectedAt, rejectCase, withChange } from '../test-support/schema-cases.js';

describe('MetagraphSnapshot', () => {
  it('accepts the snapshot file format and keeps extra fields', () => {
    const withExtras = { ...metagraphSnapshot(), network: 'finney', neurons: [{ ...metagraphSnapshot().neurons[0], stake: 1200.5 }] };
    expect(expectAccepted(MetagraphSnapshot, withExtras)).toEqual(withExtras);
  });

  it('accepts taken_at in either timestamp family', () => {
    expectAccepted(MetagraphSnapshot, withChange(metagraphSnapshot(), ['taken_at'], '2026-11-21T10:00:00'));
    expectAccepted(MetagraphSnapshot, withChange(metagraphSnapshot(), ['taken_at'], '2026-11-21T10:00:00Z'));
  });

  it.each([
    rejectCase('a negative netuid', ['netuid'], -1),
    rejectCase('a fractional block', ['block'], 10.5),
    rejectCase('taken_at that is not a date', ['taken_at'], 'now'),
    rejectCase('a neuron without validator_permit', ['neurons', 0, 'validator_permit'], REMOVE),
    rejectCase('validator_permit as a number', ['neurons', 1, 'validator_permit'], 1),
    rejectCase('an empty hotkey', ['neurons', 0, 'hotkey'], ''),
    rejectCase('neurons missing', ['neurons'], REMOVE),
  ])('rejects $name', ({ path, value }) => {
    expectRejectedAt(MetagraphSnapshot, withChange(metagraphSnapshot(), path, value), path);
  });
});
