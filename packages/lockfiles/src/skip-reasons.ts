/**
 * Why an entry of a lockfile is not read as a registry package. The strings are part of the
 * contract (docs/lockfiles.md lists them): clients match on them, so they never change wording.
 */
export const SKIP_REASONS = {
  workspace: 'workspace package: part of this repository, not a registry package',
  localPath: 'local path dependency: not a registry package',
  git: 'git dependency: not a registry package',
  url: 'URL dependency: not a registry package',
  bundled: 'bundled dependency: shipped inside its parent package, not fetched from the registry',
  patch: 'patched package: a local patch of a registry package, not the registry package itself',
  otherProtocol: 'dependency protocol not read: not a registry package',
  unpinned: 'unpinned requirement: no exact == version',
  include: 'include of another requirements file (-r/-c): not read; send that file as its own lockfile',
  editable: 'editable requirement (-e): not a registry package',
} as const;

export type SkipReason = (typeof SKIP_REASONS)[keyof typeof SKIP_REASONS];
