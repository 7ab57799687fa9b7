import { readFile, readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { Verdict } from '@vigil/core';

export interface CorpusSample {
  /** `<track>/<sample-id>`. */
  id: string;
  label: 'malicious' | 'benign';
  technique: string;
  /** The least verdict the sample must get (malicious: WARN unless `expected` says BLOCK). */
  expected: Verdict | null;
  source: string;
  /** The artifact directory (`files/`). */
  dir: string;
}

const VERDICTS = new Set(['ALLOW', 'WARN', 'BLOCK']);

/**
 * The labelled samples of a track: `eval/corpus/<track>/<sample-id>/{sample.json,files/}`, sorted
 * by id. A malformed `sample.json` is an error naming the sample (the corpus is reviewed data).
 */
export async function loadCorpus(corpusRoot: string, track: string): Promise<CorpusSample[]> {
  const trackDir = join(corpusRoot, track);
  let ids: string[];
  try {
    ids = (await readdir(trackDir)).sort();
  } catch {
    return [];
  }
  const samples: CorpusSample[] = [];
  for (const id of ids) {
    const dir = join(trackDir, id);
    if (!(await stat(dir)).isDirectory()) continue;
    const raw = JSON.parse(await readFile(join(dir, 'sample.json'), 'utf8')) as Record<string, unknown>;
    const where = `${track}/${id}/sample.json`;
    if (raw.label !== 'malicious' && raw.label !== 'benign') throw new Error(`${where}: label must be "malicious" or "benign"`);
    if (typeof raw.technique !== 'string' || !/^[a-z0-9]+(-[a-z0-9]+)*$/.test(raw.technique)) throw new Error(`${where}: technique must be a short kebab-case id`);
    if (typeof raw.source !== 'string' || raw.source.trim() === '') throw new Error(`${where}: source must name the incident or write-up`);
    if (raw.expected !== undefined && (typeof raw.expected !== 'string' || !VERDICTS.has(raw.expected))) throw new Error(`${where}: expected must be ALLOW, WARN or BLOCK`);
    if (!(await stat(join(dir, 'files'))).isDirectory()) throw new Error(`${track}/${id}: files/ is missing`);
    samples.push({ id: `${track}/${id}`, label: raw.label, technique: raw.technique, expected: (raw.expected as Verdict | undefined) ?? null, source: raw.source, dir: join(dir, 'files') });
  }
  return samples;
}
