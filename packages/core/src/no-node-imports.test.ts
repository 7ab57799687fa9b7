import { readFileSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { join, relative, sep } from 'node:path';
import { describe, expect, it } from 'vitest';

// The library runs in browsers and edge runtimes, so its shipped modules may not touch Node built-ins.
const srcDir = fileURLToPath(new URL('.', import.meta.url));

function libraryFiles(): string[] {
  return (readdirSync(srcDir, { recursive: true }) as string[])
    .filter((file) => file.endsWith('.ts') && !file.endsWith('.test.ts'))
    .filter((file) => !file.split(sep).includes('test-support'))
    .map((file) => join(srcDir, file));
}

describe('library main path', () => {
  it('covers every shipped module', () => {
    const files = libraryFiles().map((file) => relative(srcDir, file));
    expect(files).toContain('index.ts');
    expect(files).toContain(join('schemas', 'rounds.ts'));
    expect(files.length).toBeGreaterThanOrEqual(20);
  });

  it('imports no node: modules', () => {
    const offenders = libraryFiles().filter((file) => {
      const text = readFileSync(file, 'utf8');
      return /from\s+['"]node:/.test(text) || /import\(\s*['"]node:/.test(text) || /require\(\s*['"]node:/.test(text);
    });
    expect(offenders.map((file) => relative(srcDir, file))).toEqual([]);
  });
});
