import { readdir, readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import type { Verdict } from '@vigil/core';
import type { TrackAnalyzer } from '../reference/common/analyzer.js';
import { analyzeCorpusSample } from './corpus-analysis.js';

const RANK: Readonly<Record<Verdict, number>> = { ALLOW: 0, WARN: 1, BLOCK: 2 };

export interface CorpusRates {
  malicious: number;
  benign: number;
  detectionRate: number;
  benignWarnRate: number;
  benignBlockRate: number;
  /** Malicious sample ids the analyzer left ALLOW. */
  missed: string[];
  /** `id: got X, expected Y` for samples below their `expected` verdict (malicious) or above it (benign). */
  belowExpected: string[];
}

/** Runs an analyzer over `eval/corpus/<track>/*` and counts what the eval harness reports. */
export async function corpusRates(track: 'skills' | 'mcp_servers', analyze: TrackAnalyzer): Promise<CorpusRates> {
  const root = fileURLToPath(new URL(`../../eval/corpus/${track}/`, import.meta.url));
  const rates: CorpusRates = { malicious: 0, benign: 0, detectionRate: 0, benignWarnRate: 0, benignBlockRate: 0, missed: [], belowExpected: [] };
  let flagged = 0;
  let warned = 0;
  let blocked = 0;
  for (const id of (await readdir(root)).sort()) {
    const meta = JSON.parse(await readFile(`${root}${id}/sample.json`, 'utf8')) as { label: 'malicious' | 'benign'; expected?: Verdict };
    const { verdict } = await analyzeCorpusSample(analyze, `${root}${id}/files`, track);
    if (meta.label === 'malicious') {
      rates.malicious++;
      if (verdict === 'ALLOW') rates.missed.push(id);
      else flagged++;
      if (RANK[verdict] < RANK[meta.expected ?? 'WARN']) rates.belowExpected.push(`${id}: got ${verdict}, expected ${meta.expected ?? 'WARN'}`);
    } else {
      rates.benign++;
      if (verdict === 'WARN') warned++;
      if (verdict === 'BLOCK') blocked++;
      if (RANK[verdict] > RANK[meta.expected ?? 'ALLOW']) rates.belowExpected.push(`${id}: got ${verdict}, expected ${meta.expected ?? 'ALLOW'}`);
    }
  }
  rates.detectionRate = flagged / Math.max(1, rates.malicious);
  rates.benignWarnRate = warned / Math.max(1, rates.benign);
  rates.benignBlockRate = blocked / Math.max(1, rates.benign);
  return rates;
}
