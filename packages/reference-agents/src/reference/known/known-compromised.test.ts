import { describe, expect, it } from 'vitest';
import { KNOWN_COMPROMISED, knownCompromisedVersion } from './known-compromised.js';

describe('KNOWN_COMPROMISED', () => {
  it('cites a public https write-up for every entry, names each package once, PyPI names normalized', () => {
    const keys = KNOWN_COMPROMISED.map((e) => `${e.ecosystem}:${e.name}`);
    expect(new Set(keys).size).toBe(keys.length);
    for (const e of KNOWN_COMPROMISED) {
      expect(e.source_url, e.name).toMatch(/^https:\/\/[^\s]+$/);
      expect(e.incident.length, e.name).toBeGreaterThan(10);
      if (e.ecosystem === 'pypi') expect(e.name).toBe(e.name.toLowerCase().replace(/[-_.]+/g, '-'));
      if (e.versions !== '*') expect(e.versions.length, e.name).toBeGreaterThan(0);
    }
  });

  it('matches exact versions only, and every version of a name listed as malicious whole', () => {
    expect(knownCompromisedVersion('npm', 'chalk', '5.6.1')?.source_url).toContain('aikido.dev');
    expect(knownCompromisedVersion('npm', 'chalk', '5.6.2')).toBeNull();
    expect(knownCompromisedVersion('pypi', 'chalk', '5.6.1')).toBeNull();
    expect(knownCompromisedVersion('npm', 'flatmap-stream', '0.0.1')?.name).toBe('flatmap-stream');
    expect(knownCompromisedVersion('pypi', 'ultralytics', '8.3.41')).not.toBeNull();
    expect(knownCompromisedVersion('pypi', 'ultralytics', '8.3.40')).toBeNull();
  });
});
