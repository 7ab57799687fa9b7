import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { access, mkdir, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { Track } from '@vigil/core';
import { unpackArchive } from '@vigil/sandbox';
import type { BenignLists, PinnedNpmPackage } from './benign-lists.js';
import { detectLicence, rootOf, sampleDir, writeSampleMeta } from './external-sample.js';
import { mirrorOf } from './build-public-corpora.js';

const run = promisify(execFile);

/**
 * Wider bounds than `vigil scan`'s defaults (5,000 files, 256 MiB): a repository is a whole
 * checkout, and a few popular npm packages (next, date-fns) hold more than 5,000 files. The eval
 * measures the agent on them rather than report them refused.
 */
const WIDE_LIMITS = { maxFiles: 60_000, maxTotalBytes: 1024 * 1024 * 1024 };

const exists = (p: string) =>
  access(p).then(
    () => true,
    () => false,
  );

/** The directory name of a pinned npm package's sample: `@scope/name@1.0.0` → `scope+name@1.0.0`. */
export function npmSampleId(p: Pick<PinnedNpmPackage, 'name' | 'version'>): string {
  return `${p.name.replace(/^@/, '').replace('/', '+')}@${p.version}`;
}

/** `npm pack`'s tarball name: `@scope/name`, `1.0.0` → `scope-name-1.0.0.tgz`. */
export function npmTarballName(p: Pick<PinnedNpmPackage, 'name' | 'version'>): string {
  return `${p.name.replace(/^@/, '').replace('/', '-')}-${p.version}.tgz`;
}

function sri(bytes: Buffer): string {
  return `sha512-${createHash('sha512').update(bytes).digest('base64')}`;
}

/**
 * `npm pack`s the packages (with npm, the ordinary client: its cache, its registry settings) into
 * `tarballDir`. Several packages per npm process; a batch that fails (one name gone) is retried one
 * package at a time so the others still arrive. Returns the failures.
 */
async function npmPack(pkgs: PinnedNpmPackage[], tarballDir: string, concurrency: number, log: (line: string) => void): Promise<string[]> {
  await mkdir(tarballDir, { recursive: true });
  const missing: PinnedNpmPackage[] = [];
  for (const p of pkgs) if (!(await exists(join(tarballDir, npmTarballName(p))))) missing.push(p);
  const failures: string[] = [];
  const batches: PinnedNpmPackage[][] = [];
  for (let i = 0; i < missing.length; i += 20) batches.push(missing.slice(i, i + 20));
  const pack = (specs: string[]) => run('npm', ['pack', ...specs, '--json', '--pack-destination', tarballDir], { maxBuffer: 64 * 1024 * 1024, timeout: 600_000 });
  let next = 0;
  async function worker(): Promise<void> {
    while (next < batches.length) {
      const batch = batches[next++]!;
      try {
        await pack(batch.map((p) => `${p.name}@${p.version}`));
      } catch {
        for (const p of batch) {
          try {
            await pack([`${p.name}@${p.version}`]);
          } catch (error) {
            failures.push(`${p.name}@${p.version}: npm pack failed (${error instanceof Error ? error.message.split('\n').find((l) => l.includes('ERR')) ?? error.message.split('\n')[0] : String(error)})`);
          }
        }
      }
      log(`npm pack: ${Math.min(next * 20, missing.length)}/${missing.length}`);
    }
  }
  await Promise.all(Array.from({ length: Math.max(1, concurrency) }, worker));
  return failures;
}

async function unpackNpm(cacheDir: string, track: Track, corpus: string, technique: string, p: PinnedNpmPackage, tarballDir: string): Promise<string | null> {
  const dir = sampleDir(cacheDir, 'real', track, npmSampleId(p));
  if (await exists(join(dir, 'sample.json'))) return null;
  const tarball = join(tarballDir, npmTarballName(p));
  if (!(await exists(tarball))) return `${p.name}@${p.version}: no tarball`;
  const bytes = await readFile(tarball);
  if (p.integrity !== undefined && p.integrity.startsWith('sha512-') && sri(bytes) !== p.integrity) return `${p.name}@${p.version}: the tarball's sha512 differs from the pinned integrity`;
  await rm(dir, { recursive: true, force: true });
  const unpacked = await unpackArchive(tarball, join(dir, 'files'), WIDE_LIMITS);
  let licence = 'unknown';
  try {
    const manifest = JSON.parse(await readFile(join(unpacked.root, 'package.json'), 'utf8')) as { license?: unknown };
    if (typeof manifest.license === 'string') licence = manifest.license;
  } catch {
    // a package without a readable manifest keeps `unknown`
  }
  await writeSampleMeta(dir, { label: 'benign', track, technique, corpus, source: `npm:${p.name}@${p.version}`, licence, root: rootOf(dir, unpacked.root), notes: 'npm pack of the pinned version, unpacked with unpackArchive' });
  return null;
}

export interface FetchOptions {
  cacheDir: string;
  mirrorsDir: string;
  lists: BenignLists;
  /** npm processes at once (default 2: the machine is shared). */
  concurrency?: number;
  log?: (line: string) => void;
}

/**
 * Fetches the real benign set into `<cacheDir>/real/<track>/`: npm packages with `npm pack` (cached
 * as `<cacheDir>/tarballs/npm/<name>-<version>.tgz`) unpacked by `unpackArchive`; skills and
 * repositories from their fetched snapshots at the pinned commit. Resumable: a sample whose
 * `sample.json` exists is kept. Returns what could not be fetched.
 */
export async function fetchBenign(options: FetchOptions): Promise<string[]> {
  const log = options.log ?? (() => undefined);
  const tarballDir = join(options.cacheDir, 'tarballs', 'npm');
  const problems: string[] = [];
  const all = [...options.lists.npm, ...options.lists.mcpNpm];
  problems.push(...(await npmPack(all, tarballDir, options.concurrency ?? 2, log)));
  for (const p of options.lists.npm) {
    const problem = await unpackNpm(options.cacheDir, 'packages', 'real-npm', 'real-npm', p, tarballDir).catch((e: unknown) => `${p.name}@${p.version}: ${String(e)}`);
    if (problem !== null) problems.push(problem);
  }
  for (const p of options.lists.mcpNpm) {
    const problem = await unpackNpm(options.cacheDir, 'mcp_servers', 'real-mcp-npm', 'real-mcp-npm', p, tarballDir).catch((e: unknown) => `${p.name}@${p.version}: ${String(e)}`);
    if (problem !== null) problems.push(problem);
  }
  log(`npm: ${options.lists.npm.length} packages, ${options.lists.mcpNpm.length} MCP servers`);
  for (const s of options.lists.skills) {
    const id = `${s.repo.replace('/', '+')}+${s.path.replace(/\//g, '+')}`;
    const dir = sampleDir(options.cacheDir, 'real', 'skills', id);
    if (await exists(join(dir, 'sample.json'))) continue;
    const repo = mirrorOf(options.mirrorsDir, s.repo);
    if (!(await repo.has(s.commit))) {
      problems.push(`${s.repo}@${s.commit}: no snapshot with that commit under ${options.mirrorsDir} (fetch ${s.repo})`);
      continue;
    }
    await rm(dir, { recursive: true, force: true });
    const unpacked = await repo.unpackTree(s.commit, s.path, join(dir, 'files'));
    const own = await repo.licenceFile(s.commit, s.path);
    const top = own ?? (await repo.licenceFile(s.commit));
    await writeSampleMeta(dir, {
      label: 'benign',
      track: 'skills',
      technique: 'real-skill',
      corpus: 'real-skills',
      source: `${s.repo}@${s.commit}:${s.path}/`,
      licence: top === null ? 'unknown (no licence file)' : detectLicence(top),
      root: rootOf(dir, unpacked.dir),
      notes: 'the skill directory from the fetched snapshot, unpacked with unpackArchive',
    });
  }
  log(`skills: ${options.lists.skills.length}`);
  for (const r of options.lists.repositories) {
    const dir = sampleDir(options.cacheDir, 'real', 'repositories', r.repo.replace('/', '+'));
    if (await exists(join(dir, 'sample.json'))) continue;
    const repo = mirrorOf(options.mirrorsDir, r.repo);
    if (!(await repo.has(r.commit))) {
      problems.push(`${r.repo}@${r.commit}: no snapshot with that commit under ${options.mirrorsDir} (fetch ${r.repo})`);
      continue;
    }
    await rm(dir, { recursive: true, force: true });
    try {
      const unpacked = await repo.unpackTree(r.commit, '', join(dir, 'files'), WIDE_LIMITS);
      const lic = await repo.licenceFile(r.commit);
      await writeSampleMeta(dir, {
        label: 'benign',
        track: 'repositories',
        technique: 'real-repository',
        corpus: 'real-repositories',
        source: `${r.repo}@${r.commit}`,
        licence: lic === null ? 'unknown (no licence file)' : detectLicence(lic),
        root: rootOf(dir, unpacked.dir),
        notes: `the checkout (git archive of the commit) unpacked with unpackArchive${unpacked.absent.length === 0 ? '' : `; left out, absent from the snapshot: ${unpacked.absent.join(', ')}`}`,
      });
    } catch (error) {
      await rm(dir, { recursive: true, force: true });
      problems.push(`${r.repo}@${r.commit}: ${error instanceof Error ? error.message : String(error)}`);
    }
    log(`repository ${r.repo}`);
  }
  return problems;
}
