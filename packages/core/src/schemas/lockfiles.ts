import * as z from 'zod';

/**
 * What Vigil reads out of a repository's lockfiles (docs/lockfiles.md): per file, the registry
 * packages it installs, whether each is a direct or a development dependency, and every entry it
 * did not read as a registry package, with the reason.
 */

/** The lockfile formats Vigil reads, named after the file (and, for `yarn.lock`, the Yarn line). */
export const LOCKFILE_FORMATS = [
  'package-lock',
  'npm-shrinkwrap',
  'pnpm-lock',
  'yarn-classic',
  'yarn-berry',
  'bun-lock',
  'requirements-txt',
  'poetry-lock',
  'pipfile-lock',
  'uv-lock',
] as const;
export const LockfileFormat = z.enum(LOCKFILE_FORMATS);
export type LockfileFormat = z.infer<typeof LockfileFormat>;

/** A lockfile longer than this many bytes (UTF-8) is refused, not read. */
export const MAX_LOCKFILE_BYTES = 32 * 1024 * 1024;
/** A lockfile naming more than this many entries (packages and skipped entries together) is refused. */
export const MAX_LOCKFILE_ENTRIES = 20_000;

export const LOCKFILE_ECOSYSTEMS = ['npm', 'pypi'] as const;
export const LockfileEcosystem = z.enum(LOCKFILE_ECOSYSTEMS);
export type LockfileEcosystem = z.infer<typeof LockfileEcosystem>;

/** A registry package a lockfile installs, once per purl. */
export const LockfileDependency = z.object({
  ecosystem: LockfileEcosystem,
  /** The registry name: an npm alias (`my-ms` → `npm:ms@…`) gives the real package's; PyPI names are normalized (PEP 503). */
  name: z.string(),
  version: z.string(),
  /** Canonical purl without qualifiers, e.g. `pkg:npm/%40types/ms@0.7.34`. */
  purl: z.string(),
  /** A manifest (the root or a workspace member) names it; null when the format does not record it. */
  direct: z.boolean().nullable(),
  /** Installed only for development (reached from development dependencies alone); null when the format does not record it. */
  dev: z.boolean().nullable(),
});
export type LockfileDependency = z.infer<typeof LockfileDependency>;

/** An entry of the lockfile that is not read as a registry package, and why. */
export const LockfileSkip = z.object({
  /** The package name as the lockfile gives it; null when the entry names none (a `-r` include, a bare URL). */
  name: z.string().nullable(),
  /** The 1-based line the entry starts on, when the reader knows it. */
  line: z.number().int().positive().nullable(),
  reason: z.string(),
});
export type LockfileSkip = z.infer<typeof LockfileSkip>;

export const ParsedLockfile = z.object({
  /** The path the file was given as, e.g. `packages/web/pnpm-lock.yaml`. */
  path: z.string(),
  format: LockfileFormat,
  /** The version the file declares (`lockfileVersion`, `__metadata.version`, `lock-version`, …); null when the format has none. */
  format_version: z.string().nullable(),
  packages: z.array(LockfileDependency),
  /** How many of `packages` are direct (`direct: true`). */
  direct_count: z.number().int().nonnegative(),
  /** How many of `packages` are development-only (`dev: true`). */
  dev_count: z.number().int().nonnegative(),
  skipped: z.array(LockfileSkip),
});
export type ParsedLockfile = z.infer<typeof ParsedLockfile>;
