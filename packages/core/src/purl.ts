import { PackageURL } from 'packageurl-js';
import * as z from 'zod';

export class PackageRefError extends Error {
  override name = 'PackageRefError';
}

/**
 * The longest package reference accepted, in characters as sent (JavaScript string length). Real
 * purls are far shorter (npm caps a name at 214 characters); the bound keeps a verify batch of 100
 * references small whatever a client sends.
 */
export const MAX_PACKAGE_REF_LENGTH = 2048;

export interface PackageRef {
  /** Canonical purl string, for example `pkg:npm/%40scope/name@1.0.0`. */
  purl: string;
  type: string;
  namespace: string | null;
  name: string;
  version: string | null;
  /** The purl's qualifiers (`?checksum=…&repository_url=…`), keys lowercased; empty when none. */
  qualifiers: Readonly<Record<string, string>>;
}

/** One entry of the standard `checksum` qualifier. */
export interface PackageRefChecksum {
  algorithm: string;
  /** Lowercase hex. */
  hex: string;
}

const CHECKSUM_RE = /^([a-z0-9-]+):([0-9a-f]+)$/;

/**
 * The entries of a purl's `checksum` qualifier (purl spec: a comma-separated list of
 * `<algorithm>:<hex>`, e.g. `sha256:3b0c…,sha512:9f86…`), in order; empty without one.
 */
export function packageRefChecksums(ref: Pick<PackageRef, 'qualifiers'>): PackageRefChecksum[] {
  const value = ref.qualifiers.checksum;
  if (value === undefined) return [];
  return value.split(',').map((entry) => {
    const m = CHECKSUM_RE.exec(entry);
    if (!m) throw new PackageRefError(`input: the checksum qualifier is a comma-separated list of <algorithm>:<lowercase hex>, got ${JSON.stringify(value)}`);
    return { algorithm: m[1]!, hex: m[2]! };
  });
}

const SHORT_RE = /^([a-z][a-z0-9.+-]*):(?!\/\/)(.+)$/i;

function splitShort(type: string, rest: string): { namespace?: string; name: string; version?: string } {
  // `npm:@scope/name@1.0.0`: the version follows the last `@` that is not the scope's.
  const at = rest.lastIndexOf('@');
  const hasVersion = at > 0;
  const path = hasVersion ? rest.slice(0, at) : rest;
  const version = hasVersion ? rest.slice(at + 1) : undefined;
  const slash = path.lastIndexOf('/');
  const namespace = slash >= 0 ? path.slice(0, slash) : undefined;
  const name = slash >= 0 ? path.slice(slash + 1) : path;
  if (!name) throw new PackageRefError(`input: missing package name in ${JSON.stringify(`${type}:${rest}`)}`);
  // `npm:@scope` or `npm:@scope@1.0.0`: a scope with no package after it.
  if (!namespace && name.startsWith('@')) {
    throw new PackageRefError(`input: missing package name after scope in ${JSON.stringify(`${type}:${rest}`)}`);
  }
  if (hasVersion && !version) throw new PackageRefError(`input: empty version in ${JSON.stringify(`${type}:${rest}`)}`);
  // No registry names packages with whitespace, control characters or backslashes; such input is a typo or a path.
  if (/[\s\\\p{Cc}]/u.test(rest)) {
    throw new PackageRefError(`input: whitespace, control characters and backslashes are not allowed in ${JSON.stringify(`${type}:${rest}`)}`);
  }
  return { ...(namespace ? { namespace } : {}), name, ...(version ? { version } : {}) };
}

const CONTROL_CHARACTER = /\p{Cc}/u;

/**
 * The purl form percent-decodes its parts: `%00` would reach storage as a NUL (which PostgreSQL
 * refuses), `%0A` as a line break. No registry names a package, version, qualifier or subpath with
 * a control character, so a reference carrying one is refused, as the short form's are.
 */
function refuseControlCharacters(purl: PackageURL, input: string): void {
  const parts: [string, string | undefined | null][] = [
    ['namespace', purl.namespace],
    ['name', purl.name],
    ['version', purl.version],
    ['subpath', purl.subpath],
    ...Object.entries(purl.qualifiers ?? {}).flatMap(([key, value]): [string, string][] => [
      ['qualifier key', key],
      [`qualifier ${key}`, value],
    ]),
  ];
  for (const [part, value] of parts) {
    if (typeof value === 'string' && CONTROL_CHARACTER.test(value)) {
      throw new PackageRefError(`input: control characters are not allowed (the ${part} of ${JSON.stringify(input)})`);
    }
  }
}

/**
 * The purl's canonical text: the purl library's, with every colon written as `:`. The purl spec
 * (characters-and-encoding) says the colon is never percent-encoded, whether a separator or not;
 * packageurl-js writes `%3A` in qualifier values, subpaths and names
 * (`?checksum=sha256%3A…`). Nothing else changes: a value's `%` is written `%25`, so `%3A` in
 * the library's output is always an encoded colon, and a comma in a value stays `%2C`. Input in
 * either spelling parses to the same reference.
 */
function canonicalPurlText(purl: PackageURL): string {
  return purl.toString().replaceAll('%3A', ':');
}

/**
 * npm names are case-sensitive: a few legacy packages have capitals (`JSONStream`, `Base64`), and
 * the registry holds other packages under their lowercased names (`jsonstream`, `base64`). The purl
 * spec says so since package-url/purl-spec#872 (2026-05-22: npm namespace and name
 * `case_sensitive`); packageurl-js 2.0.1 still lowercases them. The namespace and name are put back
 * as written, so `npm:JSONStream@1.3.5` is `pkg:npm/JSONStream@1.3.5` and never the other package.
 */
function keepNpmCase(purl: PackageURL, text: string): void {
  let written: { namespace: string | null; name: string };
  if (text.toLowerCase().startsWith('pkg:')) {
    // The same text read as a type without case rules (`generic`) gives the parts as written.
    const generic = PackageURL.fromString(text.replace(/^pkg:(\/*)npm\//i, 'pkg:$1generic/'));
    written = { namespace: generic.namespace ?? null, name: generic.name };
  } else {
    const parts = splitShort('npm', SHORT_RE.exec(text)![2]!);
    written = { namespace: parts.namespace ?? null, name: parts.name };
  }
  // Only letter case may differ from the library's reading; anything else keeps the library's.
  if (written.name.toLowerCase() !== purl.name || (written.namespace ?? '').toLowerCase() !== (purl.namespace ?? '')) return;
  purl.name = written.name;
  if (written.namespace !== null && purl.namespace) purl.namespace = written.namespace;
}

/**
 * Parses a package reference. purl (`pkg:npm/lodash@4.17.21`) is canonical; the short form
 * `npm:lodash@4.17.21` (also `pypi:requests@2.31.0`, `npm:@scope/name@1.0.0`) is accepted and
 * normalized to purl by the purl library's own type rules (pypi names lowercased, and so on), npm
 * names keeping their case (keepNpmCase).
 */
export function parsePackageRef(input: string): PackageRef {
  if (typeof input !== 'string' || input.trim() === '') {
    throw new PackageRefError('input: expected a non-empty package reference');
  }
  if (input.length > MAX_PACKAGE_REF_LENGTH) {
    throw new PackageRefError(`input: a package reference is at most ${MAX_PACKAGE_REF_LENGTH} characters, got ${input.length}`);
  }
  // Refused rather than trimmed: `" npm:a@1"` is a copy-paste slip, and a reference is compared as written.
  if (/\s/u.test(input)) {
    throw new PackageRefError(`input: whitespace is not allowed in a package reference, got ${JSON.stringify(input)}`);
  }
  const text = input;
  let purl: PackageURL;
  try {
    if (text.toLowerCase().startsWith('pkg:')) {
      purl = PackageURL.fromString(text);
    } else {
      const m = SHORT_RE.exec(text);
      if (!m) throw new PackageRefError(`input: expected pkg:<type>/<name>[@version] or <type>:<name>[@version], got ${JSON.stringify(input)}`);
      const type = m[1]!.toLowerCase();
      const parts = splitShort(type, m[2]!);
      purl = new PackageURL(type, parts.namespace, parts.name, parts.version, undefined, undefined);
    }
  } catch (err) {
    if (err instanceof PackageRefError) throw err;
    throw new PackageRefError(`input: ${(err as Error).message}`);
  }
  if (purl.type === 'npm') keepNpmCase(purl, text);
  refuseControlCharacters(purl, input);
  const ref: PackageRef = {
    purl: canonicalPurlText(purl),
    type: purl.type,
    namespace: purl.namespace ?? null,
    name: purl.name,
    version: purl.version ?? null,
    qualifiers: { ...purl.qualifiers },
  };
  // A checksum that is not even well formed names no bytes: refused with the reference.
  packageRefChecksums(ref);
  return ref;
}

export function normalizePackageRef(input: string): string {
  return parsePackageRef(input).purl;
}

/**
 * A package reference field that keeps the text as sent (for an answer that echoes it): accepted
 * exactly when PackageRefString accepts it; normalize it with `parsePackageRef` where it is used.
 */
export const PackageRefText = z.string().superRefine((value, ctx) => {
  try {
    parsePackageRef(value);
  } catch (err) {
    ctx.addIssue({ code: 'custom', message: (err as Error).message });
  }
});

/** A package reference field: accepts purl or the short form, yields the canonical purl. */
export const PackageRefString = z.string().transform((value, ctx) => {
  try {
    return normalizePackageRef(value);
  } catch (err) {
    ctx.addIssue({ code: 'custom', message: (err as Error).message });
    return z.NEVER;
  }
});
