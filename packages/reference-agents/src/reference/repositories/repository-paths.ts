/**
 * Directories of a checkout that hold other projects' files (installed dependencies, virtual
 * environments, caches), not the repository's own: a package's package-lock.json inside
 * node_modules, or a token in a cached file, says nothing of this repository. The same set as
 * `vigil verify-repo` skips when it collects lockfiles.
 */
const SKIPPED_DIRECTORIES = new Set([
  'node_modules',
  '.git',
  '.hg',
  '.svn',
  '.venv',
  'venv',
  '__pycache__',
  '.tox',
  '.nox',
  '.yarn',
  '.pnpm-store',
  'bower_components',
  'site-packages',
  '.mypy_cache',
  '.pytest_cache',
]);

/** True for a directory (`/`-separated relative path) the analysis does not descend into. */
export function isSkippedRepositoryDirectory(path: string): boolean {
  const base = path.slice(path.lastIndexOf('/') + 1);
  // Of `.yarn`, only `.yarn/releases` is entered: the committed Yarn release is the program every
  // `yarn` command runs (read for code hidden in it, isYarnReleasePath); cache and unplugged
  // packages are other projects' files.
  if (base === '.yarn') return false;
  if (/(?:^|\/)\.yarn\/[^/]+$/.test(path)) return base !== 'releases' && base !== 'plugins';
  return SKIPPED_DIRECTORIES.has(base);
}

/** A file of a committed Yarn plugin directory (`.yarn/plugins/@yarnpkg/plugin-x.cjs`): read like a release, and as code when `.yarnrc.yml` loads it. */
export function isYarnPluginPath(path: string): boolean {
  return /(?:^|\/)\.yarn\/plugins\//.test(path);
}

/** A file of a committed Yarn release directory (`.yarn/releases/yarn-4.1.0.cjs`). */
export function isYarnReleasePath(path: string): boolean {
  return /(?:^|\/)\.yarn\/releases\/[^/]+$/.test(path);
}

// Path segments of test data and documentation: credentials there are fixtures or examples far more
// often than leaks, so a match there is reported at LOW (shown, never a WARN by itself).
const EXAMPLE_SEGMENT = /^(tests?|__tests__|spec|specs|fixtures?|__fixtures__|testdata|test-data|examples?|samples?|mocks?|__mocks__|docs?)$/i;

/** True for files of tests, fixtures, examples and docs. */
export function isExamplePath(path: string): boolean {
  const segments = path.split('/');
  if (segments.slice(0, -1).some((s) => EXAMPLE_SEGMENT.test(s))) return true;
  const base = segments[segments.length - 1] ?? '';
  return /(\.|_|-)(test|spec|example|sample|fixture)s?\.[a-z]+$/i.test(base) || /^(test|example|sample)[._-]/i.test(base);
}

/** A GitHub Actions workflow file (`.github/workflows/*.yml|yaml`, at any depth of a monorepo). */
export function isWorkflowPath(path: string): boolean {
  return /(^|\/)\.github\/workflows\/[^/]+\.ya?ml$/i.test(path);
}
