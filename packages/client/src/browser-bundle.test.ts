import { gzipSync } from 'node:zlib';
import { fileURLToPath } from 'node:url';
import { build, type Metafile } from 'esbuild';
import { describe, expect, it } from 'vitest';

// What a web app gets when it bundles this package: built from dist/ through package.json
// `exports` and `imports` (browser conditions, so never the `node` ones), as a user's bundler
// would. bench/bundle-size.mjs prints the sizes and the bytes per package.

const PACKAGE_DIR = fileURLToPath(new URL('..', import.meta.url));

async function bundle(source: string): Promise<{ gzipBytes: number; inputs: string[] }> {
  const result = await build({
    stdin: { contents: source, resolveDir: PACKAGE_DIR, loader: 'js' },
    bundle: true,
    platform: 'browser',
    format: 'esm',
    target: 'es2022',
    minify: true,
    write: false,
    metafile: true,
    logLevel: 'silent',
    // The workspace's tsconfig paths point `#ed25519-*` at src/ for the type checker; a published
    // package has none, so resolve through package.json alone.
    tsconfigRaw: {},
  });
  const output = Object.values((result.metafile as Metafile).outputs)[0]!;
  return { gzipBytes: gzipSync(result.outputFiles[0]!.contents, { level: 9 }).byteLength, inputs: Object.keys(output.inputs) };
}

describe('browser bundle', () => {
  // A failed build would mean a browser cannot load the package at all: esbuild refuses `node:`
  // built-ins on the browser platform.
  it.each([
    ['Vigil', "export { Vigil } from '@vigil/client';"],
    ['SignedVigilClient', "export { SignedVigilClient, keypairFromSeed } from '@vigil/client';"],
  ])('%s bundles for browsers without WASM or Node built-ins', async (_name, source) => {
    const { inputs } = await bundle(source);
    expect(inputs.filter((path) => /wasm|polkadot/i.test(path))).toEqual([]);
    // Both verify or sign ed25519 (offline attestation checks, signed requests): the portable backend, never the native one.
    expect(inputs.some((path) => path.includes('ed25519-portable'))).toBe(true);
    expect(inputs.filter((path) => path.includes('ed25519-native.js'))).toEqual([]);
  });

  it('keeps the signed client under its 60 KB gzipped target', async () => {
    const { gzipBytes } = await bundle("export { SignedVigilClient, keypairFromSeed } from '@vigil/client';");
    expect(gzipBytes).toBeLessThan(60 * 1024);
  });
});
