import { readFileSync, readdirSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// Receivers run on Deno, Bun, Workers and browsers' workers: no shipped module may touch a Node built-in.
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
    expect(files).toEqual(expect.arrayContaining(['index.ts', 'node-handler.ts', 'fastify-plugin.ts', 'fetch-handler.ts', 'verify-webhook.ts']));
  });

  it('imports no node: module, nor fastify, nor any package but core and @noble/hashes', () => {
    const imported = libraryFiles().flatMap((file) => {
      const text = readFileSync(file, 'utf8');
      return [...text.matchAll(/(?:from\s+|import\(\s*|require\(\s*)['"]([^'"]+)['"]/g)].map((m) => `${relative(srcDir, file)}: ${m[1]}`);
    });
    expect(imported.length).toBeGreaterThan(10);
    const outside = imported.filter((entry) => !/: (\.\/|@vigil\/core$|@noble\/hashes\/)/.test(entry));
    expect(outside).toEqual([]);
  });

  it('compiles without Node types', () => {
    const tsconfig = JSON.parse(readFileSync(join(srcDir, '..', 'tsconfig.json'), 'utf8')) as { compilerOptions: { types: string[] } };
    expect(tsconfig.compilerOptions.types).toEqual([]);
  });
});
