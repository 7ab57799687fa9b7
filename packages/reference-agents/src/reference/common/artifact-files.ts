import { lstat, open, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { unescapePrintable } from '../code/printable-escapes.js';

/** Bounds on what a reference agent reads of an artifact. */
export interface FileWalkLimits {
  /** Files listed at most; the rest are left out (`truncated`). */
  maxFiles: number;
  /** Files larger than this are listed but never read as text. */
  maxTextBytes: number;
}

export const DEFAULT_FILE_WALK_LIMITS: FileWalkLimits = { maxFiles: 20_000, maxTextBytes: 4 * 1024 * 1024 };

export interface ArtifactFile {
  /** `/`-separated path relative to the artifact directory. */
  path: string;
  absPath: string;
  size: number;
}

/** A symbolic link in the artifact. */
export interface ArtifactLink {
  /** `/`-separated path of the link itself, relative to the artifact directory. */
  path: string;
  absPath: string;
}

export interface ArtifactListing {
  files: ArtifactFile[];
  /** Symbolic links met on the walk, not followed (at most `maxFiles`). */
  links: ArtifactLink[];
  /** True when more than `maxFiles` files exist. */
  truncated: boolean;
}

// Directories that never hold the artifact's own code: VCS data. node_modules is kept — a package
// that ships one is itself a red flag the packages agent reports.
const SKIPPED = new Set(['.git', '.hg', '.svn']);

/**
 * Every regular file under `dir`, sorted by path, depth-first. Symbolic links are never followed
 * (the unpacker makes none; a local directory may have some, and they could point anywhere): they
 * are listed apart, for an agent that resolves them itself.
 */
export async function listArtifactFiles(
  dir: string,
  limits: FileWalkLimits = DEFAULT_FILE_WALK_LIMITS,
  /** Directories (by `/`-separated relative path) not to descend into, besides VCS data. */
  skipDirectory: (path: string) => boolean = () => false,
): Promise<ArtifactListing> {
  const files: ArtifactFile[] = [];
  const links: ArtifactLink[] = [];
  let truncated = false;
  async function walk(abs: string, rel: string): Promise<void> {
    const entries = await readdir(abs, { withFileTypes: true });
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const entry of entries) {
      if (files.length >= limits.maxFiles) {
        truncated = true;
        return;
      }
      const childAbs = join(abs, entry.name);
      const childRel = rel === '' ? entry.name : `${rel}/${entry.name}`;
      if (entry.isDirectory()) {
        if (!SKIPPED.has(entry.name) && !skipDirectory(childRel)) await walk(childAbs, childRel);
      } else if (entry.isFile()) {
        const info = await lstat(childAbs);
        files.push({ path: childRel, absPath: childAbs, size: info.size });
      } else if (entry.isSymbolicLink() && links.length < limits.maxFiles) {
        links.push({ path: childRel, absPath: childAbs });
      }
    }
  }
  await walk(dir, '');
  return { files, links, truncated };
}

/**
 * A file's text (UTF-8), or null when it is larger than `maxTextBytes` or looks binary (a NUL byte
 * in its first 8 KiB).
 */
export async function readArtifactText(file: ArtifactFile, limits: FileWalkLimits = DEFAULT_FILE_WALK_LIMITS): Promise<string | null> {
  if (file.size > limits.maxTextBytes) return null;
  const handle = await open(file.absPath, 'r');
  try {
    const bytes = await handle.readFile();
    const head = bytes.subarray(0, 8192);
    if (head.includes(0)) return null;
    // Code reads the same whether a string is written `"curl"` or `"\x63\x75\x72\x6c"`: every reader gets the first form.
    return unescapePrintable(bytes.toString('utf8'), file.path);
  } finally {
    await handle.close();
  }
}
