import { createReadStream } from 'node:fs';
import { readFile, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { createInterface } from 'node:readline';

/** A real, widely used npm package found on this machine: counted as benign by the eval. */
export interface RealPackage {
  name: string;
  version: string;
  /** `npm-cache` (a registry tarball in ~/.npm/_cacache) or `workspace` (installed for this repo). */
  origin: 'npm-cache' | 'workspace';
  /** The tarball (npm-cache) or the installed package directory (workspace). */
  path: string;
}

const TARBALL_URL = /\/(?:(@[^/]+)\/)?([^/]+)\/-\/[^/]+-(\d+\.\d+\.\d+[^/]*)\.tgz$/;

/** Registry tarballs in an npm cache (`_cacache`): index entries whose key is a tarball URL, content found by integrity. */
export async function npmCacheTarballs(cacheDir: string): Promise<RealPackage[]> {
  const out: RealPackage[] = [];
  const indexDir = join(cacheDir, 'index-v5');
  const buckets: string[] = [];
  async function walk(dir: string): Promise<void> {
    let entries;
    try {
      entries = await readdir(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries) {
      if (e.isDirectory()) await walk(join(dir, e.name));
      else if (e.isFile()) buckets.push(join(dir, e.name));
    }
  }
  await walk(indexDir);
  for (const bucket of buckets.sort()) {
    const lines = createInterface({ input: createReadStream(bucket, 'utf8'), crlfDelay: Infinity });
    for await (const line of lines) {
      const tab = line.indexOf('\t');
      if (tab === -1) continue;
      let entry: { key?: unknown; integrity?: unknown };
      try {
        entry = JSON.parse(line.slice(tab + 1)) as { key?: unknown; integrity?: unknown };
      } catch {
        continue;
      }
      if (typeof entry.key !== 'string' || typeof entry.integrity !== 'string') continue;
      const url = entry.key.replace(/^make-fetch-happen:request-cache:/, '');
      const m = TARBALL_URL.exec(url);
      if (m === null) continue;
      const [algo, b64] = entry.integrity.split(' ')[0]!.split('-', 2) as [string, string | undefined];
      if (b64 === undefined) continue;
      const hex = Buffer.from(b64, 'base64').toString('hex');
      // Scoped tarballs appear both as `@scope/pkg/-/…` and `@scope%2fpkg/-/…`.
      const name = decodeURIComponent(m[1] === undefined ? m[2]! : `${m[1]}/${m[2]!}`);
      out.push({ name, version: m[3]!, origin: 'npm-cache', path: join(cacheDir, 'content-v2', algo, hex.slice(0, 2), hex.slice(2, 4), hex.slice(4)) });
    }
  }
  return out;
}

/** Packages installed for a pnpm workspace: `node_modules/.pnpm/<id>/node_modules/<name>` with a package.json. */
export async function workspacePackages(repoRoot: string): Promise<RealPackage[]> {
  const store = join(repoRoot, 'node_modules', '.pnpm');
  let ids: string[];
  try {
    ids = (await readdir(store)).sort();
  } catch {
    return [];
  }
  const out: RealPackage[] = [];
  for (const id of ids) {
    const at = id.startsWith('@') ? id.indexOf('@', 1) : id.indexOf('@');
    if (at <= 0) continue;
    const name = id.slice(0, at).replace('+', '/');
    const dir = join(store, id, 'node_modules', name);
    try {
      const manifest = JSON.parse(await readFile(join(dir, 'package.json'), 'utf8')) as { name?: unknown; version?: unknown };
      if (typeof manifest.name === 'string' && typeof manifest.version === 'string') out.push({ name: manifest.name, version: manifest.version, origin: 'workspace', path: dir });
    } catch {
      // not an installed package (a link or a broken entry)
    }
  }
  return out;
}

/** `name@version` order: the order of the real set and of the npm-cache sample. */
function byNameVersion(a: RealPackage, b: RealPackage): number {
  return a.name === b.name ? (a.version < b.version ? -1 : a.version > b.version ? 1 : 0) : a.name < b.name ? -1 : 1;
}

/**
 * At most `max` of the cache's tarballs, evenly spaced over their `name@version` order: the same
 * cache gives the same sample, and a sample of a large cache spans the alphabet instead of
 * stopping at `a…`. `undefined` keeps them all.
 */
export function sampleEvenly(tarballs: readonly RealPackage[], max: number | undefined): RealPackage[] {
  const sorted = [...tarballs].sort(byNameVersion);
  if (max === undefined || sorted.length <= max) return sorted;
  return Array.from({ length: max }, (_, i) => sorted[Math.floor((i * sorted.length) / max)]!);
}

/**
 * The real benign set: npm-cache tarballs and workspace dependencies, deduplicated by
 * name@version (the cache's copy first), the workspace's own `@vigil/*` packages left out, sorted.
 * `maxNpmCacheTarballs` bounds the part that depends on this machine's npm cache (which grows
 * with everything it ever installed); the workspace part is fixed by the lockfile, and
 * `maxWorkspacePackages` takes an even sample of it (the test suite's small form of the eval).
 */
export async function realBenignPackages(options: { npmCacheDir: string; repoRoot: string; maxNpmCacheTarballs?: number; maxWorkspacePackages?: number }): Promise<RealPackage[]> {
  const seen = new Map<string, RealPackage>();
  const cached = (await npmCacheTarballs(options.npmCacheDir)).filter((p) => !p.name.startsWith('@vigil/'));
  const fromCache = sampleEvenly(dedupe(cached), options.maxNpmCacheTarballs);
  const installed = (await workspacePackages(options.repoRoot)).filter((p) => !p.name.startsWith('@vigil/'));
  const fromWorkspace = sampleEvenly(dedupe(installed), options.maxWorkspacePackages);
  for (const p of [...fromCache, ...fromWorkspace]) {
    if (p.name.startsWith('@vigil/')) continue;
    const key = `${p.name}@${p.version}`;
    if (!seen.has(key)) seen.set(key, p);
  }
  return [...seen.values()].sort(byNameVersion);
}

/** The first entry of each `name@version` (a tarball can sit in the cache under two keys). */
function dedupe(packages: readonly RealPackage[]): RealPackage[] {
  const seen = new Map<string, RealPackage>();
  for (const p of packages) if (!seen.has(`${p.name}@${p.version}`)) seen.set(`${p.name}@${p.version}`, p);
  return [...seen.values()];
}
