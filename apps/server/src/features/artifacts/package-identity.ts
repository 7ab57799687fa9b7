import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { normalizePackageRef } from '@vigil/core';
import type { ArchiveRead } from './archive/archive-listing.js';
import { parseCoreMetadata } from './facts/core-metadata.js';

/** What a package says it is: its purl type, canonical purl, and the folder name its sdist or npm tarball uses. */
export interface PackageIdentity {
  type: 'npm' | 'pypi';
  /** The canonical purl, `pkg:npm/%40scope/name@1.0.0`, `pkg:pypi/name@1.0.0`. */
  purl: string;
  /** The top folder a packed directory gets: `package` (npm) or `<name>-<version>` (sdist). */
  topFolder: string;
}

function purlOf(type: 'npm' | 'pypi', name: unknown, version: unknown): string | undefined {
  if (typeof name !== 'string' || typeof version !== 'string' || name === '' || version === '') return undefined;
  try {
    return normalizePackageRef(`${type}:${name}@${version}`);
  } catch {
    // A name or version a purl cannot carry (whitespace, a control character): no identity.
    return undefined;
  }
}

function npmIdentity(text: string): PackageIdentity | undefined {
  let manifest: unknown;
  try {
    manifest = JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch {
    return undefined;
  }
  if (manifest === null || typeof manifest !== 'object') return undefined;
  const { name, version } = manifest as { name?: unknown; version?: unknown };
  const purl = purlOf('npm', name, version);
  return purl === undefined ? undefined : { type: 'npm', purl, topFolder: 'package' };
}

function pythonIdentity(name: string | undefined, version: string | undefined): PackageIdentity | undefined {
  const purl = purlOf('pypi', name, version);
  return purl === undefined ? undefined : { type: 'pypi', purl, topFolder: `${name}-${version}` };
}

function coreMetadataIdentity(text: string): PackageIdentity | undefined {
  const fields = parseCoreMetadata(text);
  return pythonIdentity(fields.get('name')?.[0], fields.get('version')?.[0]);
}

/** `[project]` name and version of a pyproject.toml, when both are plain strings (a dynamic version gives none). */
function pyprojectIdentity(text: string): PackageIdentity | undefined {
  const section = /^\[project\][ \t]*$([\s\S]*?)(?=^\[|(?![\s\S]))/m.exec(text)?.[1];
  if (section === undefined) return undefined;
  const value = (key: string) => new RegExp(`^${key}\\s*=\\s*["']([^"'\\n]+)["']`, 'm').exec(section)?.[1];
  return pythonIdentity(value('name'), value('version'));
}

async function readOptional(path: string): Promise<string | undefined> {
  try {
    return await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT' || (error as NodeJS.ErrnoException).code === 'EISDIR') return undefined;
    throw error;
  }
}

/**
 * The package a directory holds: its `package.json` name and version (npm), else its `PKG-INFO` or
 * `pyproject.toml` `[project]` name and version (PyPI); undefined when it names none.
 */
export async function identityOfDirectory(dir: string): Promise<PackageIdentity | undefined> {
  const packageJson = await readOptional(join(dir, 'package.json'));
  if (packageJson !== undefined) return npmIdentity(packageJson);
  const pkgInfo = await readOptional(join(dir, 'PKG-INFO'));
  if (pkgInfo !== undefined) return coreMetadataIdentity(pkgInfo);
  const pyproject = await readOptional(join(dir, 'pyproject.toml'));
  return pyproject === undefined ? undefined : pyprojectIdentity(pyproject);
}

const depthOf = (name: string) => name.replace(/^\.\//, '').split('/').length - 1;
const baseOf = (name: string) => name.split('/').pop() ?? '';

/**
 * The package an archive read with `capture: isPackageFactFile` holds: a wheel's `METADATA`, an
 * npm tarball's top-level `package.json`, else an sdist's top-level `PKG-INFO`; undefined when none.
 */
export function identityOfArchive(read: ArchiveRead): PackageIdentity | undefined {
  if (read.listing.status !== 'ok') return undefined;
  const captured = (test: (name: string) => boolean) => [...read.files].find(([name]) => test(name))?.[1].toString('utf8');
  if (read.listing.format === 'zip') {
    const metadata = captured((name) => baseOf(name) === 'METADATA');
    return metadata === undefined ? undefined : coreMetadataIdentity(metadata);
  }
  const packageJson = captured((name) => depthOf(name) === 1 && baseOf(name) === 'package.json');
  if (packageJson !== undefined) return npmIdentity(packageJson);
  const pkgInfo = captured((name) => depthOf(name) === 1 && baseOf(name) === 'PKG-INFO');
  return pkgInfo === undefined ? undefined : coreMetadataIdentity(pkgInfo);
}
