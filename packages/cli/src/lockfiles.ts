import { readdir, readFile, stat } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import { CliError } from './exit-codes.js';

/** At most this many lockfiles per `POST /v1/repositories/verify` (docs/repositories.md, "Limits"). */
export const MAX_LOCKFILES_PER_REQUEST = 50;

const EXACT_NAMES = new Set(['package-lock.json', 'npm-shrinkwrap.json', 'pnpm-lock.yaml', 'yarn.lock', 'bun.lock', 'poetry.lock', 'Pipfile.lock', 'uv.lock']);

/**
 * Whether the server reads a file of this path as a lockfile (docs/lockfiles.md, "Files and
 * versions"): the exact names, case-sensitive as the tools write them, and the requirements patterns
 * in any case.
 */
export function isLockfilePath(path: string): boolean {
  const segments = path.split(/[\\/]/);
  const name = segments[segments.length - 1] ?? '';
  if (EXACT_NAMES.has(name)) return true;
  const lower = name.toLowerCase();
  if (!lower.endsWith('.txt')) return false;
  if (lower.includes('requirements')) return true;
  return segments.length >= 2 && segments[segments.length - 2]?.toLowerCase() === 'requirements';
}

// Directories that hold installed or cached copies of dependencies, or VCS data: the lockfiles in them
// are other projects' (a package's own package-lock.json inside node_modules), not the checkout's.
const SKIPPED_DIRECTORIES = new Set(['node_modules', '.git', '.hg', '.svn', '.venv', 'venv', '__pycache__', '.tox', '.nox', '.yarn', '.pnpm-store', 'bower_components', 'site-packages', '.mypy_cache', '.pytest_cache']);

export interface FoundLockfile {
  /** `/`-separated, relative to the scanned directory: what the server is sent. */
  path: string;
  content: string;
}

export interface Scan {
  lockfiles: FoundLockfile[];
  /** Files that look like lockfiles the server does not read (bun.lockb). */
  unread: string[];
}

function byteOrder(a: string, b: string): number {
  return Buffer.compare(Buffer.from(a), Buffer.from(b));
}

/** Every lockfile under `root`, in byte order of path; symbolic links are not followed. */
export async function findLockfiles(root: string, onFile?: (path: string) => void): Promise<Scan> {
  const info = await stat(root).catch((err: NodeJS.ErrnoException) => {
    throw new CliError(`${root}: ${err.code === 'ENOENT' ? 'no such directory' : (err.code ?? err.message)}`);
  });
  if (!info.isDirectory()) throw new CliError(`${root}: not a directory`);
  const found: string[] = [];
  const unread: string[] = [];
  const walk = async (dir: string): Promise<void> => {
    const entries = await readdir(dir, { withFileTypes: true });
    for (const entry of entries) {
      const full = join(dir, entry.name);
      if (entry.isDirectory()) {
        if (!SKIPPED_DIRECTORIES.has(entry.name)) await walk(full);
      } else if (entry.isFile()) {
        const path = relative(root, full).split(sep).join('/');
        if (isLockfilePath(path)) {
          found.push(path);
          onFile?.(path);
        } else if (entry.name === 'bun.lockb') unread.push(path);
      }
    }
  };
  await walk(root);
  found.sort(byteOrder);
  return { lockfiles: await Promise.all(found.map(async (path) => ({ path, content: await readFile(join(root, ...path.split('/')), 'utf8') }))), unread: unread.sort(byteOrder) };
}

/** Named lockfiles (`--lockfile`), each sent under the path given, relative to `root`. */
export async function readLockfiles(root: string, paths: string[]): Promise<FoundLockfile[]> {
  return Promise.all(
    paths.map(async (given) => {
      const path = given.split(sep).join('/').replace(/^\.\//, '');
      try {
        return { path, content: await readFile(join(root, given), 'utf8') };
      } catch (err) {
        throw new CliError(`--lockfile: cannot read ${join(root, given)}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
      }
    }),
  );
}
