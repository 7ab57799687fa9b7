import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { TRACKS } from './enums.js';
import {
  BundleHash,
  BundleHashError,
  Ed25519PublicKeyHex,
  Ed25519SignatureHex,
  Hotkey,
  RoundId,
  SHA256_HASH_RE,
  Sha256Hash,
  formatBundleHash,
  parseBundleHash,
  type BundleRef,
} from './ids.js';

const ALICE = '5GrwvaEF5zXb26Fz9rcQpDWS57CtERHpNehXCPcNoHGKutQY';

const labelChar = fc.constantFrom(...'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-'.split(''));
const sourceChar = fc.constantFrom(...'abcdefghijklmnopqrstuvwxyz0123456789._-/@:%+'.split(''));
const bundleRefs: fc.Arbitrary<BundleRef> = fc.record({
  track: fc.constantFrom(...TRACKS),
  label: fc.string({ unit: labelChar, minLength: 1, maxLength: 40 }),
  sourceId: fc.string({ unit: sourceChar, minLength: 1, maxLength: 80 }),
});

describe('bundle_hash', () => {
  it('formats and parses back to the same reference', () => {
    fc.assert(
      fc.property(bundleRefs, (ref) => {
        const text = formatBundleHash(ref);
        expect(parseBundleHash(text)).toEqual(ref);
        expect(formatBundleHash(parseBundleHash(text))).toBe(text);
        expect(BundleHash.safeParse(text).success).toBe(true);
      }),
    );
  });

  it('splits on the first two slashes: the source id may hold more', () => {
    expect(parseBundleHash('packages/npm-scoped/npm/@scope/name')).toEqual({
      track: 'packages',
      label: 'npm-scoped',
      sourceId: 'npm/@scope/name',
    });
    expect(parseBundleHash('repositories/widgets/github.com/example/widgets')).toEqual({
      track: 'repositories',
      label: 'widgets',
      sourceId: 'github.com/example/widgets',
    });
  });

  it.each([
    ['no slash', 'packages', /^value: expected \{track\}\/\{label\}\/\{source_id\}/],
    ['one slash', 'packages/lodash', /^value: expected/],
    ['an unknown track', 'images/alpine/library/alpine', /^value: unknown track "images"/],
    ['an uppercase track', 'Skills/x/y', /^value: unknown track/],
    ['an empty label', 'skills//source', /^value: invalid label/],
    ['a label with a space', 'skills/my label/source', /^value: invalid label/],
    ['an empty source id', 'skills/label/', /^value: invalid source id/],
    ['whitespace in the source id', 'skills/label/a b', /^value: invalid source id/],
    ['a sha256 content hash', 'sha256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855', /^value: expected/],
  ])('parse rejects %s', (_name, text, message) => {
    expect(() => parseBundleHash(text)).toThrow(BundleHashError);
    expect(() => parseBundleHash(text)).toThrow(message);
    expect(BundleHash.safeParse(text).success).toBe(false);
  });

  it('parse rejects a non-string', () => {
    expect(() => parseBundleHash(42 as unknown as string)).toThrow('value: expected a string');
  });

  it.each([
    ['an unknown track', { track: 'images', label: 'a', sourceId: 'b' }, /^ref\.track: /],
    ['a label with a slash', { track: 'skills', label: 'a/b', sourceId: 'c' }, /^ref\.label: /],
    ['an empty source id', { track: 'skills', label: 'a', sourceId: '' }, /^ref\.sourceId: /],
  ])('format rejects %s, naming the field', (_name, ref, message) => {
    expect(() => formatBundleHash(ref as BundleRef)).toThrow(BundleHashError);
    expect(() => formatBundleHash(ref as BundleRef)).toThrow(message);
  });
});

describe('Sha256Hash', () => {
  it('accepts sha256: followed by 64 lowercase hex characters', () => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 32, maxLength: 32 }), (bytes) => {
        const text = `sha256:${Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('')}`;
        expect(Sha256Hash.safeParse(text).success).toBe(true);
        expect(SHA256_HASH_RE.test(text)).toBe(true);
      }),
    );
  });

  it.each([
    'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855',
    'sha256:E3B0C44298FC1C149AFBF4C8996FB92427AE41E4649B934CA495991B7852B855',
    'sha256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b85',
    'sha256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b8555',
    'sha256=e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855',
    'SHA256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855',
    'sha256:g3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855',
  ])('rejects %j', (text) => {
    expect(Sha256Hash.safeParse(text).success).toBe(false);
  });
});

describe('RoundId', () => {
  it('accepts 8 to 64 lowercase hex characters', () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom(...'0123456789abcdef'.split('')), minLength: 8, maxLength: 64 }), (id) => {
        expect(RoundId.safeParse(id).success).toBe(true);
      }),
    );
  });

  it.each([
    ['7 characters', 'abcdef0'],
    ['65 characters', 'a'.repeat(65)],
    ['uppercase', 'ABCDEF01'],
    ['mixed case', 'abcdeF01'],
    ['non-hex', 'abcdefgh'],
    ['a uuid with dashes', '3f9a1c0e-7b2d-4a58-9c1e-2b7d4a583f9a'],
    ['empty', ''],
  ])('rejects %s', (_name, id) => {
    expect(RoundId.safeParse(id).success).toBe(false);
  });
});

describe('Hotkey', () => {
  it("accepts Alice's well-known address (48 characters)", () => {
    expect(Hotkey.safeParse(ALICE).success).toBe(true);
  });

  it('accepts 47 characters of the base58 alphabet (the checksum is @vigil/crypto’s concern)', () => {
    expect(Hotkey.safeParse(ALICE.slice(0, 47)).success).toBe(true);
  });

  it.each([
    ['46 characters', ALICE.slice(0, 46)],
    ['49 characters', `${ALICE}A`],
    ['a 0 (outside base58)', `0${ALICE.slice(1)}`],
    ['an O (outside base58)', `O${ALICE.slice(1)}`],
    ['an I (outside base58)', `I${ALICE.slice(1)}`],
    ['an l (outside base58)', `l${ALICE.slice(1)}`],
    ['a hex public key', 'd43593c715fdd31c61141abd04a99fd6822c8558854ccde39a5684e7a56da27d'],
    ['whitespace', ` ${ALICE.slice(1)}`],
  ])('rejects %s', (_name, value) => {
    expect(Hotkey.safeParse(value).success).toBe(false);
  });
});

describe('ed25519 hex', () => {
  it.each([
    ['a public key of 64 lowercase hex', Ed25519PublicKeyHex, 'a'.repeat(64), true],
    ['a public key of 63 hex', Ed25519PublicKeyHex, 'a'.repeat(63), false],
    ['a public key in uppercase', Ed25519PublicKeyHex, 'A'.repeat(64), false],
    ['a signature of 128 lowercase hex', Ed25519SignatureHex, '0f'.repeat(64), true],
    ['a signature of 126 hex', Ed25519SignatureHex, '0f'.repeat(63), false],
    ['a signature with a 0x prefix', Ed25519SignatureHex, `0x${'0f'.repeat(63)}`, false],
  ] as const)('%s: accepted=%s', (_name, schema, value, ok) => {
    expect(schema.safeParse(value).success).toBe(ok);
  });
});
