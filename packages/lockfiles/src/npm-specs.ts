import { SKIP_REASONS, type SkipReason } from './skip-reasons.js';

/**
 * What an npm-ecosystem dependency spec or resolution points at. Registry packages are read;
 * everything else is skipped with its reason. Shared by the npm, pnpm, Yarn and bun readers so that
 * the same spec is treated the same way whichever tool wrote the file.
 */
export type NpmSource =
  | { kind: 'registry'; name: string; version: string }
  | { kind: 'skip'; reason: SkipReason };

const GIT_RE = /^(git\+[a-z]+:|git:|git@|github:|gitlab:|bitbucket:|gist:)|^https?:\/\/codeload\.github\.com\/|\.git(#.*)?$/i;
/** `user/repo` and `user/repo#ref`: npm's GitHub shorthand. */
const GITHUB_SHORTHAND_RE = /^[A-Za-z0-9][\w.-]*\/[\w.-]+(#.*)?$/;
/** The public registry's tarball of a package: `…/<name>/-/<unscoped name>-<version>.tgz`. */
const PUBLIC_TARBALL_RE = /^https:\/\/registry\.(?:npmjs\.org|yarnpkg\.com)\/((?:@[^/]+(?:\/|%2[fF]))?[^/@]+)\/-\/([^/]+)\.tgz$/;

/**
 * A tarball URL that is the public npm registry's own file for a name and version is that registry
 * package (pnpm records such a URL dependency as the registry package too); any other URL is not,
 * since its bytes may differ from what the registry serves under that name.
 */
export function publicRegistryTarball(url: string): { name: string; version: string } | null {
  const match = PUBLIC_TARBALL_RE.exec(url.replace(/[#?].*$/, ''));
  if (!match) return null;
  const name = decodeURIComponent(match[1]!);
  const unscoped = name.slice(name.lastIndexOf('/') + 1);
  const file = match[2]!;
  if (!file.startsWith(`${unscoped}-`)) return null;
  const version = file.slice(unscoped.length + 1);
  return /^\d+\.\d+\.\d+/.test(version) ? { name, version } : null;
}

/** The kind of a non-registry spec or resolution (`file:…`, `git+https://…`, a URL, …); null for a registry version or range. */
export function nonRegistryReason(spec: string): SkipReason | null {
  if (spec.startsWith('workspace:')) return SKIP_REASONS.workspace;
  if (/^(file|link|portal):/.test(spec) || spec.startsWith('./') || spec.startsWith('../') || spec.startsWith('/') || spec.startsWith('~/')) {
    return SKIP_REASONS.localPath;
  }
  if (spec.startsWith('patch:')) return SKIP_REASONS.patch;
  if (GIT_RE.test(spec) || GITHUB_SHORTHAND_RE.test(spec)) return SKIP_REASONS.git;
  if (/^https?:\/\//i.test(spec)) return SKIP_REASONS.url;
  if (/^[a-z][a-z0-9+.-]*:/i.test(spec) && !spec.startsWith('npm:')) return SKIP_REASONS.otherProtocol;
  return null;
}

/**
 * Resolves what a package installed under `name` with this exact version or resolution is:
 * `npm:real@1.2.3` is the aliased package, a public-registry tarball URL its registry package,
 * anything else non-registry is skipped.
 */
export function npmSource(name: string, versionOrSpec: string): NpmSource {
  if (versionOrSpec.startsWith('npm:')) {
    const target = versionOrSpec.slice(4);
    const at = target.lastIndexOf('@');
    if (at > 0) return { kind: 'registry', name: target.slice(0, at), version: target.slice(at + 1) };
    return { kind: 'skip', reason: SKIP_REASONS.otherProtocol };
  }
  if (/^https?:\/\//i.test(versionOrSpec)) {
    const tarball = publicRegistryTarball(versionOrSpec);
    if (tarball) return { kind: 'registry', ...tarball };
  }
  const reason = nonRegistryReason(versionOrSpec);
  if (reason) return { kind: 'skip', reason };
  return { kind: 'registry', name, version: versionOrSpec };
}

/** Splits `name@rest` where the name may be scoped (`@scope/name@rest`); null when there is no `@` after the name. */
export function splitNameAt(text: string): { name: string; rest: string } | null {
  const at = text.indexOf('@', text.startsWith('@') ? 1 : 0);
  if (at <= 0) return null;
  return { name: text.slice(0, at), rest: text.slice(at + 1) };
}
