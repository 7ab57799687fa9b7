import { normalizePackageRef } from '@vigil/core';
import { describe, expect, it } from 'vitest';
import { npmPurl } from './npm-registry.js';

describe('npmPurl', () => {
  it('writes the canonical purl @vigil/core writes, scoped names and build metadata included', () => {
    expect(npmPurl('@scope/name', '1.2.3')).toBe('pkg:npm/%40scope/name@1.2.3');
    expect(npmPurl('x', '1.0.0+build.5')).toBe('pkg:npm/x@1.0.0+build.5');
    for (const [name, version] of [['@a/b', '1.0.0-rc.1'], ['left-pad', '1.3.0+x']] as const) {
      expect(normalizePackageRef(npmPurl(name, version))).toBe(npmPurl(name, version));
    }
  });
});
