// Builds dist/bundle/main.js, the server's commands (src/main.ts) as an esbuild bundle: runs after
// `tsc -b` as part of `pnpm build`. dist/bin.js runs it for every command but `help` and `firewall`
// while it is current (src/bundle-is-current.ts: every file it was built from unchanged since, as
// dist/bundle/build.json records them), and the modules tsc wrote (dist/main.js) otherwise
// (docs/benchmarks.md, "Server start-up").
//
// Why a bundle: every `vigil-server` command loads the whole server first, about 900 ES modules
// (its own ~340, kysely's ~260, zod's ~100, the workspace packages'), and Node's module loader
// (resolving, reading and compiling each file apart) cost more CPU than a short command's own work.
// The dynamic imports of the server (the demo seed, the S3 blob store, the SBOM writer, …) become
// chunks of their own, loaded when they run, as before.
//
// What stays as it was:
// - Only ES-module packages (`"type": "module"`) are bundled. CommonJS packages (fastify, pg,
//   better-sqlite3, the AWS SDK, …) stay imports resolved from node_modules at run time: they find
//   files of their own through `__dirname` and `require`, which a bundle would move.
// - Each package is loaded once: one that a package left outside also imports is left outside too
//   (zod, which fastify-type-provider-zod imports: two copies would keep two schema registries).
// - `import.meta.url` in each bundled module is replaced by the address of the file that module
//   was (dist/…/x.js for the server's own, the package's file otherwise), so what a module finds
//   next to itself (worker threads, the dashboard's files, package.json) it still finds; worker
//   threads run the modules tsc wrote.
// - Files of earlier builds stay a week beside the new one (a process started from one may still
//   load a chunk it has not needed yet); each file is written whole (a temporary name, renamed).
import { existsSync, readFileSync, realpathSync, statSync } from 'node:fs';
import { mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { dirname, join, relative, sep } from 'node:path';
import process from 'node:process';
import { fileURLToPath } from 'node:url';
import { isBuiltin } from 'node:module';
import { build } from 'esbuild';

const PACKAGE_DIR = fileURLToPath(new URL('..', import.meta.url));
const SRC_DIR = join(PACKAGE_DIR, 'src');
const DIST_DIR = join(PACKAGE_DIR, 'dist');
const OUT_DIR = join(DIST_DIR, 'bundle');
const SERVER_ROOT = realpathSync(PACKAGE_DIR).replace(/[\\/]$/, '');
/** What the server declares it depends on: an import left outside the bundle must name one of these. */
const SERVER_DEPENDENCIES = (() => {
  const manifest = JSON.parse(readFileSync(join(PACKAGE_DIR, 'package.json'), 'utf8'));
  return new Set(Object.keys({ ...manifest.dependencies, ...manifest.optionalDependencies, ...manifest.peerDependencies }));
})();

// A CommonJS dependency's `require('os')` inside the ESM output needs a `require` in scope.
const BANNER = "import { createRequire as __vigilCreateRequire } from 'node:module';\nconst require = __vigilCreateRequire(import.meta.url);";

/** The file a bundled module stood for at run time: dist/…/x.js for src/…/x.ts, itself otherwise. */
function runtimeFileOf(path) {
  if (path.startsWith(SRC_DIR + sep)) return join(DIST_DIR, relative(SRC_DIR, path)).replace(/\.ts$/, '.js');
  return path;
}

/** Each input file's modification time and size, read just before esbuild is given its text (build.json). */
const readAs = new Map();

/**
 * Loads every module the bundle takes in: records its time and size before reading it (a file saved
 * while the build runs then reads as changed), and makes its `import.meta.url` the module's own
 * address, relative to the bundle's directory.
 */
const moduleUrls = {
  name: 'module-urls',
  setup(b) {
    b.onLoad({ filter: /\.(ts|js|mjs)$/ }, async (args) => {
      const stats = statSync(args.path);
      readAs.set(args.path, [stats.mtimeMs, stats.size]);
      const contents = await readFile(args.path, 'utf8');
      const loader = args.path.endsWith('.ts') ? 'ts' : 'js';
      if (!contents.includes('import.meta.url')) return { contents, loader, resolveDir: dirname(args.path) };
      const target = relative(OUT_DIR, runtimeFileOf(args.path)).split(sep).join('/');
      const replaced = contents.replaceAll('import.meta.url', `new URL(${JSON.stringify(target)}, import.meta.url).href`);
      return { contents: replaced, loader, resolveDir: dirname(args.path) };
    });
  },
};

/** The directory of the package a file belongs to (the nearest package.json with a name), real path. */
function packageRootOf(path) {
  for (let dir = dirname(realpathSync(path)); ; dir = dirname(dir)) {
    const manifest = join(dir, 'package.json');
    if (existsSync(manifest) && JSON.parse(readFileSync(manifest, 'utf8')).name !== undefined) return dir;
    if (dirname(dir) === dir) throw new Error(`no package.json with a name above ${path}`);
  }
}

/** Where `name` resolves from `dir` by Node's node_modules lookup (its package directory, real path), or undefined. */
function packageDirFrom(dir, name) {
  for (let at = dir; ; at = dirname(at)) {
    const candidate = join(at, 'node_modules', name, 'package.json');
    if (existsSync(candidate)) return dirname(realpathSync(candidate));
    if (dirname(at) === at) return undefined;
  }
}

const manifests = new Map();
/** A package's package.json, read once. */
const manifestOf = (root) => {
  if (!manifests.has(root)) manifests.set(root, JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')));
  return manifests.get(root);
};
const dependencyNames = (manifest) => Object.keys({ ...manifest.dependencies, ...manifest.optionalDependencies, ...manifest.peerDependencies });

/** The package name a bare import names (`@scope/name/sub` → `@scope/name`). */
const packageName = (specifier) => specifier.split('/').slice(0, specifier.startsWith('@') ? 2 : 1).join('/');

/** Whether a bare import of `name` from dist/bundle/ finds the package in `dir`, a dependency the server declares. */
const reachableFromBundle = (name, dir) => SERVER_DEPENDENCIES.has(name) && packageDirFrom(OUT_DIR, name) === dir;

/**
 * The packages left outside the bundle, decided over the dependency graph the server's manifest
 * starts (each package's dependencies, optional and peer dependencies, as pnpm installed them):
 * - every package that is not an ES-module package (`"type": "module"`);
 * - everything a package left outside depends on, so that each package is loaded once (zod, which
 *   fastify-type-provider-zod imports: two copies would keep two schema registries);
 * - a package that depends on one left outside which a bare import from dist/bundle/ would not find
 *   as the same package, as a dependency the server declares (pnpm gives each package its own
 *   dependencies): `@vigil/sandbox`, whose `tar-stream` the server has as a devDependency only.
 * Returns the graph's packages and those left outside.
 */
function decidePackages() {
  const graph = new Map();
  for (const queue = [SERVER_ROOT]; queue.length > 0; ) {
    const root = queue.pop();
    if (graph.has(root)) continue;
    const dependencies = [];
    for (const name of dependencyNames(manifestOf(root))) {
      const dir = packageDirFrom(root, name);
      if (dir === undefined) continue; // an optional dependency not installed
      dependencies.push([name, dir]);
      queue.push(dir);
    }
    graph.set(root, dependencies);
  }
  const outside = new Set([...graph.keys()].filter((root) => root !== SERVER_ROOT && manifestOf(root).type !== 'module'));
  for (let changed = true; changed; ) {
    changed = false;
    for (const [root, dependencies] of graph) {
      if (root === SERVER_ROOT) continue;
      const leaves = outside.has(root)
        ? dependencies.filter(([, dir]) => !outside.has(dir)).map(([, dir]) => dir)
        : dependencies.some(([name, dir]) => outside.has(dir) && !reachableFromBundle(name, dir))
          ? [root]
          : [];
      for (const dir of leaves) outside.add(dir);
      if (leaves.length > 0) changed = true;
    }
  }
  return { graph, outside };
}

/**
 * Bare imports of a package left outside stay imports, resolved at run time from dist/bundle/
 * (decidePackages made sure they find the same package there); every other package is bundled.
 */
function packagesOutside({ graph, outside }) {
  const found = new Map();
  const packageDir = (dir, name) => {
    const key = `${dir}\0${name}`;
    if (!found.has(key)) found.set(key, packageDirFrom(dir, name));
    return found.get(key);
  };
  return {
    name: 'packages-outside',
    setup(b) {
      b.onResolve({ filter: /^[^./#]/ }, (args) => {
        // A built-in module, even where an npm package of its name is installed (`events`, `buffer`).
        if (isBuiltin(args.path)) return undefined;
        const name = packageName(args.path);
        const root = packageDir(args.resolveDir, name);
        if (root === undefined) return undefined; // a built-in module, or esbuild reports it missing
        // A package outside the graph (imported without being declared) is judged by its kind alone.
        const leftOutside = outside.has(root) || (!graph.has(root) && manifestOf(root).type !== 'module');
        if (!leftOutside) return undefined;
        if (!reachableFromBundle(name, root)) {
          return { errors: [{ text: `${args.path}: left outside the bundle, but a bare import from dist/bundle/ would not find ${root} (imported by ${relative(PACKAGE_DIR, args.importer)})` }] };
        }
        outsideImported.add(root);
        return { path: args.path, external: true };
      });
    },
  };
}

/** The packages the bundle imports from outside (for VIGIL_BUNDLE_LIST). */
const outsideImported = new Set();

async function buildOnce(decided) {
  return build({
    entryPoints: { main: join(SRC_DIR, 'main.ts') },
    absWorkingDir: PACKAGE_DIR,
    outdir: OUT_DIR,
    chunkNames: '[name]-[hash]',
    write: false,
    bundle: true,
    splitting: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    // The files Node would load: `main` only, and no `module` condition (esbuild adds it by default).
    mainFields: ['main'],
    conditions: [],
    // Not the workspace's tsconfig: its paths point `#…` imports at src/ for the type checker. The
    // options that change what the emitted code does, as tsc compiles it.
    tsconfigRaw: { compilerOptions: { verbatimModuleSyntax: true, target: 'ES2022', useDefineForClassFields: true } },
    minify: false,
    sourcemap: 'linked',
    sourcesContent: false,
    legalComments: 'inline',
    charset: 'utf8',
    banner: { js: BANNER },
    plugins: [packagesOutside(decided), moduleUrls],
    metafile: true,
    logLevel: 'warning',
  });
}

/** How long files of earlier builds stay beside the bundle (a process started from one may still load its chunks). */
const KEEP_EARLIER_FILES_MS = 7 * 24 * 60 * 60 * 1000;

/** Writes a file whole or not at all: to a temporary name first, then renamed over the old one. */
async function writeWhole(path, contents) {
  await writeFile(`${path}.tmp`, contents);
  await rename(`${path}.tmp`, path);
}

/**
 * Builds the bundle and writes its files, each whole: the chunks, main.js, and last build.json, the
 * record bin.js checks. Files of earlier builds stay a week: a process started from one may still
 * load a chunk it has not needed yet.
 */
export async function buildBundle() {
  readAs.clear();
  const result = await buildOnce(decidePackages());
  await mkdir(OUT_DIR, { recursive: true });
  const outputs = result.outputFiles.map((file) => relative(OUT_DIR, file.path));
  // main.js last of the code: a chunk it imports is there before it is.
  const ordered = [...result.outputFiles].sort((a, b) => Number(a.path.endsWith(`${sep}main.js`)) - Number(b.path.endsWith(`${sep}main.js`)));
  for (const file of ordered) await writeWhole(file.path, file.contents);
  const inputs = Object.keys(result.metafile.inputs)
    .filter((input) => !/^\(?[a-z-]+\)?:/.test(input))
    .map((input) => {
      const path = join(PACKAGE_DIR, input);
      const [mtimeMs, size] = readAs.get(path) ?? ((stats) => [stats.mtimeMs, stats.size])(statSync(path));
      return [relative(OUT_DIR, path).split(sep).join('/'), mtimeMs, size];
    });
  await writeWhole(join(OUT_DIR, 'build.json'), `${JSON.stringify({ inputs, outputs })}\n`);
  const keep = new Set([...outputs, 'build.json']);
  for (const name of await readdir(OUT_DIR)) {
    if (keep.has(name)) continue;
    const stats = statSync(join(OUT_DIR, name), { throwIfNoEntry: false });
    if (stats !== undefined && Date.now() - stats.mtimeMs > KEEP_EARLIER_FILES_MS) await rm(join(OUT_DIR, name), { recursive: true, force: true });
  }
  return { metafile: result.metafile, outputs, leftOutside: [...outsideImported].sort() };
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) {
  const { metafile, outputs, leftOutside: outsideRoots } = await buildBundle();
  if (process.env.VIGIL_BUNDLE_LIST === '1') console.log(`left outside: ${outsideRoots.map((root) => manifestOf(root).name).join(' ')}`);
  const code = Object.entries(metafile.outputs).filter(([path]) => !path.endsWith('.map'));
  const bytes = code.reduce((sum, [, o]) => sum + o.bytes, 0);
  console.log(`bundled dist/bundle/main.js: ${Object.keys(metafile.inputs).length} modules in ${code.length} files (${outputs.length} with their maps), ${bytes} bytes`);
}
