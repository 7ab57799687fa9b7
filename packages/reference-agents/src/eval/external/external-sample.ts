import { mkdir, readFile, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, join, relative } from 'node:path';
import { TRACKS, type Track, type Verdict } from '@vigil/core';

/**
 * The `sample.json` of an external sample (built into the eval cache, never committed): the
 * corpus's own fields (`label`, `technique`, `expected`, `source`) plus where it came from.
 */
export interface ExternalSampleMeta {
  label: 'malicious' | 'benign';
  track: Track;
  /** The technique family (technique-families.ts) or, for the real benign set, `real-<kind>`. */
  technique: string;
  /** `guarddog`, `skill-scanner`, `mcp-scanner`, `mcp-scan` (public corpora) or `real-npm`, `real-mcp-npm`, `real-skills`, `real-repositories`. */
  corpus: string;
  /** The public corpus's own label: a GuardDog rule, a Cisco category. */
  rule?: string;
  /** `<owner>/<repo>@<commit>:<path>[:<line>]`, or `npm:<name>@<version>`. */
  source: string;
  /** The licence of the source (SPDX id, or what the repository's licence file says). */
  licence: string;
  expected?: Verdict;
  /** The label is doubtful: reported apart, never silently dropped. */
  doubtful?: true;
  doubtReason?: string;
  /** Why the sample is outside what the track's agent reads (a Go module, a Ruby gem): reported apart. */
  outOfScope?: string;
  /** The artifact root, relative to the sample directory (default `files`). */
  root?: string;
  /** How the sample was made from the source (a snippet wrapped in a package, a directory copied). */
  notes?: string;
}

export interface ExternalSample extends ExternalSampleMeta {
  /** `<track>/<sample-dir>`. */
  id: string;
  /** The artifact directory the agent reads. */
  dir: string;
}

/** Where samples of one group live in the cache: `<cache>/<group>/<track>/<id>/`. */
export function sampleDir(cacheDir: string, group: 'public' | 'real', track: Track, id: string): string {
  return join(cacheDir, group, track, id);
}

/** Writes a sample whose files are given in memory (a wrapped snippet). Replaces an earlier copy. */
export async function writeSample(dir: string, meta: ExternalSampleMeta, files: Readonly<Record<string, string | Buffer>>): Promise<void> {
  await rm(dir, { recursive: true, force: true });
  for (const [path, content] of Object.entries(files)) {
    const target = join(dir, 'files', path);
    await mkdir(dirname(target), { recursive: true });
    await writeFile(target, content);
  }
  await writeSampleMeta(dir, meta);
}

export async function writeSampleMeta(dir: string, meta: ExternalSampleMeta): Promise<void> {
  await mkdir(dir, { recursive: true });
  await writeFile(join(dir, 'sample.json'), `${JSON.stringify(meta, null, 2)}\n`);
}

/** The artifact root of an unpacked sample, as `sample.json` records it. */
export function rootOf(dir: string, unpackedRoot: string): string {
  return relative(dir, unpackedRoot);
}

const KEBAB = /^[a-z0-9]+(-[a-z0-9]+)*$/;

function check(raw: Record<string, unknown>, where: string): ExternalSampleMeta {
  if (raw.label !== 'malicious' && raw.label !== 'benign') throw new Error(`${where}: label must be "malicious" or "benign"`);
  if (typeof raw.track !== 'string' || !(TRACKS as readonly string[]).includes(raw.track)) throw new Error(`${where}: track must be one of ${TRACKS.join(', ')}`);
  if (typeof raw.technique !== 'string' || !KEBAB.test(raw.technique)) throw new Error(`${where}: technique must be a short kebab-case id`);
  if (typeof raw.source !== 'string' || raw.source === '') throw new Error(`${where}: source is missing`);
  if (typeof raw.licence !== 'string' || raw.licence === '') throw new Error(`${where}: licence is missing`);
  if (typeof raw.corpus !== 'string' || raw.corpus === '') throw new Error(`${where}: corpus is missing`);
  return raw as unknown as ExternalSampleMeta;
}

/** Every built sample of a group in the cache (`<cache>/<group>/<track>/*`), sorted by id. */
export async function loadExternalSamples(cacheDir: string, group: 'public' | 'real', tracks: readonly Track[] = TRACKS): Promise<ExternalSample[]> {
  const out: ExternalSample[] = [];
  for (const track of tracks) {
    const trackDir = join(cacheDir, group, track);
    let ids: string[];
    try {
      ids = (await readdir(trackDir)).sort();
    } catch {
      continue;
    }
    for (const id of ids) {
      const dir = join(trackDir, id);
      let raw: Record<string, unknown>;
      try {
        raw = JSON.parse(await readFile(join(dir, 'sample.json'), 'utf8')) as Record<string, unknown>;
      } catch {
        continue; // a sample still being fetched (no sample.json yet) is not part of the set
      }
      const meta = check(raw, `${group}/${track}/${id}/sample.json`);
      const artifact = join(dir, meta.root ?? 'files');
      if (!(await stat(artifact)).isDirectory()) throw new Error(`${group}/${track}/${id}: ${meta.root ?? 'files'} is not a directory`);
      out.push({ ...meta, id: `${track}/${id}`, dir: artifact });
    }
  }
  return out;
}

/** The SPDX id a licence file's text declares, for the common licences; otherwise its first line. */
export function detectLicence(text: string): string {
  const head = text.slice(0, 2000);
  if (/Apache License[\s\S]{0,40}Version 2\.0/i.test(head)) return 'Apache-2.0';
  if (/\bMIT License\b/i.test(head) || /Permission is hereby granted, free of charge/i.test(head)) return 'MIT';
  if (/BSD 3-Clause|Redistributions of source code[\s\S]*Neither the name/i.test(text.slice(0, 4000))) return 'BSD-3-Clause';
  if (/BSD 2-Clause/i.test(head)) return 'BSD-2-Clause';
  if (/ISC License/i.test(head)) return 'ISC';
  if (/Creative Commons Attribution 4\.0|CC BY 4\.0/i.test(head)) return 'CC-BY-4.0';
  const first = head.split('\n').find((l) => l.trim() !== '');
  return first === undefined ? 'unknown' : `see licence file: ${first.trim().slice(0, 80)}`;
}
