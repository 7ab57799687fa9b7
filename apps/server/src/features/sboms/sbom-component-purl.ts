import { LOCKFILE_ECOSYSTEMS, PackageRefError, parsePackageRef, type SbomUnverifiedComponent } from '@vigil/core';

export interface PurlCoordinates {
  ecosystem: string;
  /** As the ecosystem writes it (`@scope/name` for a scoped npm package). */
  name: string;
  version: string;
  /** Canonical, without qualifiers or subpath: the purl a lockfile of the same package yields. */
  purl: string;
}

export type PurlClassification = { verified: PurlCoordinates } | { unverified: Pick<SbomUnverifiedComponent, 'reason' | 'detail'> };

const VERIFIED_TYPES: readonly string[] = LOCKFILE_ECOSYSTEMS;

/**
 * What Vigil verifies of a component's purl: an npm or PyPI package at a version, exactly the
 * packages a lockfile yields. Qualifiers (`?vcs_url=…`, `?download_url=…`, which generators add)
 * and subpaths are dropped: they say where the bytes came from, not which package it is, and the
 * verdict is the package's. The purl is rebuilt from the short form so that an SBOM and a lockfile
 * name the same package with the same text (npm names keep their case, PyPI names are normalised).
 */
export function classifyPurl(text: string): PurlClassification {
  if (!text.toLowerCase().startsWith('pkg:')) {
    return { unverified: { reason: 'invalid_purl', detail: `purl: expected pkg:<type>/<name>@<version>, got ${JSON.stringify(text.slice(0, 200))}` } };
  }
  let ref;
  try {
    ref = parsePackageRef(text);
  } catch (error) {
    if (!(error instanceof PackageRefError)) throw error;
    return { unverified: { reason: 'invalid_purl', detail: error.message.replace(/^input: /, 'purl: ') } };
  }
  if (!VERIFIED_TYPES.includes(ref.type)) {
    return { unverified: { reason: 'unsupported_type', detail: `purl type ${ref.type} is not verified (Vigil verifies ${VERIFIED_TYPES.join(' and ')})` } };
  }
  if (ref.version === null || ref.version === '') {
    return { unverified: { reason: 'no_version', detail: 'purl has no version: Vigil verifies a package at a pinned version' } };
  }
  let name = ref.namespace ? `${ref.namespace}/${ref.name}` : ref.name;
  if (ref.type === 'npm' && !isNpmName(name)) {
    return { unverified: { reason: 'invalid_purl', detail: `purl: ${JSON.stringify(name.slice(0, 200))} is not an npm package name (${NPM_NAME_RULE})` } };
  }
  // PEP 503: runs of -, _ and . are one -, so `Django_REST.framework` is the project the registry serves as `django-rest-framework`.
  if (ref.type === 'pypi') name = pep503(name);
  try {
    const canonical = parsePackageRef(`${ref.type}:${name}@${ref.version}`);
    return { verified: { ecosystem: ref.type, name, version: ref.version, purl: canonical.purl } };
  } catch (error) {
    if (!(error instanceof PackageRefError)) throw error;
    return { unverified: { reason: 'invalid_purl', detail: error.message.replace(/^input: /, 'purl: ') } };
  }
}

/** What npm accepts as a package name (validate-npm-package-name), with the case of old packages kept. */
export const NPM_NAME_RULE = 'at most 214 characters of letters, digits, -, ., _ and ~, not starting with . or _, optionally after one @scope/';
const NPM_NAME = /^(?:@[A-Za-z0-9~-][A-Za-z0-9._~-]*\/)?[A-Za-z0-9~-][A-Za-z0-9._~-]*$/;

function isNpmName(name: string): boolean {
  return name.length <= 214 && NPM_NAME.test(name);
}

/** A PyPI project name normalised as PEP 503 says: lower case, each run of -, _ and . one -. */
export function pep503(name: string): string {
  return name.toLowerCase().replace(/[-_.]+/g, '-');
}
