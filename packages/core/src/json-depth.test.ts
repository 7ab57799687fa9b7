import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { jsonTextDepthExceeds, MAX_JSON_DEPTH } from './json-depth.js';

/** Levels of nesting of a parsed value, counted the way the limit counts them: `{}` and `[]` are 1. */
function depthOf(value: unknown): number {
  if (typeof value !== 'object' || value === null) return 0;
  return 1 + Math.max(0, ...Object.values(value).map(depthOf));
}

describe('jsonTextDepthExceeds', () => {
  it('the limit is 64 levels', () => {
    expect(MAX_JSON_DEPTH).toBe(64);
  });

  it('counts objects and arrays alike, up to the limit and one past it', () => {
    const arrays = (levels: number) => `${'['.repeat(levels)}${']'.repeat(levels)}`;
    const objects = (levels: number) => `${'{"k":'.repeat(levels)}null${'}'.repeat(levels)}`;
    for (const text of [arrays(64), objects(64), `{"a":[${objects(62)}]}`, '1', '"x"', '[]', '{}']) expect(jsonTextDepthExceeds(text), text.slice(0, 20)).toBe(false);
    for (const text of [arrays(65), objects(65), `{"a":[${objects(63)}]}`]) expect(jsonTextDepthExceeds(text)).toBe(true);
    expect(jsonTextDepthExceeds(arrays(3), 2)).toBe(true);
    expect(jsonTextDepthExceeds(arrays(2), 2)).toBe(false);
  });

  it('scans a million levels without recursing', () => {
    expect(jsonTextDepthExceeds(`${'['.repeat(1_000_000)}${']'.repeat(1_000_000)}`)).toBe(true);
  });

  it('ignores brackets inside strings, escaped quotes and backslashes included', () => {
    const text = JSON.stringify({ a: `\\"${'['.repeat(100)}`, b: `${'{'.repeat(100)}\\`, c: '"]]]]' });
    expect(jsonTextDepthExceeds(text)).toBe(false);
    expect(jsonTextDepthExceeds(`["\\\\", ${'['.repeat(64)}${']'.repeat(64)}]`)).toBe(true);
  });

  it('agrees with the depth of the parsed value for any JSON', () => {
    fc.assert(
      fc.property(fc.json({ depthSize: 'large' }), fc.integer({ min: 0, max: 12 }), (text, max) => {
        expect(jsonTextDepthExceeds(text, max)).toBe(depthOf(JSON.parse(text)) > max);
      }),
    );
  });
});
