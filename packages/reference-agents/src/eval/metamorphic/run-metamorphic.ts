import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Track, Verdict } from '@vigil/core';
import { analyzerForTrack } from '../../reference/analyzer-for-track.js';
import { loadCorpus } from '../corpus.js';
import { makeVariant, readSample, writeSample } from './make-variant.js';
import { TRANSFORMATIONS, type Transformation } from './transforms.js';

export interface TransformCounts {
  /** Malicious samples flagged as they are, to which the transformation applied. */
  malicious: number;
  /** ... still flagged (WARN or BLOCK) after it. */
  kept: number;
  /** ... BLOCK before, WARN after. */
  blockToWarn: number;
  /** Benign samples unflagged as they are, to which the (semantic) transformation applied. */
  benign: number;
  /** ... flagged after it. */
  benignFlagged: number;
}

export interface MetamorphicReport {
  format: 'vigil-metamorphic/1';
  /** track → transformation → counts. */
  counts: Record<string, Record<string, TransformCounts>>;
  /** `transformation track/sample: before → after (top finding before)`. */
  lost: string[];
  demoted: string[];
  benignFlagged: string[];
  generatorErrors: string[];
}

const flagged = (v: Verdict): boolean => v !== 'ALLOW';

export interface MetamorphicOptions {
  corpusRoot: string;
  tracks: readonly Track[];
  transformations?: readonly Transformation[];
  /** Only samples whose id (`track/name`) contains one of these. */
  only?: readonly string[];
  log?: (line: string) => void;
  /** Keep the variants under this directory (for reading them) instead of a removed temporary one. */
  dumpDir?: string;
}

/**
 * Rewrites every corpus sample under each transformation into a temporary directory (never the
 * corpus), runs the track's analyzer on the variant and compares its verdict with the original's.
 */
export async function runMetamorphic(options: MetamorphicOptions): Promise<MetamorphicReport> {
  const transformations = options.transformations ?? TRANSFORMATIONS;
  const report: MetamorphicReport = { format: 'vigil-metamorphic/1', counts: {}, lost: [], demoted: [], benignFlagged: [], generatorErrors: [] };
  const work = options.dumpDir ?? (await mkdtemp(join(tmpdir(), 'vigil-metamorphic-')));
  try {
    for (const track of options.tracks) {
      const analyze = analyzerForTrack(track);
      if (analyze === null) continue;
      const perTrack: Record<string, TransformCounts> = {};
      for (const t of transformations) perTrack[t.id] = { malicious: 0, kept: 0, blockToWarn: 0, benign: 0, benignFlagged: 0 };
      report.counts[track] = perTrack;
      const samples = (await loadCorpus(options.corpusRoot, track)).filter((s) => options.only === undefined || options.only.some((o) => s.id.includes(o)));
      let n = 0;
      for (const sample of samples) {
        const files = await readSample(sample.dir);
        const before = (await analyze({ dir: sample.dir, track, bundleHash: null })).verdict;
        const malicious = sample.label === 'malicious';
        if (malicious !== flagged(before)) continue;
        for (const t of transformations) {
          if (!malicious && !t.semantic) continue;
          let variant;
          try {
            variant = makeVariant(sample.id, files, t);
          } catch (error) {
            report.generatorErrors.push(error instanceof Error ? error.message : String(error));
            continue;
          }
          if (variant === null) continue;
          const dir = options.dumpDir === undefined ? join(work, `${n++}`) : join(work, t.id, sample.id);
          await writeSample(dir, variant.files);
          const result = await analyze({ dir, track, bundleHash: null });
          if (options.dumpDir === undefined) await rm(dir, { recursive: true, force: true });
          const after = result.verdict;
          const c = perTrack[t.id]!;
          const line = `${t.id} ${sample.id}: ${before} → ${after}`;
          if (malicious) {
            c.malicious++;
            if (flagged(after)) c.kept++;
            else report.lost.push(line);
            if (before === 'BLOCK' && after === 'WARN') {
              c.blockToWarn++;
              report.demoted.push(line);
            }
          } else {
            c.benign++;
            if (flagged(after)) {
              c.benignFlagged++;
              report.benignFlagged.push(`${line} (${result.findings[0]?.title ?? ''})`);
            }
          }
        }
      }
      options.log?.(`${track}: ${samples.length} samples`);
    }
  } finally {
    if (options.dumpDir === undefined) await rm(work, { recursive: true, force: true });
  }
  return report;
}

/** The table: one row per transformation, per track `kept/malicious (−demoted) | flagged/benign`. */
export function formatMetamorphic(report: MetamorphicReport): string {
  const tracks = Object.keys(report.counts);
  const ids = [...new Set(tracks.flatMap((t) => Object.keys(report.counts[t]!)))];
  const rows = [['transformation', ...tracks].join(' | ')];
  const total = { malicious: 0, kept: 0, blockToWarn: 0, benign: 0, benignFlagged: 0 };
  for (const id of ids) {
    const cells = tracks.map((t) => {
      const c = report.counts[t]![id]!;
      for (const k of Object.keys(total) as (keyof TransformCounts)[]) total[k] += c[k];
      const benign = c.benign === 0 ? '' : ` | benign ${c.benignFlagged}/${c.benign}`;
      return `${c.kept}/${c.malicious} kept (${c.blockToWarn} B→W)${benign}`;
    });
    rows.push([id, ...cells].join(' | '));
  }
  rows.push(`total: ${total.kept}/${total.malicious} malicious variants keep a flag (${total.blockToWarn} BLOCK→WARN); ${total.benignFlagged}/${total.benign} benign variants flagged; ${report.generatorErrors.length} generator errors`);
  return rows.join('\n');
}
