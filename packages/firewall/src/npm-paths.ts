import { normalizePackageRef } from '@vigil/core';

/**
 * What a request to the npm side of the firewall asks for (docs/firewall.md "What is decided"):
 * a packument or a tarball (decided), one of the npm API endpoints that never answer with package
 * bytes (passed through), or anything else (refused: never fetched unchecked).
 */
export type NpmRequest =
  | { kind: 'packument'; name: string }
  | { kind: 'tarball'; name: string; version: string; file: string }
  | { kind: 'api'; path: string }
  | { kind: 'refused'; why: string };

const SEGMENT = /^[A-Za-z0-9._~-]+$/;

/**
 * The npm API endpoints passed to the upstream as they are (docs/firewall.md "Passed through"),
 * as segment patterns after `/-/`: none answers with a package's bytes. `*` is one segment.
 */
const API_PATHS: readonly (readonly string[])[] = [
  ['ping'],
  ['whoami'],
  ['v1', 'search'],
  ['npm', 'v1', 'security', 'advisories', 'bulk'],
  ['npm', 'v1', 'security', 'audits'],
  ['npm', 'v1', 'security', 'audits', 'quick'],
  ['user', '*'],
  ['user', 'token', '*'],
  ['v1', 'login'],
];

/** The patterns of API_PATHS as the docs list them. */
export const PASSED_THROUGH = API_PATHS.map((p) => `/-/${p.map((s) => (s === '*' ? '<…>' : s)).join('/')}`);

/** The package name of `@scope/name` or `name` when it is one npm could hold, else null. */
function packageName(scope: string | null, name: string): string | null {
  if (!SEGMENT.test(name) || name.startsWith('.')) return null;
  if (scope === null) return name;
  if (!scope.startsWith('@') || !SEGMENT.test(scope.slice(1))) return null;
  return `${scope}/${name}`;
}

/**
 * The path's segments, normalised the way a lenient upstream might read it: `%2f` (any case) a
 * `/`, every other escape decoded, empty segments (duplicate or trailing slashes) dropped. Null
 * when an escape is malformed or a segment is `.`/`..` (nothing legitimate sends those).
 */
export function pathSegments(pathname: string): string[] | null {
  let segments: string[];
  try {
    segments = pathname
      .replace(/%2f/gi, '/')
      .split('/')
      .filter((s) => s !== '')
      .map((s) => decodeURIComponent(s));
  } catch {
    return null;
  }
  if (segments.some((s) => s === '.' || s === '..' || s.includes('/') || s.includes('\\'))) return null;
  return segments;
}

/**
 * Reads a request path: `/name` and `/@scope%2fname` (or `/@scope/name`) are packuments,
 * `/name/-/name-1.0.0.tgz` and `/@scope/name/-/name-1.0.0.tgz` tarballs, the paths of API_PATHS
 * pass through; everything else is refused, so no path form reaches an upstream that might serve
 * a tarball for it undecided.
 */
export function readNpmPath(pathname: string): NpmRequest {
  const segments = pathSegments(pathname);
  if (segments === null) return { kind: 'refused', why: 'a path with a malformed escape or a . or .. segment' };
  if (segments.length === 0) return { kind: 'refused', why: 'the registry root' };
  if (segments[0] === '-') {
    const rest = segments.slice(1);
    const known = API_PATHS.some((p) => p.length === rest.length && p.every((s, i) => s === '*' || s === rest[i]));
    if (!known) return { kind: 'refused', why: 'an npm API endpoint the firewall does not pass through' };
    return { kind: 'api', path: `/${segments.map((s) => encodeURIComponent(s).replace(/%3A/g, ':').replace(/%40/g, '@')).join('/')}` };
  }
  const scoped = segments[0]!.startsWith('@');
  const nameParts = scoped ? 2 : 1;
  if (segments.length < nameParts) return { kind: 'refused', why: 'a scope without a package name' };
  const name = packageName(scoped ? segments[0]! : null, segments[nameParts - 1]!);
  if (name === null) return { kind: 'refused', why: 'not a package name npm could hold' };
  // npm has never allowed upper case in a scoped name, and Vigil keeps a name's case in its purl,
  // while scopes route without regard to case: `@Corp/lib` would be fetched from @corp's registry
  // yet decided as another package than `@corp/lib`. Refused, so nothing is judged under a purl
  // other than the one fetched.
  if (scoped && name !== name.toLowerCase()) return { kind: 'refused', why: 'a scoped name with upper case (npm scoped names are lower case)' };
  const rest = segments.slice(nameParts);
  if (rest.length === 0) return { kind: 'packument', name };
  if (rest.length === 2 && rest[0] === '-' && rest[1]!.endsWith('.tgz')) {
    const file = rest[1]!;
    const prefix = `${segments[nameParts - 1]!}-`;
    const version = file.startsWith(prefix) ? file.slice(prefix.length, -'.tgz'.length) : '';
    if (version !== '') return { kind: 'tarball', name, version, file };
  }
  return { kind: 'refused', why: `not ${name}'s packument or one of its tarballs (<name>/-/<name>-<version>.tgz)` };
}

/** The short-form reference Vigil is asked about (docs/package-references.md). */
export function npmReference(name: string, version: string): string {
  return `npm:${name}@${version}`;
}

/**
 * The canonical purl of a reference (`pkg:npm/%40scope/name@1.0.0`), as Vigil would answer it, for a
 * 403 made without Vigil's answer (Vigil unavailable); the reference itself if it cannot be one.
 */
export function canonicalPurl(reference: string): string {
  try {
    return normalizePackageRef(reference);
  } catch {
    return reference;
  }
}

/** The path of a package's packument at a registry: a scope's `/` escaped, as npm sends it. */
export function packumentPath(name: string): string {
  return `/${name.replace('/', '%2f')}`;
}
