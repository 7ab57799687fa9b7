import { describe, expect, it } from 'vitest';
import { SequenceTracker } from './index.js';

const A = 'artifact:sha256:' + 'ab'.repeat(32);
const B = 'round:0123456789abcdef';
const ev = (resource: string, sequence: number) => ({ resource, sequence });

describe('SequenceTracker', () => {
  it('says in order for consecutive sequences and duplicate for a redelivery', () => {
    const t = new SequenceTracker();
    expect(t.observe(ev(A, 1))).toEqual({ status: 'in_order', resource: A, sequence: 1 });
    expect(t.observe(ev(A, 2)).status).toBe('in_order');
    expect(t.observe(ev(A, 2))).toEqual({ status: 'duplicate', resource: A, sequence: 2 });
    expect(t.observe(ev(A, 1)).status).toBe('duplicate');
    expect(t.lastContiguous(A)).toBe(2);
  });

  it('reports a gap with the expected and received sequence, then the late arrivals that fill it', () => {
    const t = new SequenceTracker();
    t.observe(ev(A, 1));
    expect(t.observe(ev(A, 4))).toEqual({ status: 'gap', resource: A, sequence: 4, expected: 2, received: 4, missing: [{ from: 2, to: 3 }] });
    expect(t.missing(A)).toEqual([{ from: 2, to: 3 }]);
    expect(t.observe(ev(A, 4)).status).toBe('duplicate');
    expect(t.observe(ev(A, 3))).toEqual({ status: 'late', resource: A, sequence: 3, missing: [{ from: 2, to: 2 }] });
    expect(t.lastContiguous(A)).toBe(1);
    expect(t.observe(ev(A, 2))).toEqual({ status: 'late', resource: A, sequence: 2, missing: [] });
    expect(t.lastContiguous(A)).toBe(4);
    expect(t.observe(ev(A, 5)).status).toBe('in_order');
  });

  it('keeps reporting what is still missing as further gaps open', () => {
    const t = new SequenceTracker({ strictStart: true });
    t.observe(ev(A, 1));
    t.observe(ev(A, 3));
    expect(t.observe(ev(A, 6))).toEqual({ status: 'gap', resource: A, sequence: 6, expected: 2, received: 6, missing: [{ from: 2, to: 2 }, { from: 4, to: 5 }] });
    expect(t.observe(ev(A, 5))).toEqual({ status: 'late', resource: A, sequence: 5, missing: [{ from: 2, to: 2 }, { from: 4, to: 4 }] });
  });

  it('describes a huge jump by its range, not by listing every number', () => {
    const t = new SequenceTracker({ strictStart: true });
    expect(t.observe(ev(A, 1_000_000_000))).toMatchObject({ status: 'gap', expected: 1, missing: [{ from: 1, to: 999_999_999 }] });
  });

  it('takes the first event of an unknown resource as its baseline unless strictStart', () => {
    expect(new SequenceTracker().observe(ev(A, 57)).status).toBe('in_order');
    expect(new SequenceTracker({ strictStart: true }).observe(ev(A, 57))).toMatchObject({ status: 'gap', expected: 1, received: 57 });
    expect(new SequenceTracker({ strictStart: true }).observe(ev(A, 1)).status).toBe('in_order');
  });

  it('tracks resources independently and resumes from a seeded position', () => {
    const t = new SequenceTracker();
    t.seed(A, 10);
    t.observe(ev(B, 1));
    expect(t.observe(ev(A, 11)).status).toBe('in_order');
    expect(t.observe(ev(A, 10)).status).toBe('duplicate');
    expect(t.observe(ev(B, 3))).toMatchObject({ status: 'gap', expected: 2 });
    expect(t.lastContiguous('artifact:unknown')).toBeUndefined();
    expect(t.missing('artifact:unknown')).toEqual([]);
  });

  it('forgets the least recently seen resource past maxResources', () => {
    const t = new SequenceTracker({ maxResources: 2, strictStart: true });
    t.observe(ev('r:1', 1));
    t.observe(ev('r:2', 1));
    t.observe(ev('r:1', 2));
    t.observe(ev('r:3', 1));
    expect(t.lastContiguous('r:2')).toBeUndefined();
    expect(t.lastContiguous('r:1')).toBe(2);
    expect(t.lastContiguous('r:3')).toBe(1);
  });

  it('refuses an event without a usable resource or sequence', () => {
    const t = new SequenceTracker();
    expect(() => t.observe(ev(A, 0))).toThrow(RangeError);
    expect(() => t.observe({ resource: A, sequence: 1.5 })).toThrow(RangeError);
    expect(() => t.observe({ resource: undefined as unknown as string, sequence: 1 })).toThrow(RangeError);
    expect(() => new SequenceTracker({ maxResources: 0 })).toThrow(/^maxResources:/);
  });
});
