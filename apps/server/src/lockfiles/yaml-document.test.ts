import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { YamlDocument } from './yaml-document.js';

const FIXTURES = new URL('../../test/fixtures/lockfiles/', import.meta.url).pathname;
const FILES = [
  ['pnpm 6', `${FIXTURES}pnpm-v6/pnpm-lock.yaml`],
  ['pnpm 9', `${FIXTURES}pnpm-v9/pnpm-lock.yaml`],
  ['Yarn Berry', `${FIXTURES}yarn-berry/yarn.lock`],
  ["this repository's own pnpm-lock.yaml", new URL('../../../../pnpm-lock.yaml', import.meta.url).pathname],
] as const;

describe('YamlDocument: the fast reader agrees with the positional parser', () => {
  it.each(FILES)('%s: the same value, and every entry of every top-level map on the same line', (_name, file) => {
    const text = readFileSync(file, 'utf8');
    const fast = YamlDocument.parse('lock', text);
    const positional = YamlDocument.parseWithPositions('lock', text);
    expect(fast.value).toEqual(positional.value);
    const root = positional.value as Record<string, unknown>;
    const sections: (string | null)[] = [null, ...Object.keys(root).filter((k) => typeof root[k] === 'object' && root[k] !== null && !Array.isArray(root[k]))];
    let compared = 0;
    for (const section of sections) {
      const keys = Object.keys(section === null ? root : (root[section] as Record<string, unknown>));
      for (const key of keys) {
        expect(fast.lineOfEntry(section, key), `${section ?? '(top)'} / ${key}`).toBe(positional.lineOfEntry(section, key));
        compared += 1;
      }
    }
    expect(compared).toBeGreaterThan(10);
  });

  it('reads quoted keys with their escapes, and falls back to the parser for what the scan cannot read', () => {
    const text = [
      'lockfileVersion: \'9.0\'',
      'packages:',
      '  # a comment',
      "  'it''s@1.0.0':",
      '    resolution: {integrity: sha512-x}',
      '  "tab\\there@1.0.0":',
      '    resolution: {integrity: sha512-y}',
      '  plain@1.0.0: {}',
      '  ? complex@1.0.0',
      '  : {}',
      '',
    ].join('\n');
    const fast = YamlDocument.parse('pnpm-lock.yaml', text);
    expect(fast.lineOfEntry('packages', "it's@1.0.0")).toBe(4);
    expect(fast.lineOfEntry('packages', 'tab\there@1.0.0')).toBe(6);
    expect(fast.lineOfEntry('packages', 'plain@1.0.0')).toBe(8);
    expect(fast.lineOfEntry('packages', 'complex@1.0.0')).toBe(9);
    expect(fast.lineOfEntry(null, 'packages')).toBe(2);
    expect(fast.lineAt(['packages', 'plain@1.0.0'])).toBe(8);
  });

  it('leaves files with anchors, and files js-yaml refuses, to the positional parser and its refusals', () => {
    const anchored = YamlDocument.parse('pnpm-lock.yaml', 'a: &x [1, 2]\nb: *x\n');
    expect(anchored.value).toEqual({ a: [1, 2], b: [1, 2] });
    expect(() => YamlDocument.parse('pnpm-lock.yaml', 'packages:\n  a: 1\n  a: 2\n')).toThrow('pnpm-lock.yaml: line 3: invalid YAML: duplicate key "a"');
    expect(() => YamlDocument.parse('pnpm-lock.yaml', 'packages: [\n')).toThrow(/^pnpm-lock\.yaml: line \d+: invalid YAML: /);
  });
});
