import type { AgentFinding } from '@vigil/core';
import { posix } from 'node:path';
import { readArtifactText, type ArtifactFile } from '../common/artifact-files.js';

/**
 * (round s31b) Test folders and the specimens they hold. A package's tests and fixtures are files the
 * package ships but never runs: nothing imports them, no install step starts them, no entry point names
 * them. A scanner's or linter's fixtures are attack specimens on purpose (a `.pth` that runs code, an exec of
 * base64, a webhook in a config) and read as text by its tests. A finding in such a file is reported LOW
 * (a specimen is a sample, not a step the package takes). A test-folder file that something does reach keeps its severity:
 * one that install-time code or an entry point runs, or whose name (file name, name without extension,
 * path) the package's own code outside test folders or its build and manifest files mention (`require('../test/setup')`,
 * `from tests.fixtures import payload`, a `postinstall` naming it, a hatch `force-include` of it), or whose
 * folder that code names as a path (`readdirSync(join(__dirname, 'test/fixtures'))`).
 */

/** A folder of tests or fixtures: any path segment so named. */
export const TEST_FOLDER = /(?:^|\/)(?:tests?|__tests__|testing|specs?|fixtures?|__fixtures__|testdata|test[-_]data|__mocks__)\//i;
const CODE_FILE = /\.(?:[cm]?[jt]sx?|py|pyw|sh|bash|ps1|bat|cmd)$/i;
const DECLARATION_FILE = /\.d\.[cm]?ts$/i;
/** Build and manifest files that can place or run a file (read whole, except package.json). */
const BUILD_FILE = /^(?:setup\.py|setup\.cfg|pyproject\.toml|hatch_build\.py|build\.py|binding\.gyp|[^/]*\.gypi?|Makefile|CMakeLists\.txt|meson\.build)$/;
/** Lifecycle scripts npm runs on install (not `test`, which only a developer runs). */
const INSTALL_SCRIPTS = ['preinstall', 'install', 'postinstall', 'prepare', 'preprepare', 'postprepare', 'prepublish', 'prepack', 'postpack'];
/** Text read to find references, at most: past it every test-folder file counts as reached. */
const MAX_REFERENCE_BYTES = 16 * 1024 * 1024;

const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

export interface TestFolderContext {
  byPath: ReadonlyMap<string, ArtifactFile>;
  /** Files install-time code runs, and the package's entry points. */
  reached: ReadonlySet<string>;
  manifest: Record<string, unknown> | null;
}

/** The findings with those in test-folder files that nothing in the package reaches lowered to LOW. */
export async function lowerUnreachedTestFindings(findings: AgentFinding[], ctx: TestFolderContext): Promise<AgentFinding[]> {
  const candidates = new Set(findings.map((f) => f.file).filter((f): f is string => typeof f === 'string' && TEST_FOLDER.test(f) && !ctx.reached.has(f) && ctx.byPath.has(f)));
  if (candidates.size === 0) return findings;
  const referrers = await referringTexts(ctx);
  if (referrers === null) return findings;
  const unreached = new Set(candidates);
  // A test-folder file that is reached reaches what it names in turn (two rounds: runtime → helper → fixture).
  const reachedTests: { rel: string; text: string }[] = [];
  for (let round = 0; round < 3; round++) {
    let changed = false;
    for (const rel of [...unreached]) {
      if (!namedBy(rel, referrers.runtime, true) && !namedBy(rel, referrers.build, false) && !namedBy(rel, reachedTests, true)) continue;
      unreached.delete(rel);
      changed = true;
      const file = ctx.byPath.get(rel);
      const text = file === undefined || file.size > 1024 * 1024 ? null : await readArtifactText(file);
      if (text !== null) reachedTests.push({ rel, text });
    }
    if (!changed) break;
  }
  if (unreached.size === 0) return findings;
  return findings.map((f) => (f.file !== undefined && unreached.has(f.file) && f.severity !== 'LOW' ? { ...f, severity: 'LOW' as const, evidence: `${f.evidence ?? ''} (in a test folder nothing in the package runs or imports)`.trim() } : f));
}

/** Does any of `texts` name `rel`: its path, file name or name without extension as a word, or (with `folders`) its folder as a path? */
function namedBy(rel: string, texts: readonly { rel: string; text: string }[], folders: boolean): boolean {
  const base = posix.basename(rel);
  const stem = base.replace(/\.[^.]+$/, '');
  const dir = posix.dirname(rel);
  const word = (s: string) => new RegExp(`(?<![\\w$-])${escapeRe(s)}(?![\\w$-])`);
  const names = [word(stem), word(base), word(rel.replace(/\.[^./]+$/, ''))];
  // The folder as a path (`'test/fixtures'`, `"fixtures/"`), not the bare word `test` that any code has.
  const inner = dir.split('/').at(-1) ?? dir;
  // …or as a Python package path (`import_module('tests.fixtures.' + name)`).
  const dotted = dir.includes('/') ? [new RegExp(`(?:^|['"\`.\\s])${escapeRe(dir.replace(/\//g, '.'))}(?:['"\`.\\s]|$)`, 'm')] : [];
  const folderRes = folders ? [new RegExp(`(?:^|['"\`/\\\\])${escapeRe(dir)}(?:['"\`/\\\\]|$)`), ...dotted, ...(TEST_FOLDER.test(`${inner}/`) && !/^tests?$/i.test(inner) ? [new RegExp(`['"\`/\\\\]${escapeRe(inner)}['"\`/\\\\]`)] : [])] : [];
  return texts.some((t) => t.rel !== rel && (names.some((re) => re.test(t.text)) || folderRes.some((re) => re.test(t.text))));
}

/** The package's own code outside test folders, and its build and manifest files (package.json: what runs or is loaded). */
async function referringTexts(ctx: TestFolderContext): Promise<{ runtime: { rel: string; text: string }[]; build: { rel: string; text: string }[] } | null> {
  const runtime: { rel: string; text: string }[] = [];
  const build: { rel: string; text: string }[] = [];
  let bytes = 0;
  for (const [rel, file] of ctx.byPath) {
    if (TEST_FOLDER.test(rel)) continue;
    const isCode = CODE_FILE.test(rel) && !DECLARATION_FILE.test(rel);
    const isBuild = BUILD_FILE.test(posix.basename(rel)) && !rel.includes('/');
    if (!isCode && !isBuild) continue;
    bytes += file.size;
    if (bytes > MAX_REFERENCE_BYTES) return null;
    const text = await readArtifactText(file);
    if (text === null) continue;
    // Build files are read for names only: `find_packages(exclude=['tests'])` names the folder to leave it out.
    (isBuild ? build : runtime).push({ rel, text });
  }
  const m = ctx.manifest;
  if (m !== null) {
    const scripts = typeof m.scripts === 'object' && m.scripts !== null ? (m.scripts as Record<string, unknown>) : {};
    const loaded = [m.main, m.module, m.browser, m.bin, m.exports, ...INSTALL_SCRIPTS.map((s) => scripts[s])];
    build.push({ rel: 'package.json', text: JSON.stringify(loaded) });
  }
  return { runtime, build };
}

/**
 * (round s31b) Whether a `.pth` file of a Python package lands where Python's site module reads it: the top
 * of site-packages. In a wheel that is a file at the wheel's root or directly under `<name>.data/purelib/`
 * or `platlib/` (or a `site-packages/` folder of the data scheme); in a source distribution a file at its
 * root, or one the build files name (`data_files`, a hatch `force-include`, `shared-data`). A `.pth` in any
 * other folder (a package directory, `tests/fixtures/`) is never processed at start.
 */
export async function pthAtSitePackagesTop(rel: string, kind: string, byPath: ReadonlyMap<string, ArtifactFile>): Promise<boolean> {
  if (!rel.includes('/')) return true;
  if (/^[^/]+\.data\/(?:purelib|platlib)\/[^/]+\.pth$/i.test(rel) || /(?:^|\/)(?:site|dist)-packages\/[^/]+\.pth$/i.test(rel)) return true;
  if (kind === 'wheel') return false;
  const base = posix.basename(rel);
  for (const name of ['setup.py', 'setup.cfg', 'pyproject.toml']) {
    const file = byPath.get(name);
    const text = file === undefined || file.size > 1024 * 1024 ? null : await readArtifactText(file);
    if (text?.includes(base)) return true;
  }
  return false;
}
