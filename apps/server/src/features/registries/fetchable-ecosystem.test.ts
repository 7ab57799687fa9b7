import { normalizePackageRef } from '@vigil/core';
import { describe, expect, it } from 'vitest';
import { fetchableEcosystem } from './reference-fetches.js';

// What an outsider found: made-up qualifiers, a subpath or an encoded slash each made a fetch (and a
// trusted claim) of the same release under another spelling.
describe('fetchableEcosystem', () => {
  it.each([
    ['npm:left-pad@1.3.0', 'npm'],
    ['npm:@scope/name@1.0.0', 'npm'],
    ['npm:JSONStream@1.3.5', 'npm'],
    ['pypi:requests@2.31.0', 'pypi'],
    ['pkg:pypi/demo-pkg@1.0.0?file_name=demo_pkg-1.0.0.tar.gz', 'pypi'],
  ])('%s is fetched from %s', (ref, ecosystem) => {
    expect(fetchableEcosystem(normalizePackageRef(ref))).toBe(ecosystem);
  });

  it.each([
    'npm:left-pad',
    'pkg:npm/left-pad@1.3.0?vigil_note=trusted-safe-1',
    'pkg:npm/left-pad@1.3.0#sub/path',
    'pkg:npm/%40sc%2Fok@1.0.0',
    'pkg:npm/left-pad@1.3.0?file_name=x.tgz',
    'pkg:npm/left-pad@1.3.0?checksum=sha256:' + 'a'.repeat(64),
    'pkg:pypi/requests@2.31.0?vigil_note=x',
    'pkg:pypi/requests@2.31.0#sub',
    'pkg:cargo/serde@1.0.0',
    'pkg:github/owner/repo@v1',
  ])('%s is not fetched', (ref) => {
    expect(fetchableEcosystem(normalizePackageRef(ref))).toBeUndefined();
  });
});
