import type { ArchiveRead } from '../archive/archive-listing.js';
import { licenseFromClassifiers } from './license-classifiers.js';
import { parseCoreMetadata } from './core-metadata.js';

/**
 * What an archive says about itself as a package (docs/package-facts.md): its declared license and
 * the code it runs when installed. Read from the archive alone: nothing here knows the registry.
 */
export type PackageKind = 'npm' | 'pypi-wheel' | 'pypi-sdist';

export interface ArchivePackageFacts {
  kind: PackageKind;
  /** The license as declared (an SPDX expression when the package wrote one; any other text as written); null when none is declared. */
  license: string | null;
  /** Where the license was read: `package.json license`, `package.json licenses`, `License-Expression`, `License`, `classifier`; null with no license. */
  license_source: string | null;
  /** What runs on install, in the order it runs (docs/package-facts.md). */
  install_scripts: string[];
}

/** The lifecycle scripts npm runs when it installs a package from a tarball, in the order it runs them. */
export const NPM_INSTALL_SCRIPTS = ['preinstall', 'install', 'postinstall'] as const;

/** Declared text longer than this is kept cut at this length (a `License:` field sometimes holds the whole license text). */
export const MAX_LICENSE_CHARS = 1024;

const depthOf = (name: string) => stripDotSlash(name).split('/').length - 1;
const baseOf = (name: string) => stripDotSlash(name).split('/').pop() ?? '';
function stripDotSlash(name: string): string {
  return name.startsWith('./') ? name.slice(2) : name;
}

/**
 * The entries the facts are read from: a file directly under the archive's top folder (npm packs
 * everything under `package/`, an sdist under `<name>-<version>/`), or a wheel's
 * `<name>.dist-info/METADATA`.
 */
export function isPackageFactFile(name: string): boolean {
  const base = baseOf(name);
  if (depthOf(name) !== 1) return false;
  if (base === 'package.json' || base === 'PKG-INFO') return true;
  return base === 'METADATA' && /\.dist-info$/.test(stripDotSlash(name).split('/')[0] ?? '');
}

function topLevelFile(read: ArchiveRead, base: string): string | undefined {
  return read.listing.files?.find((f) => depthOf(f.name) === 1 && baseOf(f.name) === base)?.name;
}

/**
 * The facts of an archive read with `capture: isPackageFactFile`, or undefined when it is not a
 * package archive this reads (not an npm tarball, a wheel or an sdist; unreadable, or its metadata
 * file missing or over the capture limit). `ecosystem` (the purl type it was uploaded as) decides
 * between a tarball that holds both a package.json and a PKG-INFO.
 */
export function packageFactsOf(read: ArchiveRead, ecosystem: string | null): ArchivePackageFacts | undefined {
  const { listing } = read;
  if (listing.status !== 'ok' || listing.files === null) return undefined;
  if (listing.format === 'zip') {
    const metadata = [...read.files].find(([name]) => baseOf(name) === 'METADATA');
    return metadata ? pythonFacts('pypi-wheel', metadata[1]) : undefined;
  }
  if (listing.format !== 'tgz') return undefined;
  const packageJson = topLevelFile(read, 'package.json');
  const pkgInfo = topLevelFile(read, 'PKG-INFO');
  const preferPython = pkgInfo !== undefined && (packageJson === undefined || ecosystem === 'pypi');
  if (preferPython) {
    const bytes = read.files.get(pkgInfo);
    if (bytes === undefined) return undefined;
    const facts = pythonFacts('pypi-sdist', bytes);
    // Installing an sdist builds it first: setup.py, or the build backend pyproject.toml names, runs.
    if (topLevelFile(read, 'setup.py') !== undefined) facts.install_scripts = ['setup.py'];
    else if (topLevelFile(read, 'pyproject.toml') !== undefined) facts.install_scripts = ['build-backend'];
    else facts.install_scripts = [];
    return facts;
  }
  if (packageJson === undefined) return undefined;
  const bytes = read.files.get(packageJson);
  if (bytes === undefined) return undefined;
  return npmFacts(bytes, topLevelFile(read, 'binding.gyp') !== undefined);
}

function cut(text: string): string {
  return text.length > MAX_LICENSE_CHARS ? text.slice(0, MAX_LICENSE_CHARS) : text;
}

function licenseName(value: unknown): string | null {
  if (typeof value === 'string') return value.trim() === '' ? null : value.trim();
  if (value !== null && typeof value === 'object' && typeof (value as { type?: unknown }).type === 'string') {
    return licenseName((value as { type: string }).type);
  }
  return null;
}

/** package.json as npm reads it; a package.json that is not a JSON object gives facts with nothing declared. */
function npmFacts(bytes: Buffer, hasBindingGyp: boolean): ArchivePackageFacts {
  let manifest: Record<string, unknown> = {};
  try {
    const parsed = JSON.parse(bytes.toString('utf8').replace(/^\uFEFF/, '')) as unknown;
    if (parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed)) manifest = parsed as Record<string, unknown>;
  } catch {
    // npm would refuse to install it; the facts say nothing is declared.
  }
  let license = licenseName(manifest.license);
  let source: string | null = license === null ? null : 'package.json license';
  if (license === null && Array.isArray(manifest.licenses)) {
    // The legacy `licenses` array lists licenses to choose from (npm's docs write it as an SPDX OR).
    const names = manifest.licenses.map(licenseName).filter((n): n is string => n !== null);
    if (names.length > 0) {
      license = names.length === 1 ? names[0]! : `(${names.join(' OR ')})`;
      source = 'package.json licenses';
    }
  }
  const scripts = manifest.scripts !== null && typeof manifest.scripts === 'object' ? (manifest.scripts as Record<string, unknown>) : {};
  const declared = (name: string) => typeof scripts[name] === 'string' && (scripts[name] as string).trim() !== '';
  const install = NPM_INSTALL_SCRIPTS.filter(declared);
  // npm's own rule: a binding.gyp at the package root, with no install or preinstall script and
  // `gypfile` not false, makes the install script `node-gyp rebuild`.
  if (hasBindingGyp && manifest.gypfile !== false && !declared('install') && !declared('preinstall')) {
    install.unshift('install');
  }
  return { kind: 'npm', license: license === null ? null : cut(license), license_source: source, install_scripts: install };
}

/** Core metadata (a wheel's METADATA, an sdist's PKG-INFO): PEP 639 first, then the older fields. */
function pythonFacts(kind: 'pypi-wheel' | 'pypi-sdist', bytes: Buffer): ArchivePackageFacts {
  const fields = parseCoreMetadata(bytes.toString('utf8'));
  const first = (name: string) => fields.get(name.toLowerCase())?.find((v) => v.trim() !== '' && v.trim().toUpperCase() !== 'UNKNOWN')?.trim();
  const expression = first('License-Expression');
  if (expression !== undefined) return { kind, license: cut(expression), license_source: 'License-Expression', install_scripts: [] };
  const license = first('License');
  if (license !== undefined) return { kind, license: cut(license), license_source: 'License', install_scripts: [] };
  const fromClassifiers = licenseFromClassifiers(fields.get('classifier') ?? []);
  return { kind, license: fromClassifiers, license_source: fromClassifiers === null ? null : 'classifier', install_scripts: [] };
}
