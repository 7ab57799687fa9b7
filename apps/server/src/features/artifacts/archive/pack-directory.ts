import { lstat, readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { tarGz, type TarEntry } from './tar-gz.js';

/** Version-control metadata is not part of an artifact's content. */
const SKIPPED_DIRECTORIES = new Set(['.git', '.hg', '.svn']);

export interface PackedDirectory {
  bytes: Uint8Array;
  files: number;
}

/** Every regular file under `dir` as `/`-separated paths, sorted by code unit so the order never depends on the file system. */
async function listFiles(dir: string, relative: string, found: { path: string; absolute: string; executable: boolean }[], keep: (path: string) => boolean): Promise<void> {
  const entries = await readdir(join(dir, relative), { withFileTypes: true });
  for (const entry of entries) {
    const path = relative === '' ? entry.name : `${relative}/${entry.name}`;
    if (entry.isDirectory()) {
      if (!SKIPPED_DIRECTORIES.has(entry.name) && keep(path)) await listFiles(dir, path, found, keep);
    } else if (entry.isFile()) {
      const info = await lstat(join(dir, path));
      found.push({ path, absolute: join(dir, path), executable: (info.mode & 0o111) !== 0 });
    }
    // Symbolic links, sockets and devices are left out: a link's target is outside what is packed.
  }
}

export interface PackOptions {
  /**
   * Pack as `npm pack` does for an npm package: the root `node_modules/` is left out except the
   * folders of these bundled dependencies (`bundleDependencies`), and `node_modules/.bin` always.
   * An installed package's directory (pnpm's store) holds `.bin` shims npm would never publish.
   */
  npmBundled?: ReadonlySet<string>;
}

/** Which directories an npm pack keeps, by their `/`-separated path from the package root. */
function npmKeeps(bundled: ReadonlySet<string>): (path: string) => boolean {
  return (path) => {
    const parts = path.split('/');
    if (parts[0] !== 'node_modules' || parts.length === 1) return true;
    const name = parts[1]!.startsWith('@') ? (parts.length === 2 ? undefined : `${parts[1]}/${parts[2]}`) : parts[1]!;
    if (name === undefined) return [...bundled].some((b) => b.startsWith(`${parts[1]}/`));
    return bundled.has(name);
  };
}

/** The `bundleDependencies` (or `bundledDependencies`) names of a package.json; `true` bundles every dependency. */
export function npmBundledDependencies(manifest: unknown): Set<string> {
  if (typeof manifest !== 'object' || manifest === null) return new Set();
  const m = manifest as Record<string, unknown>;
  const bundled = m.bundleDependencies ?? m.bundledDependencies;
  if (bundled === true) return new Set(typeof m.dependencies === 'object' && m.dependencies !== null ? Object.keys(m.dependencies) : []);
  return new Set(Array.isArray(bundled) ? bundled.filter((n): n is string => typeof n === 'string') : []);
}

/**
 * A directory as a reproducible `.tar.gz` with every file under one top folder (`package/` as npm
 * packs, `<name>-<version>/` as an sdist): the same files always give the same bytes (fixed mtime,
 * owner and order; mode 0755 for a file with any execute bit, else 0644), so loading a directory
 * twice registers one artifact.
 */
export async function packDirectory(dir: string, topFolder: string, options: PackOptions = {}): Promise<PackedDirectory> {
  const found: { path: string; absolute: string; executable: boolean }[] = [];
  await listFiles(dir, '', found, options.npmBundled === undefined ? () => true : npmKeeps(options.npmBundled));
  found.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  const entries: TarEntry[] = [];
  for (const file of found) {
    entries.push({ path: `${topFolder}/${file.path}`, content: await readFile(file.absolute), mode: file.executable ? 0o755 : 0o644 });
  }
  return { bytes: tarGz(entries), files: entries.length };
}
