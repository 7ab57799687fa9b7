import { describe, expect, it } from 'vitest';
import { readNpmPath } from './npm-paths.js';
import { filterPackument, type VersionJudgement } from './packument-filter.js';

const dist = (name: string, v: string) => ({ tarball: `https://registry.example/${name}/-/${name.split('/').pop()}-${v}.tgz`, integrity: `sha512-${v}`, shasum: `sha1-${v}` });
const doc = (name: string, versions: string[], tags: Record<string, string>) => ({
  name,
  'dist-tags': { ...tags },
  versions: Object.fromEntries(versions.map((v) => [v, { name, version: v, dist: dist(name, v) }])),
  time: Object.fromEntries(versions.map((v) => [v, '2026-01-01T00:00:00.000Z'])),
});
const hide = (...versions: string[]) => (v: string): VersionJudgement => (versions.includes(v) ? { hide: true, reason: 'verdict BLOCK' } : { hide: false });

describe('filterPackument', () => {
  it('removes hidden versions, rolls latest back, keeps dist but the tarball URL', () => {
    const { doc: out, hidden } = filterPackument(doc('a', ['1.0.0', '1.1.0', '2.0.0-beta.1'], { latest: '1.1.0', next: '2.0.0-beta.1' }), hide('1.1.0'), 'http://fw');
    expect(hidden).toEqual([{ version: '1.1.0', reason: 'verdict BLOCK' }]);
    expect(Object.keys(out.versions)).toEqual(['1.0.0', '2.0.0-beta.1']);
    expect(Object.keys(out.time)).toEqual(['1.0.0', '2.0.0-beta.1']);
    expect(out['dist-tags']).toEqual({ latest: '1.0.0', next: '2.0.0-beta.1' });
    expect(out.versions['1.0.0'].dist).toEqual({ ...dist('a', '1.0.0'), tarball: 'http://fw/a/-/a-1.0.0.tgz' });
  });

  it('latest with nothing older allowed takes the newest release; other tags on hidden versions go; nothing left, no tags', () => {
    expect(filterPackument(doc('b', ['1.0.0', '2.0.0', '3.0.0-rc.1'], { latest: '1.0.0', beta: '3.0.0-rc.1' }), hide('1.0.0', '3.0.0-rc.1'), 'http://fw').doc['dist-tags']).toEqual({ latest: '2.0.0' });
    expect(filterPackument(doc('c', ['1.0.0-rc.1', '1.0.0'], { latest: '1.0.0' }), hide('1.0.0'), 'http://fw').doc['dist-tags']).toEqual({ latest: '1.0.0-rc.1' });
    expect(filterPackument(doc('d', ['1.0.0'], { latest: '1.0.0' }), hide('1.0.0'), 'http://fw').doc['dist-tags']).toEqual({});
  });

  it('scoped names keep their scope in the tarball URL', () => {
    const { doc: out } = filterPackument(doc('@s/e', ['1.0.0'], { latest: '1.0.0' }), hide(), 'http://127.0.0.1:4873');
    expect(out.versions['1.0.0'].dist.tarball).toBe('http://127.0.0.1:4873/@s/e/-/e-1.0.0.tgz');
  });
});

describe('readNpmPath', () => {
  it.each([
    ['/left-pad', { kind: 'packument', name: 'left-pad' }],
    ['/@scope%2fname', { kind: 'packument', name: '@scope/name' }],
    ['/@scope%2Fname', { kind: 'packument', name: '@scope/name' }],
    ['/@scope/name', { kind: 'packument', name: '@scope/name' }],
    ['/left-pad/-/left-pad-1.3.0.tgz', { kind: 'tarball', name: 'left-pad', version: '1.3.0', file: 'left-pad-1.3.0.tgz' }],
    ['/@scope/name/-/name-2.0.0-beta.1.tgz', { kind: 'tarball', name: '@scope/name', version: '2.0.0-beta.1', file: 'name-2.0.0-beta.1.tgz' }],
    ['/@scope%2fname/-/name-1.0.0.tgz', { kind: 'tarball', name: '@scope/name', version: '1.0.0', file: 'name-1.0.0.tgz' }],
    // Every other spelling of a path is read as the upstream might read it (outsider F1: a trailing slash was passed on undecided).
    ['/fw-roll/-/fw-roll-1.1.0.tgz/', { kind: 'tarball', name: 'fw-roll', version: '1.1.0', file: 'fw-roll-1.1.0.tgz' }],
    ['//fw-roll//-//fw-roll-1.1.0.tgz//', { kind: 'tarball', name: 'fw-roll', version: '1.1.0', file: 'fw-roll-1.1.0.tgz' }],
    ['/fw-roll/%2D/fw-roll-1.1.0%2Etgz', { kind: 'tarball', name: 'fw-roll', version: '1.1.0', file: 'fw-roll-1.1.0.tgz' }],
    ['/%66w-roll/-/fw-roll-1.1.0.tgz', { kind: 'tarball', name: 'fw-roll', version: '1.1.0', file: 'fw-roll-1.1.0.tgz' }],
    ['/left-pad/', { kind: 'packument', name: 'left-pad' }],
    ['/-/whoami', { kind: 'api', path: '/-/whoami' }],
    ['/-/ping/', { kind: 'api', path: '/-/ping' }],
    ['/-/v1/search', { kind: 'api', path: '/-/v1/search' }],
    ['/-/npm/v1/security/advisories/bulk', { kind: 'api', path: '/-/npm/v1/security/advisories/bulk' }],
    ['/-/npm/v1/security/audits/quick', { kind: 'api', path: '/-/npm/v1/security/audits/quick' }],
    ['/-/user/org.couchdb.user:ofw', { kind: 'api', path: '/-/user/org.couchdb.user:ofw' }],
    // Unscoped names keep their case (legacy npm names such as `JSONStream`).
    ['/JSONStream/-/JSONStream-1.3.5.tgz', { kind: 'tarball', name: 'JSONStream', version: '1.3.5', file: 'JSONStream-1.3.5.tgz' }],
  ])('%s', (path, expected) => expect(readNpmPath(path)).toEqual(expected));

  it.each([
    '/',
    '/left-pad/1.3.0',
    '/left-pad/-/other-1.0.0.tgz',
    '/fw-roll/-/rev/1/fw-roll-1.1.0.tgz',
    '/left-pad/-/left-pad-.tgz',
    '/left-pad/-/left-pad-1.3.0.tgz/x',
    '/.hidden',
    '/a%zz',
    '/@/x',
    '/a/../b/-/b-1.0.0.tgz',
    '/a/%2e%2e/b',
    '/-/all',
    '/-/package/left-pad/dist-tags',
    '/-/ping/x',
    '/-/user/a/b/c',
  ])('%s is refused, never passed through', (path) => expect(readNpmPath(path)).toMatchObject({ kind: 'refused' }));

  // Outsider M1: scopes route without regard to case but Vigil's purl keeps it, so `@Corp/lib` would be
  // fetched from @corp's registry and decided as a package without @corp/lib's verdict.
  it.each(['/@Corp%2Flib/-/lib-1.0.0.tgz', '/@Corp/lib', '/@corp/Lib/-/Lib-1.0.0.tgz', '/%40CORP%2flib'])('%s (a scoped name with upper case) is refused', (path) =>
    expect(readNpmPath(path)).toEqual({ kind: 'refused', why: 'a scoped name with upper case (npm scoped names are lower case)' }),
  );
});
