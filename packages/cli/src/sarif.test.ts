import { describe, expect, it } from 'vitest';
import { lineOf, toSarif, type VerificationForSarif } from './sarif.js';

describe('lineOf (SARIF startLine)', () => {
  it("points at a transitive npm package's own entry, not another package's requirement of it", () => {
    const lock = JSON.stringify(
      {
        name: 'app',
        lockfileVersion: 3,
        packages: {
          '': { dependencies: { 'is-odd': '3.0.1' } },
          'node_modules/is-odd': { version: '3.0.1', dependencies: { 'is-number': '^6.0.0' } },
          'node_modules/is-number': { version: '6.0.0' },
          'node_modules/other/node_modules/is-number': { version: '7.0.0' },
        },
      },
      null,
      2,
    );
    const lines = lock.split('\n');
    expect(lines[lineOf(lock, 'is-number', '6.0.0') - 1]).toBe('    "node_modules/is-number": {');
    expect(lines[lineOf(lock, 'is-number', '7.0.0') - 1]).toBe('    "node_modules/other/node_modules/is-number": {');
  });

  it("finds the entry of pnpm, yarn, bun and poetry lockfiles", () => {
    const pnpm = "packages:\n\n  is-odd@3.0.1:\n    dependencies:\n      is-number: 6.0.0\n\n  is-number@6.0.0:\n    resolution: {}\n";
    expect(lineOf(pnpm, 'is-number', '6.0.0')).toBe(7);
    const yarn = 'is-odd@^3.0.1:\n  version "3.0.1"\n  dependencies:\n    is-number "^6.0.0"\n\nis-number@^6.0.0:\n  version "6.0.0"\n';
    expect(lineOf(yarn, 'is-number', '6.0.0')).toBe(6);
    const bun = '{\n  "packages": {\n    "is-odd": ["is-odd@3.0.1", "", { "dependencies": { "is-number": "^6.0.0" } }],\n    "is-number": ["is-number@6.0.0", "", {}],\n  }\n}\n';
    expect(lineOf(bun, 'is-number', '6.0.0')).toBe(4);
    const poetry = '[[package]]\nname = "requests"\nversion = "2.32.3"\n\n[package.dependencies]\nurllib3 = ">=1.21.1"\n\n[[package]]\nname = "urllib3"\nversion = "2.2.3"\n';
    expect(lineOf(poetry, 'urllib3', '2.2.3')).toBe(9);
  });

  it('falls back to the first line naming the package with its version, then its name, then 1', () => {
    expect(lineOf('flask==3.0.0\nrequests==2.32.3\n', 'requests', '2.32.3')).toBe(2);
    expect(lineOf('a\nrequests\n', 'requests', '9.9.9')).toBe(2);
    expect(lineOf('a\nb\n', 'requests', '1.0.0')).toBe(1);
  });
});

describe('toSarif (vigil verify-repo --sarif)', () => {
  const dependency = (over: Partial<VerificationForSarif['dependencies'][number]>): VerificationForSarif['dependencies'][number] => ({
    purl: 'pkg:npm/left-pad@1.3.0',
    name: 'left-pad',
    version: '1.3.0',
    ecosystem: 'npm',
    direct: true,
    dev: false,
    files: ['package-lock.json'],
    state: 'decided',
    queued: null,
    verdict: 'ALLOW',
    published_verdict: 'ALLOW',
    failed: [],
    warnings: [],
    ...over,
  });

  it('reports a pending dependency the policy allows (the verdict is WARN for it), not a decided ALLOW', () => {
    const verification: VerificationForSarif = {
      policy: { name: 'permissive', version: 1 },
      verdict: 'WARN',
      dependencies: [
        dependency({}),
        dependency({ purl: 'pkg:npm/new-thing@0.0.1', name: 'new-thing', version: '0.0.1', state: 'pending', queued: 'requested', published_verdict: null }),
      ],
    };
    const log = toSarif(verification, [{ path: 'package-lock.json', content: '{}' }], { version: '0.0.0' }) as { runs: { results: { ruleId: string; properties: { purl: string; state: string } }[] }[] };
    const results = log.runs[0]!.results;
    expect(results.map((r) => [r.properties.purl, r.ruleId, r.properties.state])).toEqual([['pkg:npm/new-thing@0.0.1', 'vigil/warned-dependency', 'pending']]);
  });
});
