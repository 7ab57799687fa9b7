import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { MAX_PACKAGE_REF_LENGTH, PackageRefError, PackageRefString, PackageRefText, normalizePackageRef, packageRefChecksums, parsePackageRef } from './purl.js';

describe('parsePackageRef', () => {
  it.each([
    ['npm short form', 'npm:lodash@4.17.21', { purl: 'pkg:npm/lodash@4.17.21', type: 'npm', namespace: null, name: 'lodash', version: '4.17.21' }],
    ['npm scoped short form', 'npm:@scope/name@1.0.0', { purl: 'pkg:npm/%40scope/name@1.0.0', type: 'npm', namespace: '@scope', name: 'name', version: '1.0.0' }],
    ['purl with a literal @ in the scope', 'pkg:npm/@scope/name@1.0.0', { purl: 'pkg:npm/%40scope/name@1.0.0', type: 'npm', namespace: '@scope', name: 'name', version: '1.0.0' }],
    ['canonical purl', 'pkg:npm/%40scope/name@1.0.0', { purl: 'pkg:npm/%40scope/name@1.0.0', type: 'npm', namespace: '@scope', name: 'name', version: '1.0.0' }],
    ['no version', 'npm:lodash', { purl: 'pkg:npm/lodash', type: 'npm', namespace: null, name: 'lodash', version: null }],
    ['scoped, no version', 'npm:@scope/name', { purl: 'pkg:npm/%40scope/name', type: 'npm', namespace: '@scope', name: 'name', version: null }],
    ['pypi short form, name normalized', 'pypi:Django_REST@3.15.1', { purl: 'pkg:pypi/django-rest@3.15.1', type: 'pypi', namespace: null, name: 'django-rest', version: '3.15.1' }],
    ['pypi purl, name normalized', 'pkg:pypi/Requests@2.31.0', { purl: 'pkg:pypi/requests@2.31.0', type: 'pypi', namespace: null, name: 'requests', version: '2.31.0' }],
    ['uppercase type in the short form', 'NPM:left-pad@1.3.0', { purl: 'pkg:npm/left-pad@1.3.0', type: 'npm', namespace: null, name: 'left-pad', version: '1.3.0' }],
    ['maven with a namespace', 'maven:org.apache.commons/commons-lang3@3.14.0', { purl: 'pkg:maven/org.apache.commons/commons-lang3@3.14.0', type: 'maven', namespace: 'org.apache.commons', name: 'commons-lang3', version: '3.14.0' }],
  ])('reads %s', (_name, input, expected) => {
    expect(parsePackageRef(input)).toEqual({ ...expected, qualifiers: {} });
    expect(normalizePackageRef(input)).toBe(expected.purl);
  });

  it('keeps the case of npm names and scopes (purl-spec#872: npm is case-sensitive), in both forms, and only there', () => {
    for (const [input, purl] of [
      ['npm:JSONStream@1.3.5', 'pkg:npm/JSONStream@1.3.5'],
      ['pkg:npm/JSONStream@1.3.5', 'pkg:npm/JSONStream@1.3.5'],
      ['pkg:NPM/JSONStream@1.3.5', 'pkg:npm/JSONStream@1.3.5'],
      ['npm:jsonstream@1.0.3', 'pkg:npm/jsonstream@1.0.3'],
      ['npm:@Legacy/Base64@1.0.0', 'pkg:npm/%40Legacy/Base64@1.0.0'],
      ['pkg:npm/@Legacy/Base64@1.0.0?checksum=sha256:ab#lib/X', 'pkg:npm/%40Legacy/Base64@1.0.0?checksum=sha256:ab#lib/X'],
      ['pkg:npm/%40Legacy/Base64', 'pkg:npm/%40Legacy/Base64'],
      ['pypi:Django@5.0', 'pkg:pypi/django@5.0'],
    ] as const) {
      expect(normalizePackageRef(input), input).toBe(purl);
      expect(normalizePackageRef(purl), purl).toBe(purl);
    }
    expect(parsePackageRef('npm:@Legacy/Base64@1.0.0')).toMatchObject({ namespace: '@Legacy', name: 'Base64' });
    // Two packages of the registry, two references.
    expect(normalizePackageRef('npm:JSONStream@1.0.3')).not.toBe(normalizePackageRef('npm:jsonstream@1.0.3'));
  });

  it('is idempotent: a canonical purl normalizes to itself', () => {
    const names = fc.string({ unit: fc.constantFrom(...'abcdefghijklmnopqrstuvwxyz0123456789-'.split('')), minLength: 1, maxLength: 20 });
    const versions = fc.tuple(fc.nat(99), fc.nat(99), fc.nat(99)).map(([a, b, c]) => `${a}.${b}.${c}`);
    fc.assert(
      fc.property(fc.option(names, { nil: undefined }), names, fc.option(versions, { nil: undefined }), (scope, name, version) => {
        const short = `npm:${scope ? `@${scope}/` : ''}${name}${version ? `@${version}` : ''}`;
        const purl = normalizePackageRef(short);
        expect(purl).toBe(`pkg:npm/${scope ? `%40${scope}/` : ''}${name}${version ? `@${version}` : ''}`);
        expect(normalizePackageRef(purl)).toBe(purl);
      }),
    );
  });

  it.each([
    ['an empty string', ''],
    ['whitespace', '   '],
    ['a bare name', 'lodash'],
    ['a URL', 'https://registry.npmjs.org/lodash'],
    ['a purl without a type', 'pkg:'],
    ['a purl without a name', 'pkg:npm'],
    ['a short form with an empty version', 'npm:lodash@'],
    ['a scope without a package', 'npm:@scope'],
    ['a scope with a version but no package', 'npm:@scope@1.0.0'],
    ['a short form with no name', 'npm:@1.0.0'],
    ['a short form with a space in the name', 'npm:a b@1'],
    ['a Windows path', 'c:\\path'],
    ['a NUL in a short form name', 'npm:a\u0000b@1'],
    ['a percent-encoded NUL in a purl name', 'pkg:npm/a%00b@1.0.0'],
    ['a percent-encoded NUL in a purl namespace', 'pkg:npm/%40sc%00ope/ab@1.0.0'],
    ['a percent-encoded NUL in a purl version', 'pkg:npm/ab@1.0.0%00'],
    ['a percent-encoded NUL in a qualifier', 'pkg:npm/ab@1.0.0?x=%00'],
    ['a percent-encoded NUL in a subpath', 'pkg:npm/ab@1.0.0#a%00b'],
    ['a percent-encoded line break in a purl name', 'pkg:npm/a%0Ab@1.0.0'],
    ['a leading space', ' npm:lodash@1'],
    ['a trailing line break', 'npm:lodash@1\n'],
    ['a trailing space after a purl', 'pkg:npm/lodash@4.17.21 '],
    ['a tab inside a purl', 'pkg:npm/lo\tdash@4.17.21'],
    ['a no-break space', 'npm:lodash@1\u00a0'],
  ])('rejects %s with a PackageRefError naming the argument', (_name, input) => {
    expect(() => parsePackageRef(input)).toThrow(PackageRefError);
    expect(() => parsePackageRef(input)).toThrow(/^input: /);
  });

  it('rejects a non-string', () => {
    expect(() => parsePackageRef(undefined as unknown as string)).toThrow('input: expected a non-empty package reference');
  });

  it('reads qualifiers and the entries of a checksum qualifier', () => {
    const ref = parsePackageRef('pkg:npm/left-pad@1.3.0?checksum=sha256:ab01,sha512:cd&repository_url=https://r.example');
    expect(ref.purl).toBe('pkg:npm/left-pad@1.3.0?checksum=sha256:ab01%2Csha512:cd&repository_url=https:%2F%2Fr.example');
    expect(ref.qualifiers).toEqual({ checksum: 'sha256:ab01,sha512:cd', repository_url: 'https://r.example' });
    expect(packageRefChecksums(ref)).toEqual([
      { algorithm: 'sha256', hex: 'ab01' },
      { algorithm: 'sha512', hex: 'cd' },
    ]);
    expect(packageRefChecksums(parsePackageRef('npm:left-pad@1.3.0'))).toEqual([]);
  });

  it('writes colons unencoded (purl spec) and reads them in either spelling', () => {
    const plain = parsePackageRef('pkg:npm/left-pad@1.3.0?checksum=sha256:abab');
    expect(plain.purl).toBe('pkg:npm/left-pad@1.3.0?checksum=sha256:abab');
    const encoded = parsePackageRef('pkg:npm/left-pad@1.3.0?checksum=sha256%3Aabab');
    expect(encoded).toEqual(plain);
    expect(parsePackageRef('pkg:npm/left-pad@1.3.0?checksum=sha256%3aabab')).toEqual(plain);
    // A literal `%3A` in a value stays encoded as `%253A`; the canonical text parses to itself.
    const literal = parsePackageRef('pkg:generic/a%3Ab@1:2?note=x%253Ay#sub%3Adir');
    expect(literal.purl).toBe('pkg:generic/a:b@1:2?note=x%253Ay#sub:dir');
    expect(literal.qualifiers).toEqual({ note: 'x%3Ay' });
    expect(parsePackageRef(literal.purl)).toEqual(literal);
  });

  it.each([['sha256'], ['sha256:'], ['sha256:AB'], ['SHA256:ab'], ['sha256:ab,'], ['sha256:xyz']])('rejects the checksum qualifier %s', (checksum) => {
    expect(() => parsePackageRef(`pkg:npm/left-pad@1.3.0?checksum=${checksum}`)).toThrow(
      `input: the checksum qualifier is a comma-separated list of <algorithm>:<lowercase hex>, got ${JSON.stringify(checksum)}`,
    );
  });

  it(`takes a reference of ${MAX_PACKAGE_REF_LENGTH} characters and refuses a longer one without echoing it`, () => {
    const longest = `npm:${'a'.repeat(MAX_PACKAGE_REF_LENGTH - 'npm:@1'.length)}@1`;
    expect(longest).toHaveLength(MAX_PACKAGE_REF_LENGTH);
    expect(parsePackageRef(longest).name).toHaveLength(MAX_PACKAGE_REF_LENGTH - 'npm:@1'.length);
    const tooLong = `npm:${'a'.repeat(MAX_PACKAGE_REF_LENGTH)}@1`;
    expect(() => parsePackageRef(tooLong)).toThrow(`input: a package reference is at most 2048 characters, got ${tooLong.length}`);
  });
});

describe('PackageRefText', () => {
  it('accepts what PackageRefString accepts, keeping the text as sent', () => {
    expect(PackageRefText.parse('npm:@scope/name@1.0.0')).toBe('npm:@scope/name@1.0.0');
    expect(PackageRefText.safeParse('lodash').error?.issues[0]?.message).toBe(PackageRefString.safeParse('lodash').error?.issues[0]?.message);
    expect(PackageRefText.safeParse(42).success).toBe(false);
  });
});

describe('PackageRefString', () => {
  it('transforms the short form to the canonical purl', () => {
    expect(PackageRefString.parse('npm:lodash@4.17.21')).toBe('pkg:npm/lodash@4.17.21');
    expect(PackageRefString.parse('pkg:npm/@scope/name@1.0.0')).toBe('pkg:npm/%40scope/name@1.0.0');
  });

  it('reports a bad reference as an issue carrying the parser message', () => {
    const result = PackageRefString.safeParse('lodash');
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.message).toMatch(/^input: expected pkg:<type>\/<name>\[@version\] or <type>:<name>\[@version\]/);
  });

  it('rejects a non-string', () => {
    expect(PackageRefString.safeParse(42).success).toBe(false);
  });
});
