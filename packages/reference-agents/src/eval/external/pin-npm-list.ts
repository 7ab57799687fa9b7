import { execFile } from 'node:child_process';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { promisify } from 'node:util';
import type { PinnedNpmPackage } from './benign-lists.js';

const run = promisify(execFile);

interface PackedEntry {
  name: string;
  version: string;
  integrity: string;
}

/** `npm pack --json` prints an array of packed tarballs (a lifecycle script may print before it). */
export function parsePackJson(stdout: string): PackedEntry[] {
  const start = stdout.indexOf('[');
  if (start === -1) return [];
  const parsed = JSON.parse(stdout.slice(start)) as unknown;
  if (!Array.isArray(parsed)) return [];
  return parsed.filter((x): x is PackedEntry => typeof x === 'object' && x !== null && typeof (x as PackedEntry).name === 'string' && typeof (x as PackedEntry).version === 'string' && typeof (x as PackedEntry).integrity === 'string');
}

/**
 * Re-pins a committed npm list (`eval/external/npm-top.json`, `mcp-servers-npm.json`): each name to
 * the version its `latest` dist-tag names now, with the tarball's integrity, by `npm pack
 * <name>@latest` into the tarball cache (so the fetch that follows has the bytes). `@latest` is
 * explicit because a bare name lets npm pick an older version whose `engines` suit this Node.
 * Names npm cannot pack (gone from the registry) are left out and returned.
 */
export async function pinNpmList(listFile: string, tarballDir: string, log: (line: string) => void = () => undefined): Promise<string[]> {
  const list = JSON.parse(await readFile(listFile, 'utf8')) as { about: string; items: PinnedNpmPackage[] };
  await mkdir(tarballDir, { recursive: true });
  const pinned = new Map<string, PinnedNpmPackage>();
  const dropped: string[] = [];
  const pack = async (names: string[]) => parsePackJson((await run('npm', ['pack', ...names.map((n) => `${n}@latest`), '--json', '--pack-destination', tarballDir], { maxBuffer: 64 * 1024 * 1024, timeout: 600_000 })).stdout);
  const names = list.items.map((p) => p.name);
  for (let i = 0; i < names.length; i += 20) {
    const batch = names.slice(i, i + 20);
    let packed: PackedEntry[];
    try {
      packed = await pack(batch);
    } catch {
      // One missing name fails the whole batch: pack one at a time.
      packed = [];
      for (const n of batch) {
        try {
          packed.push(...(await pack([n])));
        } catch {
          dropped.push(n);
        }
      }
    }
    for (const p of packed) pinned.set(p.name, { name: p.name, version: p.version, integrity: p.integrity });
    log(`pin: ${Math.min(i + 20, names.length)}/${names.length}`);
  }
  const items = names.flatMap((n) => {
    const p = pinned.get(n);
    return p === undefined ? [] : [p];
  });
  await writeFile(listFile, `${JSON.stringify({ about: list.about, items }, null, 2)}\n`);
  return dropped;
}
