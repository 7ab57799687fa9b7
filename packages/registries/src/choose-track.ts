import type { Track } from '@vigil/core';

/** What a track is chosen from: the package's own manifest and the paths of its files. */
export type TrackInput =
  | {
      ecosystem: 'npm';
      /** `package.json` as read from the tarball (null when the tarball has none that parses). */
      manifest: Record<string, unknown> | null;
      /** File paths relative to the package root (the tarball's first directory removed). */
      files: readonly string[];
    }
  | {
      ecosystem: 'pypi';
      /** `Requires-Dist` entries of the release (JSON API `info.requires_dist`). */
      requiresDist: readonly string[];
      /** File paths relative to the distribution root (an sdist's first directory removed; a wheel's top level). */
      files: readonly string[];
    };

export interface TrackChoice {
  track: Extract<Track, 'mcp_servers' | 'skills' | 'packages'>;
  /** The signal that decided, e.g. `manifest field mcpName`; `none` for plain packages. */
  reason: string;
}

/** PyPI distributions that make a package an MCP server when it requires them unconditionally. */
const PYPI_MCP_DISTRIBUTIONS = new Set(['mcp', 'fastmcp']);
const NPM_MCP_SDK = '@modelcontextprotocol/sdk';
const MCP_BIN_NAME = /(^|[-_.])mcp([-_.]|$)/i;

/**
 * The track a registry package is judged on (docs/registries.md, "Track"). An MCP server first, as
 * it runs as a long-lived process with tools an agent calls; then a skill (a SKILL.md at the package
 * root, the Agent Skills layout); everything else is a package.
 */
export function chooseTrack(input: TrackInput): TrackChoice {
  const mcp = input.ecosystem === 'npm' ? npmMcpSignal(input.manifest) : pypiMcpSignal(input.requiresDist);
  if (mcp !== null) return { track: 'mcp_servers', reason: mcp };
  if (input.files.some((path) => path === 'SKILL.md')) return { track: 'skills', reason: 'SKILL.md at the package root' };
  return { track: 'packages', reason: 'none' };
}

function npmMcpSignal(manifest: Record<string, unknown> | null): string | null {
  if (manifest === null) return null;
  // The MCP registry's own ownership proof for npm packages: `mcpName` in package.json.
  if (typeof manifest.mcpName === 'string' && manifest.mcpName.trim() !== '') return 'manifest field mcpName';
  if (manifest.mcp !== undefined && manifest.mcp !== null && typeof manifest.mcp === 'object') return 'manifest field mcp';
  const dependencies = manifest.dependencies;
  if (dependencies !== null && typeof dependencies === 'object' && Object.hasOwn(dependencies, NPM_MCP_SDK)) {
    // The SDK also builds MCP clients; a client library is a package, a server ships an executable.
    if (binNames(manifest).length > 0) return `dependency ${NPM_MCP_SDK} and a bin`;
  }
  const mcpBin = binNames(manifest).find((name) => MCP_BIN_NAME.test(name));
  if (mcpBin !== undefined) return `bin ${mcpBin}`;
  return null;
}

function binNames(manifest: Record<string, unknown>): string[] {
  const bin = manifest.bin;
  if (typeof bin === 'string') {
    const name = typeof manifest.name === 'string' ? manifest.name.replace(/^@[^/]+\//, '') : '';
    return name ? [name] : [];
  }
  if (bin !== null && typeof bin === 'object') return Object.keys(bin);
  return [];
}

function pypiMcpSignal(requiresDist: readonly string[]): string | null {
  for (const requirement of requiresDist) {
    const [spec, marker] = requirement.split(';', 2) as [string, string | undefined];
    // An optional extra (`; extra == "mcp"`) does not make the package a server.
    if (marker !== undefined && /\bextra\s*==/.test(marker)) continue;
    const name = /^\s*([A-Za-z0-9][A-Za-z0-9._-]*)/.exec(spec)?.[1];
    if (name === undefined) continue;
    const normalised = name.toLowerCase().replace(/[-_.]+/g, '-');
    if (PYPI_MCP_DISTRIBUTIONS.has(normalised)) return `requires ${normalised}`;
  }
  return null;
}
