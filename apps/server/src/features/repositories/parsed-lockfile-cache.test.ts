import { describe, expect, it } from 'vitest';
import { MAX_CACHED_LOCKFILES, parseLockfileCached } from './parsed-lockfile-cache.js';

const requirements = (n: number) => Array.from({ length: n }, (_, i) => `pkg-${i}==1.0.${i}`).join('\n');

describe('parseLockfileCached', () => {
  it('answers the same file (path and content) with the remembered parse, and another path or content afresh', () => {
    const first = parseLockfileCached({ path: 'requirements.txt', content: requirements(3) });
    expect(first.packages.map((p) => p.purl)).toEqual(['pkg:pypi/pkg-0@1.0.0', 'pkg:pypi/pkg-1@1.0.1', 'pkg:pypi/pkg-2@1.0.2']);
    expect(parseLockfileCached({ path: 'requirements.txt', content: requirements(3) })).toBe(first);
    const elsewhere = parseLockfileCached({ path: 'docs/requirements.txt', content: requirements(3) });
    expect(elsewhere).not.toBe(first);
    expect(elsewhere.path).toBe('docs/requirements.txt');
    expect(parseLockfileCached({ path: 'requirements.txt', content: requirements(4) }).packages).toHaveLength(4);
  });

  it('forgets the least recently used file beyond its bound, and never remembers a refusal', () => {
    const kept = parseLockfileCached({ path: 'kept/requirements.txt', content: requirements(1) });
    const firstChurn = parseLockfileCached({ path: 'churn-0/requirements.txt', content: requirements(1) });
    for (let i = 1; i <= MAX_CACHED_LOCKFILES; i++) {
      parseLockfileCached({ path: `churn-${i}/requirements.txt`, content: requirements(1) });
      // Used again while the others churn: it stays.
      expect(parseLockfileCached({ path: 'kept/requirements.txt', content: requirements(1) })).toBe(kept);
    }
    // The oldest one nobody used again was forgotten: it is parsed anew.
    const again = parseLockfileCached({ path: 'churn-0/requirements.txt', content: requirements(1) });
    expect(again).not.toBe(firstChurn);
    expect(again).toEqual(firstChurn);
    expect(() => parseLockfileCached({ path: 'Gemfile.lock', content: 'GEM' })).toThrow(/^Gemfile\.lock: /);
    expect(() => parseLockfileCached({ path: 'Gemfile.lock', content: 'GEM' })).toThrow(/^Gemfile\.lock: /);
  });
});
