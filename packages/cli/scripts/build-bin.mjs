// Builds the `vigil` command (package.json `bin`, dist/bin.js) as an esbuild bundle: runs after
// `tsc -b` as part of `pnpm build` (docs/benchmarks.md, "Command-line start-up").
//
// Why a bundle: loading about 190 separate ES modules (the SDK, @vigil/core, zod, commander) costs
// more CPU than running their code; the same code in a few files costs about half. The library
// entry (dist/index.js, `run`) stays the modules tsc wrote.
//
// The bundle is split per command: dist/bin.js holds the program and commander's setup, and
// src/program.ts's dynamic import of each command module becomes a chunk under dist/bin-chunks/
// that loads only when its command runs, with the code several commands share in shared chunks.
// So `vigil --version` loads no SDK, a public read loads neither the scanner nor the webhooks.
//
// @vigil/sandbox and @vigil/reference-agents stay imports of the installed packages: they find their
// own files (the sandbox preload, the reference agents' bundles) next to their modules
// (`import.meta.url`), which a bundle would move. So does @vigil/mcp (`vigil mcp`), which reads its
// package.json and loads both.
// The code is not minified and keeps its names; the source maps (`.map`, without the
// sources' text) give the original files and lines with `node --enable-source-maps`.
import { readFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import process from 'node:process';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const PACKAGE_DIR = fileURLToPath(new URL('..', import.meta.url));
const OUT_DIR = join(PACKAGE_DIR, 'dist');
export const CHUNK_DIR = 'bin-chunks';

// esbuild's ESM output turns a CommonJS dependency's `require('os')` (cli-table3) into a call that
// throws ("Dynamic require … is not supported") unless a `require` is in scope.
const BANNER = "import { createRequire as __vigilCreateRequire } from 'node:module';\nconst require = __vigilCreateRequire(import.meta.url);";

/**
 * src/version.ts reads package.json one level above its own file, which a chunk under
 * dist/bin-chunks/ is not: the bundle gets the version as a constant, from the same package.json.
 */
const versionConstant = {
  name: 'version-constant',
  setup(b) {
    const { version } = JSON.parse(readFileSync(join(PACKAGE_DIR, 'package.json'), 'utf8'));
    b.onLoad({ filter: /[\\/]src[\\/]version\.ts$/ }, () => ({
      contents: `/** This package's version (package.json), written by scripts/build-bin.mjs. */\nexport const VERSION = ${JSON.stringify(version)};\n`,
      loader: 'ts',
    }));
  },
};

export async function buildBin() {
  // Chunks of an earlier build have other hashes; tsc wrote bin.* before src/bin.ts left its build.
  for (const stale of [CHUNK_DIR, 'bin.d.ts', 'bin.d.ts.map']) await rm(join(OUT_DIR, stale), { recursive: true, force: true });
  const result = await build({
    entryPoints: { bin: join(PACKAGE_DIR, 'src', 'bin.ts') },
    absWorkingDir: PACKAGE_DIR,
    outdir: OUT_DIR,
    chunkNames: `${CHUNK_DIR}/[name]-[hash]`,
    bundle: true,
    splitting: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    external: ['@vigil/sandbox', '@vigil/reference-agents', '@vigil/mcp'],
    // The workspace's tsconfig paths point `#ed25519-*` at src/ for the type checker; an installed
    // package has none, so resolve through package.json alone, as the published packages do.
    tsconfigRaw: {},
    minify: false,
    sourcemap: 'linked',
    sourcesContent: false,
    legalComments: 'inline',
    charset: 'utf8',
    banner: { js: BANNER },
    plugins: [versionConstant],
    metafile: true,
    logLevel: 'warning',
  });
  return result.metafile;
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) {
  const metafile = await buildBin();
  const files = Object.entries(metafile.outputs).filter(([path]) => !path.endsWith('.map'));
  const bytes = files.reduce((sum, [, output]) => sum + output.bytes, 0);
  console.log(`bundled dist/bin.js: ${files.length} files, ${bytes} bytes`);
}
