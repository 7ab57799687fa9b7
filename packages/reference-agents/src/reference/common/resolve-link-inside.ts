import { lstat, readlink, realpath } from 'node:fs/promises';
import { isAbsolute, join, relative, resolve, sep } from 'node:path';

/** Where a path of the artifact leads once its symbolic links are followed. */
export type LinkResolution =
  /** A file or directory inside the artifact: `absPath` is its real path. */
  | { kind: 'inside'; absPath: string; isFile: boolean; size: number }
  /** A link on the way points out of the artifact: `target` is what that link says. */
  | { kind: 'outside'; target: string }
  /** Nothing is there (a missing target), or the links loop. */
  | { kind: 'dangling' };

// As many links as Linux follows before giving up with ELOOP.
const MAX_HOPS = 40;

function isInside(root: string, abs: string): boolean {
  const rel = relative(root, abs);
  return rel === '' || (!rel.startsWith(`..${sep}`) && rel !== '..' && !isAbsolute(rel));
}

/**
 * Follows the symbolic links of `path` (relative to `dir`) one component at a time, without ever
 * touching a path outside `dir`: a link whose target leaves the directory stops the walk, so
 * nothing outside is opened, listed or even checked for existence.
 */
export async function resolveLinkInside(dir: string, path: string): Promise<LinkResolution> {
  const root = await realpath(dir);
  let pending = path.split('/').filter((c) => c !== '' && c !== '.');
  let current = root;
  let hops = 0;
  while (pending.length > 0) {
    const [component, ...rest] = pending as [string, ...string[]];
    const next = component === '..' ? resolve(current, '..') : join(current, component);
    if (!isInside(root, next)) return { kind: 'outside', target: path };
    let info;
    try {
      info = await lstat(next);
    } catch {
      return { kind: 'dangling' };
    }
    if (info.isSymbolicLink()) {
      if (++hops > MAX_HOPS) return { kind: 'dangling' };
      const target = await readlink(next);
      const absolute = resolve(current, target);
      if (!isInside(root, absolute)) return { kind: 'outside', target };
      pending = [...relative(root, absolute).split(sep).filter((c) => c !== ''), ...rest];
      current = root;
      continue;
    }
    current = next;
    pending = rest;
  }
  const info = await lstat(current);
  return { kind: 'inside', absPath: current, isFile: info.isFile(), size: info.size };
}
