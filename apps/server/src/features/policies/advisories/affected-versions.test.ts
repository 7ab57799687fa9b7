import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fixedVersions, isAffected, storedAffected, type StoredAffected } from './affected-versions.js';
import { OsvRecord } from './osv-record.js';

const FIXTURES = join(import.meta.dirname, '../../../../test/fixtures/osv');

/** The stored entries of a real fixture record for one package. */
function entries(file: string, name: string): StoredAffected[] {
  const record = OsvRecord.parse(JSON.parse(readFileSync(join(FIXTURES, file), 'utf8')));
  return (record.affected ?? []).filter((a) => a.package.name === name).map(storedAffected);
}

function affectedBy(ecosystem: 'npm' | 'pypi', list: readonly StoredAffected[], version: string): boolean {
  return list.some((entry) => isAffected(ecosystem, entry, version));
}

const range = (type: 'ECOSYSTEM' | 'SEMVER', ...events: StoredAffected['ranges'][number]['events']): StoredAffected => ({ ranges: [{ type, events }], versions: [] });

describe('matching npm versions (node-semver order)', () => {
  const lodash = entries('GHSA-35jh-r3h4-6jhm.json', 'lodash');

  it('introduced 0 covers everything below the fix; the fixed version itself is not affected', () => {
    expect(affectedBy('npm', lodash, '0.1.0')).toBe(true);
    expect(affectedBy('npm', lodash, '4.17.20')).toBe(true);
    expect(affectedBy('npm', lodash, '4.17.21')).toBe(false);
    expect(affectedBy('npm', lodash, '4.17.22')).toBe(false);
  });

  it('a prerelease of the fixed version sorts before it, so it is affected', () => {
    expect(affectedBy('npm', lodash, '4.17.21-beta.1')).toBe(true);
    expect(affectedBy('npm', lodash, '4.17.21+build.5')).toBe(false);
  });

  it('two entries of one package (minimist): each branch has its own window, the gap between them is not affected', () => {
    const minimist = entries('GHSA-xvch-5gv4-984h.json', 'minimist');
    expect(affectedBy('npm', minimist, '0.2.3')).toBe(true);
    expect(affectedBy('npm', minimist, '0.2.4')).toBe(false);
    expect(affectedBy('npm', minimist, '0.9.0')).toBe(false);
    // introduced is inclusive
    expect(affectedBy('npm', minimist, '1.0.0')).toBe(true);
    expect(affectedBy('npm', minimist, '1.2.5')).toBe(true);
    expect(affectedBy('npm', minimist, '1.2.6')).toBe(false);
    expect(fixedVersions('npm', minimist)).toEqual(['0.2.4', '1.2.6']);
  });

  it('reads a two-part bound (node-fetch: introduced 1.0) as npm does, 1.0.0', () => {
    const nodeFetch = entries('GHSA-r683-j2x4-v87g.json', 'node-fetch');
    expect(affectedBy('npm', nodeFetch, '2.6.6')).toBe(true);
    expect(affectedBy('npm', nodeFetch, '3.0.0')).toBe(true);
    expect(affectedBy('npm', nodeFetch, '3.1.1')).toBe(false);
    expect(fixedVersions('npm', nodeFetch)).toEqual(['2.6.7', '3.1.1']);
  });

  it('last_affected is inclusive (request 2.88.2 affected, anything after not); a scoped name is its own package', () => {
    const request = entries('GHSA-p8p7-x288-28g6.json', 'request');
    expect(affectedBy('npm', request, '2.88.2')).toBe(true);
    expect(affectedBy('npm', request, '2.88.3-rc.0')).toBe(false);
    expect(affectedBy('npm', request, '2.88.3')).toBe(false);
    expect(fixedVersions('npm', request)).toEqual([]);
    const cypress = entries('GHSA-p8p7-x288-28g6.json', '@cypress/request');
    expect(affectedBy('npm', cypress, '2.88.11')).toBe(true);
    expect(affectedBy('npm', cypress, '2.88.12')).toBe(false);
  });

  it('limit bounds the range from above (exclusive); several limits widen it to the largest', () => {
    const limited = range('SEMVER', { introduced: '1.0.0' }, { limit: '1.5.0' });
    expect(isAffected('npm', limited, '1.4.9')).toBe(true);
    expect(isAffected('npm', limited, '1.5.0')).toBe(false);
    const two = range('SEMVER', { introduced: '1.0.0' }, { limit: '1.5.0' }, { limit: '2.0.0' });
    expect(isAffected('npm', two, '1.9.0')).toBe(true);
    expect(isAffected('npm', two, '2.0.0')).toBe(false);
    expect(isAffected('npm', range('SEMVER', { introduced: '0' }, { limit: '*' }), '99.0.0')).toBe(true);
  });

  it('events are sorted before they are read, and a version listed in versions matches exactly', () => {
    expect(isAffected('npm', range('ECOSYSTEM', { fixed: '2.0.0' }, { introduced: '1.0.0' }), '1.5.0')).toBe(true);
    expect(isAffected('npm', range('ECOSYSTEM', { fixed: '2.0.0' }, { introduced: '1.0.0' }), '0.5.0')).toBe(false);
    const listed: StoredAffected = { ranges: [], versions: ['1.2.3'] };
    expect(isAffected('npm', listed, '1.2.3')).toBe(true);
    expect(isAffected('npm', listed, '1.2.4')).toBe(false);
  });

  it('never reads an unreadable bound as safe: a bad introduced counts as 0, a bad fixed is ignored', () => {
    expect(isAffected('npm', range('ECOSYSTEM', { introduced: 'not-a-version' }, { fixed: '2.0.0' }), '0.0.1')).toBe(true);
    expect(isAffected('npm', range('ECOSYSTEM', { introduced: '1.0.0' }, { fixed: 'garbage' }), '9.0.0')).toBe(true);
  });

  it('a version the ordering cannot read matches listed versions only', () => {
    expect(affectedBy('npm', lodash, 'latest')).toBe(false);
    expect(isAffected('npm', { ranges: [], versions: ['github:lodash/lodash'] }, 'github:lodash/lodash')).toBe(true);
  });
});

describe('matching PyPI versions (PEP 440 order)', () => {
  const django = entries('GHSA-r3xc-prgr-mg9p.json', 'Django');
  const jinja = entries('GHSA-h5c8-rqwp-cp95.json', 'jinja2');

  it('each Django branch: introduced inclusive, fixed exclusive, the gaps between branches unaffected', () => {
    expect(affectedBy('pypi', django, '3.1.14')).toBe(false);
    expect(affectedBy('pypi', django, '3.2')).toBe(true);
    expect(affectedBy('pypi', django, '3.2.0')).toBe(true);
    expect(affectedBy('pypi', django, '3.2.18')).toBe(true);
    expect(affectedBy('pypi', django, '3.2.19')).toBe(false);
    expect(affectedBy('pypi', django, '4.1.8')).toBe(true);
    expect(affectedBy('pypi', django, '4.1.9')).toBe(false);
    expect(affectedBy('pypi', django, '4.2')).toBe(true);
    expect(affectedBy('pypi', django, '4.2.1')).toBe(false);
    expect(fixedVersions('pypi', django)).toEqual(['3.2.19', '4.1.9', '4.2.1']);
  });

  it('pre-, post- and dev releases sort as PEP 440 says', () => {
    expect(affectedBy('pypi', jinja, '3.1.2')).toBe(true);
    expect(affectedBy('pypi', jinja, '3.1.3rc1')).toBe(true);
    expect(affectedBy('pypi', jinja, '3.1.3.dev0')).toBe(true);
    expect(affectedBy('pypi', jinja, '3.1.3')).toBe(false);
    expect(affectedBy('pypi', jinja, '3.1.3.post1')).toBe(false);
    // A prerelease of an introduced version is before it: not yet affected.
    expect(affectedBy('pypi', django, '4.2rc1')).toBe(false);
    expect(affectedBy('pypi', django, '4.2.0')).toBe(true);
  });

  it('PEP 440 equality for listed versions (1.0 is 1.0.0) and last_affected inclusive', () => {
    expect(isAffected('pypi', { ranges: [], versions: ['1.0'] }, '1.0.0')).toBe(true);
    const last = range('ECOSYSTEM', { introduced: '0' }, { last_affected: '2.1' });
    expect(isAffected('pypi', last, '2.1.0')).toBe(true);
    expect(isAffected('pypi', last, '2.1.post1')).toBe(false);
    expect(isAffected('pypi', last, '2.2a1')).toBe(false);
  });
});
