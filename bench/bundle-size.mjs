// What @vigil/client weighs in a browser: each entry below is bundled the way a web app's bundler
// would (esbuild, platform browser, ESM, minified, tree-shaken through the packages' `exports`),
// then gzipped. Exits 1 when an entry exceeds its target or when any bundle carries WebAssembly.
// Run after `pnpm build`:  node bench/bundle-size.mjs   (BUNDLE_SIZE_VERBOSE=1 lists every input)
import { gzipSync } from 'node:zlib';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const ENTRIES = [
  {
    name: 'Vigil (every customer call)',
    source: "export { Vigil } from '@vigil/client';",
    targetGzip: 70 * 1024,
  },
  {
    name: 'SignedVigilClient (validator)',
    source: "export { SignedVigilClient, keypairFromSeed } from '@vigil/client';",
    targetGzip: 60 * 1024,
  },
];

const here = dirname(fileURLToPath(import.meta.url));
const kb = (bytes) => `${(bytes / 1024).toFixed(1)} KB`;
const packageOf = (path) => {
  const match = /node_modules\/((?:@[^/]+\/)?[^/]+)\/(?!.*node_modules\/)/.exec(path);
  if (match) return match[1];
  const workspace = /packages\/([^/]+)\//.exec(path);
  return workspace ? `@vigil/${workspace[1]}` : path;
};

let failed = false;
console.log(`${'entry'.padEnd(32)} ${'minified'.padStart(10)} ${'gzip'.padStart(10)} ${'target (gzip)'.padStart(14)}`);
const details = [];
for (const entry of ENTRIES) {
  const result = await build({
    stdin: { contents: entry.source, resolveDir: here, loader: 'js' },
    bundle: true,
    platform: 'browser',
    format: 'esm',
    target: 'es2022',
    minify: true,
    write: false,
    metafile: true,
    logLevel: 'silent',
    // The workspace's tsconfig.json files map `#ed25519-*` to src/ for the type checker; a published
    // package has none of them, so resolve through package.json `imports` alone, as users will.
    tsconfigRaw: {},
  });
  const code = result.outputFiles[0].contents;
  const gzip = gzipSync(code, { level: 9 }).byteLength;
  const output = Object.values(result.metafile.outputs)[0];
  const byPackage = new Map();
  for (const [path, { bytesInOutput }] of Object.entries(output.inputs)) {
    const name = packageOf(path);
    byPackage.set(name, (byPackage.get(name) ?? 0) + bytesInOutput);
  }
  const wasm = Object.keys(output.inputs).filter((path) => /wasm/i.test(path));
  const over = gzip > entry.targetGzip;
  if (over || wasm.length > 0) failed = true;
  console.log(
    `${entry.name.padEnd(32)} ${kb(code.byteLength).padStart(10)} ${kb(gzip).padStart(10)} ${`< ${kb(entry.targetGzip)}`.padStart(14)}${over ? '  OVER' : ''}`,
  );
  details.push({ entry, byPackage, wasm, inputs: output.inputs });
}

for (const { entry, byPackage, wasm, inputs } of details) {
  console.log(`\n${entry.name}, minified bytes by package:`);
  for (const [name, bytes] of [...byPackage].sort((a, b) => b[1] - a[1])) {
    console.log(`  ${name.padEnd(40)} ${kb(bytes).padStart(10)}`);
  }
  if (wasm.length > 0) console.log(`  CARRIES WASM: ${wasm.join(', ')}`);
  if (process.env.BUNDLE_SIZE_VERBOSE) {
    for (const [path, { bytesInOutput }] of Object.entries(inputs)) console.log(`    ${path} ${bytesInOutput}`);
  }
}

if (failed) {
  console.error('\nbundle-size: an entry is over its target or carries WebAssembly');
  process.exit(1);
}
