import { describe, expect, it } from 'vitest';
import { externalTrackReport, type ExternalOutcome } from './run-external-eval.js';

let n = 0;
function outcome(over: Partial<ExternalOutcome>): ExternalOutcome {
  return { id: `packages/s${n++}`, group: 'public', corpus: 'guarddog', label: 'malicious', technique: 'obfuscation', source: 'x', standing: 'clear', verdict: 'ALLOW', riskScore: 0, ms: 1, top: [], ...over };
}

describe('externalTrackReport', () => {
  it('counts doubtful and out-of-scope labels apart from the detection rate, per family and corpus', () => {
    const outcomes = [
      outcome({ verdict: 'BLOCK' }),
      outcome({ verdict: 'WARN', technique: 'exfiltration' }),
      outcome({ verdict: 'ALLOW', technique: 'exfiltration' }),
      outcome({ verdict: 'ALLOW', standing: 'doubtful', reason: 'capability', technique: 'shady-links' }),
      outcome({ verdict: 'ALLOW', standing: 'out-of-scope', reason: 'Go', corpus: 'guarddog' }),
      outcome({ label: 'benign', verdict: 'WARN', technique: 'obfuscation' }),
      ...Array.from({ length: 50 }, () => outcome({ group: 'real', corpus: 'real-npm', label: 'benign', technique: 'real-npm' })),
      outcome({ group: 'real', corpus: 'real-npm', label: 'benign', technique: 'real-npm', verdict: 'BLOCK', top: ['CRIT malware: x @ index.js:1'] }),
    ];
    const r = externalTrackReport('packages', outcomes);
    expect(r.detection.clear).toEqual({ samples: 3, flagged: 2, block: 1, warn: 1, rate: 2 / 3 });
    expect(r.detection.doubtful.samples).toBe(1);
    expect(r.detection.outOfScope.samples).toBe(1);
    expect(r.families.exfiltration!.clear).toMatchObject({ samples: 2, flagged: 1 });
    expect(r.families['shady-links']!.clear.samples).toBe(0);
    expect(r.families['shady-links']!.doubtful.samples).toBe(1);
    expect(Object.keys(r.rules)).toEqual(['guarddog:exfiltration', 'guarddog:obfuscation', 'guarddog:shady-links']);
    expect(r.rules['guarddog:obfuscation']!.outOfScope.samples).toBe(1);
    expect(r.corpora.guarddog!.benign).toMatchObject({ samples: 1, warn: 1 });
    expect(r.realBenign).toMatchObject({ samples: 51, block: 1 });
    // Every benign sample flagged is listed (public look-alike and real), every malicious miss too.
    expect(r.falsePositives.map((o) => o.verdict)).toEqual(['WARN', 'BLOCK']);
    expect(r.missed).toHaveLength(3);
    expect(r.targets).toEqual({ publicDetection: false, realBlock: true, realWarn: true });
    expect(r.met).toBe(false);
  });

  it('does not call a target met when the track has no real benign sample', () => {
    const r = externalTrackReport('skills', [outcome({ verdict: 'BLOCK' })]);
    expect(r.targets).toEqual({ publicDetection: true, realBlock: false, realWarn: false });
  });
});
