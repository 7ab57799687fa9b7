import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { loadCorpus } from '../../eval/corpus.js';
import { analyzeCorpusSample } from '../../test-support/corpus-analysis.js';
import { analyzePackage } from './analyze-package.js';

const CORPUS = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', 'eval', 'corpus');
const samples = await loadCorpus(CORPUS, 'packages');
const RANK = { ALLOW: 0, WARN: 1, BLOCK: 2 } as const;

describe('packages corpus', () => {
  it('has at least 30 malicious samples and 20 benign look-alikes', () => {
    expect(samples.filter((s) => s.label === 'malicious').length).toBeGreaterThanOrEqual(30);
    expect(samples.filter((s) => s.label === 'benign').length).toBeGreaterThanOrEqual(20);
  });

  for (const sample of samples.filter((s) => s.label === 'malicious')) {
    it(`${sample.id} is flagged, naming a file of the sample (and a line for code)`, async () => {
      const result = await analyzeCorpusSample(analyzePackage, sample.dir, 'packages');
      expect(RANK[result.verdict]).toBeGreaterThanOrEqual(RANK[sample.expected ?? 'WARN']);
      const top = result.findings[0]!;
      expect(existsSync(join(sample.dir, top.file))).toBe(true);
      if (/\.(js|cjs|mjs|py)$/.test(top.file)) expect(top.line).toBeGreaterThanOrEqual(1);
    });
  }

  for (const sample of samples.filter((s) => s.label === 'benign')) {
    it(`${sample.id} (benign look-alike) stays ALLOW`, async () => {
      expect((await analyzeCorpusSample(analyzePackage, sample.dir, 'packages')).verdict).toBe('ALLOW');
    });
  }
});
