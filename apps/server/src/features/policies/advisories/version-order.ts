import * as pep440 from '@renovatebot/pep440';
import semver from 'semver';
import type { AdvisoryEcosystem } from './package-names.js';

/**
 * How one version string compares with another in a range's ordering: the ecosystem's own for an
 * `ECOSYSTEM` range (npm: node-semver, the parser npm uses; PyPI: PEP 440), SemVer 2.0 for a
 * `SEMVER` range. `parse` answers undefined for a string the ordering cannot place.
 */
export interface VersionOrder<V> {
  parse(text: string): V | undefined;
  compare(a: V, b: V): number;
}

type SemverVersion = semver.SemVer;

/**
 * SemVer 2.0 through node-semver. A version written with fewer than three parts (`1.0`: GHSA writes
 * such bounds for npm) is completed with zeros, as npm reads `1.0` in a range.
 */
const SEMVER_ORDER: VersionOrder<SemverVersion> = {
  parse(text) {
    const trimmed = text.trim();
    const padded = /^\d+$/.test(trimmed) ? `${trimmed}.0.0` : /^\d+\.\d+$/.test(trimmed) ? `${trimmed}.0` : trimmed;
    return semver.parse(padded) ?? undefined;
  },
  compare: (a, b) => semver.compare(a, b),
};

/** PEP 440 through @renovatebot/pep440 (epochs, pre-, post- and dev releases, local versions). */
const PEP440_ORDER: VersionOrder<string> = {
  parse(text) {
    const trimmed = text.trim();
    return pep440.valid(trimmed) === null ? undefined : trimmed;
  },
  compare: (a, b) => pep440.compare(a, b),
};

/** The ordering of a range of `rangeType` for `ecosystem`, or undefined for a range type that has no version order here (`GIT`). */
export function versionOrder(ecosystem: AdvisoryEcosystem, rangeType: string): VersionOrder<unknown> | undefined {
  if (rangeType === 'SEMVER') return SEMVER_ORDER as VersionOrder<unknown>;
  if (rangeType !== 'ECOSYSTEM') return undefined;
  return (ecosystem === 'npm' ? SEMVER_ORDER : PEP440_ORDER) as VersionOrder<unknown>;
}
