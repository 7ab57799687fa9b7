import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AgentResult } from '@vigil/core';
import { beforeAll, describe, expect, it } from 'vitest';
import { analyzeCorpusSample } from '../../test-support/corpus-analysis.js';
import { analyzeRepository } from './analyze-repository.js';

const CORPUS = fileURLToPath(new URL('../../../eval/corpus/repositories/', import.meta.url));

interface Sample {
  id: string;
  label: 'malicious' | 'benign';
  technique: string;
  expected?: 'BLOCK' | 'WARN' | 'ALLOW';
  source: string;
}

const samples: Sample[] = readdirSync(CORPUS)
  .sort()
  .map((id) => ({ id, ...(JSON.parse(readFileSync(join(CORPUS, id, 'sample.json'), 'utf8')) as Omit<Sample, 'id'>) }));
const results = new Map<string, AgentResult>();

beforeAll(async () => {
  for (const s of samples) results.set(s.id, await analyzeCorpusSample(analyzeRepository, join(CORPUS, s.id, 'files'), 'repositories'));
});

const RANK = { ALLOW: 0, WARN: 1, BLOCK: 2 } as const;

describe('repositories corpus (eval/corpus/repositories)', () => {
  const malicious = samples.filter((s) => s.label === 'malicious');
  const benign = samples.filter((s) => s.label === 'benign');

  it('holds at least 25 malicious samples, each citing its source, and 15 benign look-alikes', () => {
    expect(malicious.length).toBeGreaterThanOrEqual(25);
    expect(benign.length).toBeGreaterThanOrEqual(15);
    for (const s of samples) expect(s.source.length, s.id).toBeGreaterThan(20);
  });

  it('flags at least 95% of the malicious samples, each at least at its expected verdict', () => {
    const missed = malicious.filter((s) => results.get(s.id)!.verdict === 'ALLOW').map((s) => s.id);
    expect(missed.length / malicious.length, `missed: ${missed.join(', ')}`).toBeLessThanOrEqual(0.05);
    const below = malicious.filter((s) => RANK[results.get(s.id)!.verdict] < RANK[s.expected ?? 'WARN']).map((s) => `${s.id}: ${results.get(s.id)!.verdict}`);
    expect(below).toEqual([]);
  });

  it('WARNs on at most 10% and BLOCKs at most 2% of the benign look-alikes', () => {
    const warned = benign.filter((s) => results.get(s.id)!.verdict === 'WARN').map((s) => s.id);
    const blocked = benign.filter((s) => results.get(s.id)!.verdict === 'BLOCK').map((s) => s.id);
    expect(warned.length / benign.length, `warned: ${warned.join(', ')}`).toBeLessThanOrEqual(0.1);
    expect(blocked.length / benign.length, `blocked: ${blocked.join(', ')}`).toBeLessThanOrEqual(0.02);
  });

  it('names a file and a line in every finding of a malicious sample', () => {
    for (const s of malicious) {
      for (const f of results.get(s.id)!.findings) {
        expect(f.file, s.id).not.toBe('');
        expect(f.line, `${s.id}: ${f.title}`).toBeGreaterThanOrEqual(1);
      }
    }
  });
});
