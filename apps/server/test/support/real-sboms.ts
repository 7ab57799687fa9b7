import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A package of the fixture project, with the version the local store holds. */
export interface FixturePackage {
  name: string;
  version: string;
  purl: string;
}

export interface RealSboms {
  dir: string;
  /** Direct production dependencies, the one transitive dependency, the one development dependency. */
  debug: FixturePackage;
  picocolors: FixturePackage;
  ms: FixturePackage;
  isNumber: FixturePackage;
  /** `@cyclonedx/cyclonedx-npm --spec-version 1.6` of the project. */
  cyclonedx: Record<string, any>;
  /** `npm sbom --sbom-format spdx` (SPDX 2.3) of the project. */
  spdx: Record<string, any>;
}

const STORE = new URL('../../../../node_modules/.pnpm/', import.meta.url).pathname;

/** The newest copy of a package in the repository's pnpm store whose version starts with `prefix`. */
function fromStore(name: string, prefix: string): { dir: string; version: string } {
  const candidates = readdirSync(STORE)
    .filter((entry) => entry.startsWith(`${name}@${prefix}`) && !entry.includes('_'))
    .sort();
  const entry = candidates.at(-1);
  if (entry === undefined) throw new Error(`${name}@${prefix}*: not in the pnpm store (${STORE})`);
  const dir = join(STORE, entry, 'node_modules', name);
  const version = (JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { version: string }).version;
  return { dir, version };
}

/**
 * A small real npm project (debug → ms, picocolors, and is-number as a devDependency), installed
 * offline by copying the packages out of this repository's pnpm store into a plain node_modules,
 * then described by two real generators: @cyclonedx/cyclonedx-npm (CycloneDX 1.6) and npm's own
 * `npm sbom` (SPDX 2.3). Both read the installed tree, so neither needs the network.
 */
export function generateRealSboms(): RealSboms {
  const dir = mkdtempSync(join(tmpdir(), 'vigil-sbom-project-'));
  const pick = { debug: fromStore('debug', '4.'), ms: fromStore('ms', '2.1.'), picocolors: fromStore('picocolors', '1.'), isNumber: fromStore('is-number', '7.') };
  const names = { debug: 'debug', ms: 'ms', picocolors: 'picocolors', isNumber: 'is-number' } as const;
  for (const key of Object.keys(pick) as (keyof typeof pick)[]) {
    mkdirSync(join(dir, 'node_modules'), { recursive: true });
    cpSync(pick[key].dir, join(dir, 'node_modules', names[key]), { recursive: true, dereference: true });
  }
  writeFileSync(
    join(dir, 'package.json'),
    JSON.stringify({
      name: 'sbom-fixture',
      version: '1.0.0',
      private: true,
      dependencies: { debug: pick.debug.version, picocolors: pick.picocolors.version },
      devDependencies: { 'is-number': pick.isNumber.version },
    }),
  );
  // The package exports no subpath: its bin is run from the server's node_modules (a devDependency).
  const cli = new URL('../../node_modules/@cyclonedx/cyclonedx-npm/bin/cyclonedx-npm-cli.js', import.meta.url).pathname;
  // Under pnpm, npm_execpath names pnpm: cyclonedx-npm would run it as npm.
  const env = { ...process.env, npm_execpath: undefined, npm_config_offline: 'true', npm_config_update_notifier: 'false' };
  execFileSync(process.execPath, [cli, '--spec-version', '1.6', '--output-format', 'JSON', '--output-file', join(dir, 'bom.cdx.json')], { cwd: dir, env, stdio: 'pipe' });
  const spdx = execFileSync('npm', ['sbom', '--sbom-format', 'spdx'], { cwd: dir, env, stdio: ['ignore', 'pipe', 'pipe'], maxBuffer: 64 * 1024 * 1024 }).toString('utf8');
  const of = (key: keyof typeof pick): FixturePackage => ({ name: names[key], version: pick[key].version, purl: `pkg:npm/${names[key]}@${pick[key].version}` });
  return {
    dir,
    debug: of('debug'),
    ms: of('ms'),
    picocolors: of('picocolors'),
    isNumber: of('isNumber'),
    cyclonedx: JSON.parse(readFileSync(join(dir, 'bom.cdx.json'), 'utf8')) as Record<string, any>,
    spdx: JSON.parse(spdx) as Record<string, any>,
  };
}
