import type { AgentFinding } from '@vigil/core';

/**
 * (Round s30, real false alarms.) Code a server's repository keeps for its developers and its users'
 * one-off setup, not the server's runtime: build, release and maintenance scripts (`scripts/`,
 * `packages/scripts/`), eval harnesses (`evals/`, `eval-tests/`), shared test helpers (`test-utils/`,
 * `testHelpers/`, `*-tests/` packages), a setup wizard package the user runs (`packages/setup/`), and the
 * scripts of an agent skill shipped beside the server (`skills/<name>/scripts/`, which the skills track
 * judges). Found on chrome-devtools-mcp (`scripts/test.js` installing a browser by version, eval scripts
 * copying `process.env` to a child) and mongodb-mcp-server (`packages/scripts/src/sbomReport`, `packages/test-utils`).
 */
const DEVELOPMENT_PATH = /(?:^|\/)(?:scripts|evals?|test-?utils|test_utils|test-?helpers|testHelpers|testing|[\w-]+-tests)\/|(?:^|\/)packages\/(?:[\w-]+-)?setup\//i;

/** Files a package manifest runs for the user: `main`, `bin`, and the start and install scripts' files. */
export function manifestRunFiles(manifestText: string | null): Set<string> {
  const out = new Set<string>();
  if (manifestText === null) return out;
  let manifest: Record<string, unknown>;
  try {
    manifest = JSON.parse(manifestText) as Record<string, unknown>;
  } catch {
    return out;
  }
  const add = (v: unknown) => {
    if (typeof v === 'string') for (const m of v.matchAll(/(?:^|[\s'"=])(?:\.\/)?([\w@.-]+(?:\/[\w@.-]+)+|[\w@-]+\.[cm]?[jt]s)\b/g)) out.add(m[1]!.replace(/^\.\//, ''));
  };
  add(manifest.main);
  if (typeof manifest.bin === 'string') add(manifest.bin);
  else if (manifest.bin !== null && typeof manifest.bin === 'object') for (const v of Object.values(manifest.bin)) add(v);
  const scripts = manifest.scripts;
  if (scripts !== null && typeof scripts === 'object') {
    for (const [name, v] of Object.entries(scripts as Record<string, unknown>)) if (/^(?:start|serve|preinstall|install|postinstall|prepare|prepublish)$/.test(name)) add(v);
  }
  return out;
}

/** True for a development, eval, test-helper, setup-package or bundled-skill script path that the manifest does not run. */
export function isDevelopmentCode(path: string, runFiles: ReadonlySet<string>): boolean {
  return DEVELOPMENT_PATH.test(path) && !runFiles.has(path);
}

/**
 * The shared code findings of such a file, one step lower (HIGH to MED, MED to LOW): a shell command
 * or an environment copy in a release script runs on a developer's machine when they choose, not in
 * the server the user approved. A CRIT (a reverse shell, decoded payloads, an evaluator running a
 * download) stays CRIT wherever it is.
 */
export function lowerDevelopmentFinding(f: AgentFinding): AgentFinding {
  if (f.severity === 'HIGH') return { ...f, severity: 'MED' };
  if (f.severity === 'MED') return { ...f, severity: 'LOW' };
  return f;
}
