/** What a request to the npm side of the firewall asks for (docs/firewall.md "What is decided"). */
export type NpmRequest =
  | { kind: 'packument'; name: string }
  | { kind: 'tarball'; name: string; version: string; file: string }
  | { kind: 'other' };

const SEGMENT = /^[A-Za-z0-9._~-]+$/;

/** The package name of `@scope/name` or `name` when it is one npm could hold, else null. */
function packageName(scope: string | null, name: string): string | null {
  if (!SEGMENT.test(name) || name.startsWith('.')) return null;
  if (scope === null) return name;
  if (!scope.startsWith('@') || !SEGMENT.test(scope.slice(1))) return null;
  return `${scope}/${name}`;
}

/**
 * Reads a request path: `/name` and `/@scope%2fname` (or `/@scope/name`) are packuments,
 * `/name/-/name-1.0.0.tgz` and `/@scope/name/-/name-1.0.0.tgz` tarballs; everything else (`/-/…`
 * endpoints, `/name/1.0.0`, audits) is passed through unchanged.
 */
export function readNpmPath(pathname: string): NpmRequest {
  let segments: string[];
  try {
    // `%2f` (any case) joins a scope to its name; every other escape is decoded per segment.
    segments = pathname
      .replace(/%2f/gi, '/')
      .split('/')
      .slice(1)
      .map((s) => decodeURIComponent(s));
  } catch {
    return { kind: 'other' };
  }
  if (segments[0] === '-' || segments.some((s) => s === '')) return { kind: 'other' };
  const scoped = segments[0]!.startsWith('@');
  const nameParts = scoped ? 2 : 1;
  if (segments.length < nameParts) return { kind: 'other' };
  const name = packageName(scoped ? segments[0]! : null, segments[nameParts - 1]!);
  if (name === null) return { kind: 'other' };
  const rest = segments.slice(nameParts);
  if (rest.length === 0) return { kind: 'packument', name };
  if (rest.length === 2 && rest[0] === '-' && rest[1]!.endsWith('.tgz')) {
    const file = rest[1]!;
    const prefix = `${segments[nameParts - 1]!}-`;
    if (!file.startsWith(prefix)) return { kind: 'other' };
    const version = file.slice(prefix.length, -'.tgz'.length);
    if (version === '') return { kind: 'other' };
    return { kind: 'tarball', name, version, file };
  }
  return { kind: 'other' };
}

/** The short-form reference Vigil is asked about (docs/package-references.md). */
export function npmReference(name: string, version: string): string {
  return `npm:${name}@${version}`;
}

/** The path of a package's packument at a registry: a scope's `/` escaped, as npm sends it. */
export function packumentPath(name: string): string {
  return `/${name.replace('/', '%2f')}`;
}
