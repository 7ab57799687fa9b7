import { PackageRefError, parsePackageRef } from '@vigil/core';
import type { NpmFetchResult, NpmRegistry } from './npm-registry.js';
import type { PypiFetchResult, PypiRegistry } from './pypi-registry.js';

/** A reference no connector fetches: another purl type, no version, or no connector configured for it. */
export interface UnsupportedRef {
  state: 'unsupported';
  detail: string;
}

export type PackageRefFetchResult = NpmFetchResult | PypiFetchResult | UnsupportedRef;

/**
 * Fetches what a package reference names (`pkg:npm/…@version`, `npm:name@version`,
 * `pkg:pypi/…@version[?file_name=…]`) through the configured connector. A reference that is not
 * one of those is `unsupported`, as are git and URL dependencies, which have no purl of these types.
 */
export async function fetchPackageRef(connectors: { npm?: NpmRegistry; pypi?: PypiRegistry }, ref: string): Promise<PackageRefFetchResult> {
  let parsed;
  try {
    parsed = parsePackageRef(ref);
  } catch (error) {
    if (error instanceof PackageRefError) return { state: 'unsupported', detail: error.message };
    throw error;
  }
  if (parsed.version === null) return { state: 'unsupported', detail: `${parsed.purl}: no version; a registry fetch needs one` };
  if (parsed.type === 'npm') {
    if (connectors.npm === undefined) return { state: 'unsupported', detail: 'no npm registry is configured' };
    return connectors.npm.fetch(parsed.namespace === null ? parsed.name : `${parsed.namespace}/${parsed.name}`, parsed.version);
  }
  if (parsed.type === 'pypi') {
    if (connectors.pypi === undefined) return { state: 'unsupported', detail: 'no PyPI index is configured' };
    const fileName = parsed.qualifiers.file_name;
    return connectors.pypi.fetch(parsed.name, parsed.version, fileName === undefined ? {} : { fileName });
  }
  return { state: 'unsupported', detail: `${parsed.purl}: Vigil fetches npm and PyPI packages only` };
}
