import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// The native fast path must never reach a browser or edge bundle. The choice is made by
// package.json `imports` conditions; these tests walk the module graph the way a bundler
// would, under Node's conditions and under a browser's, from the sources and from dist.
const packageDir = fileURLToPath(new URL('..', import.meta.url));
const pkg = JSON.parse(readFileSync(join(packageDir, 'package.json'), 'utf8')) as {
  imports: Record<string, Record<string, string>>;
  dependencies: Record<string, string>;
};
const NODE = ['node', 'import', 'default'];
const BROWSER = ['browser', 'worker', 'import', 'default'];
const IMPORT_RE = /^\s*(?:import|export)\s(?:[^'";]*?\sfrom\s)?\s*['"]([^'"]+)['"]/gm;

type Layout = 'src' | 'dist';

function conditionalTarget(specifier: string, conditions: string[]): string {
  const entry = pkg.imports[specifier];
  if (!entry) throw new Error(`${specifier} is not in package.json imports`);
  const key = Object.keys(entry).find((k) => k !== 'types' && conditions.includes(k));
  if (!key) throw new Error(`${specifier} has no target for ${conditions.join(',')}`);
  return entry[key]!;
}

function toLayout(distPath: string, layout: Layout): string {
  return layout === 'dist' ? distPath : distPath.replace(/^\.\/dist\//, './src/').replace(/\.js$/, '.ts');
}

/** Every file reached from the entry, and every import that leaves the package. */
function moduleGraph(layout: Layout, conditions: string[]): { files: string[]; external: string[] } {
  const entry = join(packageDir, layout, layout === 'src' ? 'index.ts' : 'index.js');
  const files = new Set<string>();
  const external = new Set<string>();
  const visit = (file: string) => {
    if (files.has(file)) return;
    files.add(file);
    for (const match of readFileSync(file, 'utf8').matchAll(IMPORT_RE)) {
      const specifier = match[1]!;
      if (/^\s*import\s+type\s/.test(match[0]) || /^\s*export\s+type\s/.test(match[0])) continue;
      if (specifier.startsWith('.')) {
        const target = resolve(dirname(file), specifier);
        visit(layout === 'src' ? target.replace(/\.js$/, '.ts') : target);
      } else if (specifier.startsWith('#')) {
        visit(join(packageDir, toLayout(conditionalTarget(specifier, conditions), layout)));
      } else {
        external.add(specifier);
      }
    }
  };
  visit(entry);
  return { files: [...files].map((f) => relative(packageDir, f)).sort(), external: [...external].sort() };
}

function packageName(specifier: string): string {
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? `${parts[0]}/${parts[1]}` : parts[0]!;
}

describe('package.json imports map', () => {
  it('sends Node to the native module and everything else to portable code', () => {
    expect(pkg.imports['#ed25519-default']).toEqual({
      types: './dist/ed25519-native.d.ts',
      node: './dist/ed25519-native.js',
      default: './dist/ed25519-portable.js',
    });
    expect(conditionalTarget('#ed25519-native', BROWSER)).toBe('./dist/ed25519-native-unavailable.js');
    for (const entry of Object.values(pkg.imports)) {
      for (const target of Object.values(entry)) {
        expect(existsSync(join(packageDir, toLayout(target.replace(/\.d\.ts$/, '.js'), 'src')))).toBe(true);
      }
    }
  });
});

describe.each<Layout>(['src', 'dist'])('module graph from %s/index', (layout) => {
  const built = layout === 'src' || existsSync(join(packageDir, 'dist', 'index.js'));
  if (!built) console.warn('seam.test.ts: dist/ not built, skipping the dist graph (run `npx tsc -b`)');

  it.skipIf(!built)('reaches node:crypto under Node conditions', () => {
    const graph = moduleGraph(layout, NODE);
    expect(graph.external).toContain('node:crypto');
    expect(graph.files).toContain(join(layout, layout === 'src' ? 'ed25519-native.ts' : 'ed25519-native.js'));
  });

  it.skipIf(!built)('touches no Node built-in under browser conditions', () => {
    const graph = moduleGraph(layout, BROWSER);
    expect(graph.external.filter((s) => s.startsWith('node:'))).toEqual([]);
    expect(graph.files.some((f) => f.includes('ed25519-native.'))).toBe(false);
    expect(graph.files).toContain(join(layout, layout === 'src' ? 'ed25519-portable.ts' : 'ed25519-portable.js'));
  });

  it.skipIf(!built)('imports only declared dependencies', () => {
    for (const conditions of [NODE, BROWSER]) {
      const undeclared = moduleGraph(layout, conditions)
        .external.filter((s) => !s.startsWith('node:'))
        .filter((s) => !(packageName(s) in pkg.dependencies));
      expect(undeclared).toEqual([]);
    }
  });
});

describe('dist', () => {
  it.skipIf(!existsSync(join(packageDir, 'dist', 'index.js')))('has every file the imports map names', () => {
    for (const entry of Object.values(pkg.imports)) {
      for (const target of Object.values(entry)) expect(existsSync(join(packageDir, target)), target).toBe(true);
    }
  });
});
