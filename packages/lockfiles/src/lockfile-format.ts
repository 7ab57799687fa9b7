import type { LockfileFormat } from '@vigil/core';

/** The names Vigil recognises, for the refusal of any other. */
export const LOCKFILE_NAMES =
  'package-lock.json, npm-shrinkwrap.json, pnpm-lock.yaml, yarn.lock, bun.lock, requirements.txt (and *requirements*.txt, requirements/*.txt), poetry.lock, Pipfile.lock, uv.lock';

const BY_NAME: Record<string, LockfileFormat> = {
  'package-lock.json': 'package-lock',
  'npm-shrinkwrap.json': 'npm-shrinkwrap',
  'pnpm-lock.yaml': 'pnpm-lock',
  'bun.lock': 'bun-lock',
  'poetry.lock': 'poetry-lock',
  'Pipfile.lock': 'pipfile-lock',
  'uv.lock': 'uv-lock',
};

/** Yarn Berry's lockfile is YAML with a `__metadata` entry; Yarn 1's has neither. */
const BERRY_RE = /^__metadata:\s*$/m;

/**
 * The format of a lockfile from its path (the file name; a `yarn.lock` also needs its content to
 * tell Yarn 1 from Berry, and is taken as Yarn 1 without it). Null when the name is not a lockfile
 * Vigil reads.
 */
export function lockfileFormatOf(path: string, content?: string): LockfileFormat | null {
  const name = path.slice(path.replace(/\\/g, '/').lastIndexOf('/') + 1);
  const known = Object.prototype.hasOwnProperty.call(BY_NAME, name) ? BY_NAME[name] : undefined;
  if (known) return known;
  if (name === 'yarn.lock') return content !== undefined && BERRY_RE.test(content) ? 'yarn-berry' : 'yarn-classic';
  if (/\.txt$/i.test(name) && (/requirements/i.test(name) || /(^|\/)requirements\/[^/]+$/i.test(path.replace(/\\/g, '/')))) return 'requirements-txt';
  return null;
}
