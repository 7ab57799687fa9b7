// Builds each reference agent into one `vigil-agent-bundle/1` (docs/agents.md, "Bundles of the
// reference agents"): runs after `tsc -b` as part of `pnpm build`.
//
// For every track directory that has `src/reference/<dir>/agent-main.ts`, the compiled
// `dist/reference/<dir>/agent-main.js` is bundled by esbuild into one self-contained ES module (every
// dependency inlined) and written as `dist/bundles/<track>.bundle.json` in normalized canonical form,
// so the bytes, and the agent hash, depend on the sources alone.
import { Buffer } from 'node:buffer';
import console from 'node:console';
import { existsSync } from 'node:fs';
import { mkdir, readdir, rm, writeFile } from 'node:fs/promises';
import { dirname, join, relative, resolve, sep } from 'node:path';
import process from 'node:process';
import { URL, fileURLToPath, pathToFileURL } from 'node:url';
import { AGENT_BUNDLE_FORMAT, AgentBundle, agentHash, canonicalJson, normalizeAgentBundle } from '@vigil/core';
import { build } from 'esbuild';

/** Track directory under src/reference → the API's track name. */
export const REFERENCE_TRACK_DIRS = { packages: 'packages', skills: 'skills', 'mcp-servers': 'mcp_servers', repositories: 'repositories' };

/** The file name of the bundled agent inside the bundle. */
export const BUNDLE_ENTRYPOINT = 'agent.mjs';

// esbuild's ESM output turns a CommonJS dependency's `require('fs')` into a call that throws
// ("Dynamic require … is not supported") unless a `require` is in scope.
const BANNER = "import { createRequire as __vigilCreateRequire } from 'node:module';\nconst require = __vigilCreateRequire(import.meta.url);";

/**
 * Bundles one entry file (JavaScript or TypeScript) with everything it imports into a normalized
 * `vigil-agent-bundle/1` whose single file is `agent.mjs`. `workingDir` is what the comments in the
 * output name paths relative to: keep it fixed (the package directory) for reproducible bytes.
 */
export async function bundleAgentEntry(entryFile, { workingDir } = {}) {
  const result = await build({
    entryPoints: [resolve(entryFile)],
    absWorkingDir: resolve(workingDir ?? dirname(entryFile)),
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    // jsonc-parser's `main` is a UMD build whose dynamic requires esbuild cannot follow; its ESM build bundles.
    mainFields: ['module', 'main'],
    external: [],
    write: false,
    minify: false,
    sourcemap: false,
    legalComments: 'inline',
    charset: 'utf8',
    banner: { js: BANNER },
    logLevel: 'silent',
  });
  const output = result.outputFiles[0];
  if (output === undefined) throw new Error(`esbuild wrote nothing for ${entryFile}`);
  const bundle = AgentBundle.parse({
    format: AGENT_BUNDLE_FORMAT,
    entrypoint: BUNDLE_ENTRYPOINT,
    files: [{ path: BUNDLE_ENTRYPOINT, mode: '0644', content_base64: Buffer.from(output.contents).toString('base64') }],
  });
  return normalizeAgentBundle(bundle);
}

/**
 * Finds the reference agents of a package directory and writes their bundles to `<outDir>`
 * (default `<packageDir>/dist/bundles`), replacing what was there. Returns what it wrote.
 */
export async function buildReferenceBundles({ packageDir, outDir } = {}) {
  const root = resolve(packageDir ?? fileURLToPath(new URL('..', import.meta.url)));
  const out = resolve(outDir ?? join(root, 'dist', 'bundles'));
  await rm(out, { recursive: true, force: true });
  await mkdir(out, { recursive: true });
  const written = [];
  const present = existsSync(join(root, 'src', 'reference')) ? await readdir(join(root, 'src', 'reference')) : [];
  for (const [dir, track] of Object.entries(REFERENCE_TRACK_DIRS)) {
    if (!present.includes(dir) || !existsSync(join(root, 'src', 'reference', dir, 'agent-main.ts'))) continue;
    const compiled = join(root, 'dist', 'reference', dir, 'agent-main.js');
    if (!existsSync(compiled)) throw new Error(`${relative(root, compiled).split(sep).join('/')} is missing: run tsc -b first`);
    const bundle = await bundleAgentEntry(compiled, { workingDir: root });
    const file = join(out, `${track}.bundle.json`);
    await writeFile(file, canonicalJson(bundle));
    written.push({ track, file, agentHash: agentHash(bundle), bytes: Buffer.from(bundle.files[0].content_base64, 'base64').length });
  }
  return written;
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  const written = await buildReferenceBundles();
  for (const entry of written) console.log(`bundled ${entry.track}: ${entry.bytes} bytes, ${entry.agentHash}`);
  if (written.length === 0) console.log('no reference agent has an agent-main.ts yet: no bundle built');
}
