import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { flatten, separatingFields, type Sample } from './separation.js';

/** 12 labeled and 18 live artifacts, two tasks each, in two rounds; `fields(kind, n)` gives each task's fields. */
function samples(fields: (kind: Sample['kind'], n: number) => Record<string, unknown>): Sample[] {
  const out: Sample[] = [];
  for (let n = 0; n < 30; n++) {
    const kind = n % 5 < 2 ? 'labeled' : 'live';
    for (let task = 0; task < 2; task++) out.push({ kind, artifact: `a${n}`, group: `r${n % 2}`, fields: { task: randomUUID(), ...fields(kind, n) } });
  }
  return out;
}

describe('the per-field classifier of benchmark secrecy', () => {
  it('finds nothing where the fields do not depend on the kind: random ids, shared values, interleaved numbers', () => {
    expect(separatingFields(samples((_, n) => ({ verdict: ['ALLOW', 'WARN', 'BLOCK'][n % 3], id: `skill-${n.toString(36)}`, size: 100 + ((n * 7) % 13) })))).toEqual([]);
  });

  it('names a field whose values, presence or type differ by kind', () => {
    expect(separatingFields(samples((kind) => ({ label: kind === 'labeled' ? 'bench' : 'live' })))).toContain('label (values, all rounds)');
    expect(separatingFields(samples((kind, n) => (kind === 'labeled' ? { secret: `s${n}` } : {})))).toContain('secret #type (values, all rounds)');
    expect(separatingFields(samples((kind, n) => ({ hashes: kind === 'labeled' ? [] : [`h${n}`] })).map((s) => ({ ...s, fields: flatten(s.fields, 'intel') })))).toContain(
      'intel.hashes.length (values, all rounds)',
    );
    expect(separatingFields(samples((kind, n) => ({ verdict_at: kind === 'labeled' ? null : `2026-11-${10 + (n % 9)}` })))).toContain('verdict_at #type (values, all rounds)');
  });

  it('names a field whose shape differs by kind, even when every value is new', () => {
    expect(separatingFields(samples((kind, n) => ({ id: kind === 'labeled' ? `b-${n}` : `live-${n}` })))).toContain('id #shape (values, all rounds)');
  });

  it('names an ordering leak: labeled numbered first, or handed out first', () => {
    const numbered = samples((kind, n) => ({ source: `skill-${(kind === 'labeled' ? n : 100 + n).toString(36)}` }));
    expect(separatingFields(numbered)).toEqual(expect.arrayContaining(['source (order, all rounds)', 'source (order, round r0)']));
    const first = samples((kind, n) => ({ position: kind === 'labeled' ? n : 50 + n }));
    expect(separatingFields(first)).toContain('position (order, round r1)');
  });

  it('needs two samples of two artifacts on each side', () => {
    const one = samples(() => ({})).map((s, i) => ({ ...s, kind: i < 2 ? ('labeled' as const) : ('live' as const), fields: { x: i < 2 ? 'a' : 'b' } }));
    expect(separatingFields(one)).toEqual([]);
  });
});
