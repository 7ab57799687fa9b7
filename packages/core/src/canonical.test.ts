import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { CanonicalJsonError, JsonDepthError, canonicalBytes, canonicalHash, canonicalJson, contentHash, sha256Hex } from './canonical.js';

interface Vectors {
  objects: { name: string; input_json: string; expected: string; expected_key_order?: string[] }[];
  numbers: ({ ieee_hex: string; expected: string } | { ieee_hex: string; error: string })[];
  number_texts: { json: string; expected: string }[];
  strings: { name: string; input_json: string; expected: string }[];
}

const vectors = JSON.parse(readFileSync(new URL('./test-vectors/rfc8785.json', import.meta.url), 'utf8')) as Vectors;

function fromIeeeHex(hex: string): number {
  const view = new DataView(new ArrayBuffer(8));
  view.setBigUint64(0, BigInt(`0x${hex}`));
  return view.getFloat64(0);
}

/** JSON.parse turns -0 into -0 but canonical text writes 0; compare values as JSON sees them. */
function normalizeZero(value: unknown): unknown {
  if (typeof value === 'number') return Object.is(value, -0) ? 0 : value;
  if (Array.isArray(value)) return value.map(normalizeZero);
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, normalizeZero(v)]));
  }
  return value;
}

/** Rebuilds every object with its keys inserted in a seed-determined order. */
function reorderKeys(value: unknown, seed: number): unknown {
  if (Array.isArray(value)) return value.map((item, i) => reorderKeys(item, seed + i));
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value);
    let state = seed >>> 0 || 1;
    for (let i = entries.length - 1; i > 0; i -= 1) {
      state = (Math.imul(state, 1103515245) + 12345) >>> 0;
      const j = state % (i + 1);
      [entries[i], entries[j]] = [entries[j]!, entries[i]!];
    }
    // fromEntries defines own properties, so a "__proto__" key stays a key.
    return Object.fromEntries(entries.map(([k, v]) => [k, reorderKeys(v, seed * 31 + k.length)]));
  }
  return value;
}

const jsonValues = fc.jsonValue({ stringUnit: 'grapheme', maxDepth: 4 });

describe('canonicalJson: RFC 8785 test vectors', () => {
  it.each(vectors.objects)('$name', ({ input_json, expected, expected_key_order }) => {
    const out = canonicalJson(JSON.parse(input_json));
    expect(out).toBe(expected);
    if (expected_key_order) {
      // Read the order back from the text, since JSON.parse would move the integer-like key "1" first.
      const keys = [...out.matchAll(/"((?:[^"\\]|\\.)*)":/g)].map((m) => JSON.parse(`"${m[1]}"`) as string);
      expect(keys).toEqual(expected_key_order);
    }
  });

  it.each(vectors.numbers)('IEEE-754 $ieee_hex', (row) => {
    const value = fromIeeeHex(row.ieee_hex);
    if ('error' in row) {
      expect(() => canonicalJson(value)).toThrow(CanonicalJsonError);
      expect(() => canonicalJson([1, { n: value }])).toThrow('value[1].n: non-finite number');
    } else {
      expect(canonicalJson(value)).toBe(row.expected);
      expect(canonicalJson({ n: [value] })).toBe(`{"n":[${row.expected}]}`);
    }
  });

  it.each(vectors.number_texts)('number text $json is written $expected', ({ json, expected }) => {
    expect(canonicalJson(JSON.parse(json))).toBe(expected);
  });

  it.each(vectors.strings)('string escaping: $name', ({ input_json, expected }) => {
    expect(canonicalJson(JSON.parse(input_json))).toBe(expected);
  });

  it('encodes the canonical text as UTF-8, non-ASCII unescaped', () => {
    expect([...canonicalBytes('\u20ac')]).toEqual([0x22, 0xe2, 0x82, 0xac, 0x22]);
    expect([...canonicalBytes({ '\u00f6': '\ud83d\ude00' })]).toEqual([
      0x7b, 0x22, 0xc3, 0xb6, 0x22, 0x3a, 0x22, 0xf0, 0x9f, 0x98, 0x80, 0x22, 0x7d,
    ]);
  });

  it('keeps a "__proto__" key from parsed JSON as an ordinary key', () => {
    expect(canonicalJson(JSON.parse('{"b":1,"__proto__":{"x":2}}'))).toBe('{"__proto__":{"x":2},"b":1}');
  });
});

describe('canonicalJson: properties', () => {
  it('is independent of key insertion order', () => {
    fc.assert(
      fc.property(jsonValues, fc.integer(), (value, seed) => {
        expect(canonicalJson(reorderKeys(value, seed))).toBe(canonicalJson(value));
      }),
    );
  });

  it('is idempotent', () => {
    fc.assert(
      fc.property(jsonValues, (value) => {
        const once = canonicalJson(value);
        expect(canonicalJson(JSON.parse(once))).toBe(once);
      }),
    );
  });

  it('round-trips JSON values through JSON.parse', () => {
    fc.assert(
      fc.property(jsonValues, (value) => {
        expect(JSON.parse(canonicalJson(value))).toStrictEqual(normalizeZero(value));
      }),
    );
  });

  it('writes no insignificant whitespace and agrees with JSON.stringify on scalars', () => {
    fc.assert(
      fc.property(fc.oneof(fc.double({ noNaN: true, noDefaultInfinity: true }), fc.string({ unit: 'grapheme' }), fc.boolean(), fc.constant(null)), (scalar) => {
        expect(canonicalJson(scalar)).toBe(JSON.stringify(scalar));
      }),
    );
  });
});

describe('canonicalJson: refuses what JSON cannot carry, naming the path', () => {
  class Point {
    constructor(readonly x: number) {}
  }
  const sparse: unknown[] = [1];
  sparse[2] = 3;
  const cyclic: Record<string, unknown> = { a: 1 };
  cyclic.self = { back: cyclic };

  it.each([
    ['NaN', { a: [1, NaN] }, 'value.a[1]: non-finite number'],
    ['Infinity', { a: Infinity }, 'value.a: non-finite number'],
    ['-Infinity', [-Infinity], 'value[0]: non-finite number'],
    ['an undefined member', { a: { b: undefined } }, 'value.a.b: undefined is not JSON'],
    ['an undefined array element', [undefined], 'value[0]: undefined is not JSON'],
    ['undefined itself', undefined, 'value: undefined is not JSON'],
    ['a Date', { when: new Date(0) }, 'value.when: not a plain object (Date)'],
    ['a Map', { m: new Map([['a', 1]]) }, 'value.m: not a plain object (Map)'],
    ['a Set', new Set([1]), 'value: not a plain object (Set)'],
    ['a class instance', { p: new Point(1) }, 'value.p: not a plain object (Point)'],
    ['a BigInt', { n: 10n }, 'value.n: bigint is not JSON'],
    ['a function', { f: () => 1 }, 'value.f: function is not JSON'],
    ['a symbol value', { s: Symbol('s') }, 'value.s: symbol is not JSON'],
    ['a symbol key', { [Symbol('k')]: 1 }, 'value: symbol keys are not JSON'],
    ['a sparse array', { list: sparse }, 'value.list[1]: sparse array hole is not JSON'],
    ['a lone high surrogate', { s: 'a\ud800' }, 'value.s: string contains an unpaired surrogate'],
    ['a lone low surrogate in a key', { 'k\udc00': 1 }, 'value.k\udc00: string contains an unpaired surrogate'],
    ['a circular reference', cyclic, 'value.self.back: circular reference'],
  ])('%s', (_name, input, message) => {
    expect(() => canonicalJson(input)).toThrow(CanonicalJsonError);
    expect(() => canonicalJson(input)).toThrow(message);
  });

  it('accepts the same object twice when it is not its own ancestor', () => {
    const shared = { z: 1 };
    expect(canonicalJson({ b: shared, a: [shared, shared] })).toBe('{"a":[{"z":1},{"z":1}],"b":{"z":1}}');
  });

  it('accepts objects without a prototype', () => {
    const bare = Object.create(null) as Record<string, unknown>;
    bare.b = 2;
    bare.a = 1;
    expect(canonicalJson(bare)).toBe('{"a":1,"b":2}');
  });
});

describe('nesting depth', () => {
  /** `levels` nested containers, objects and arrays in turn, around a number. */
  function nested(levels: number): unknown {
    let value: unknown = 1;
    for (let i = 0; i < levels; i += 1) value = i % 2 === 0 ? [value] : { k: value };
    return value;
  }

  it('canonicalizes a value nested 64 levels', () => {
    expect(canonicalJson(nested(64))).toBe(JSON.stringify(nested(64)));
  });

  it('refuses one level more, and 10,000 levels, with a JsonDepthError naming where, never a stack overflow (probe finding)', () => {
    for (const levels of [65, 10_000, 100_000]) {
      expect(() => canonicalJson(nested(levels))).toThrow(JsonDepthError);
      expect(() => canonicalBytes(nested(levels))).toThrow(CanonicalJsonError);
    }
    expect(() => canonicalJson({ a: nested(64) })).toThrow(/^value\.a(\.k|\[0\])*: nested deeper than 64 levels$/);
  });
});

describe('hashes', () => {
  // Independently computed: printf '%s' '{"a":1}' | sha256sum
  const A1 = '015abd7f5cc57a2dd94b7590f04ad8084273905ee33ec5cebeae62276a97f862';

  it('canonicalHash is sha256:<hex> of the canonical bytes, whatever the input formatting', () => {
    expect(canonicalHash({ a: 1 })).toBe(`sha256:${A1}`);
    expect(canonicalHash(JSON.parse('{ "a" : 1.0 }'))).toBe(`sha256:${A1}`);
  });

  it('contentHash and sha256Hex hash raw bytes and text alike', () => {
    // printf '' | sha256sum
    expect(contentHash(new Uint8Array())).toBe('sha256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
    // printf 'abc' | sha256sum
    expect(sha256Hex('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    expect(sha256Hex(new TextEncoder().encode('{"a":1}'))).toBe(A1);
    expect(contentHash('{"a":1}')).toBe(`sha256:${A1}`);
  });

  it('canonicalHash changes when any value changes', () => {
    fc.assert(
      fc.property(fc.dictionary(fc.string(), fc.integer(), { minKeys: 1 }), (obj) => {
        const [key] = Object.keys(obj);
        const changed = { ...obj, [key!]: obj[key!]! + 1 };
        expect(canonicalHash(changed)).not.toBe(canonicalHash(obj));
      }),
    );
  });
});
