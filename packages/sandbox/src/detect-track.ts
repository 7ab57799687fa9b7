import type { Dirent } from 'node:fs';
import { readFile, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { Track } from '@vigil/core';

/** Files whose presence at the root makes an MCP server (registry `server.json`, Smithery, a tool manifest). */
const MCP_MANIFESTS = ['server.json', 'smithery.yaml', 'smithery.yml', 'mcp.json'];
/**
 * An MCP client's project configuration (Claude Code's `.mcp.json`): the servers a checkout starts for
 * whoever works in it. Committed beside a lockfile or workflows it is part of a repository (whose
 * agent reads it as an agent configuration); alone it is taken for an MCP server's own files.
 */
const MCP_CLIENT_CONFIG = '.mcp.json';
/** Dependency declarations that mean "this is an MCP server" (the official SDKs and FastMCP). */
const MCP_DEPENDENCY = /(^|["'\s,[])(@modelcontextprotocol\/sdk|fastmcp|mcp)(["'\s,<>=~!\];]|\[|$)/m;
const PYTHON_DECLARATIONS = ['pyproject.toml', 'requirements.txt', 'setup.py', 'setup.cfg', 'PKG-INFO'];
/** Lockfiles Vigil reads (docs/lockfiles.md); npm pack never ships one, so a lockfile means a repository. */
const LOCKFILES = ['package-lock.json', 'npm-shrinkwrap.json', 'pnpm-lock.yaml', 'yarn.lock', 'bun.lock', 'poetry.lock', 'uv.lock', 'Pipfile.lock', 'Cargo.lock', 'go.sum', 'Gemfile.lock', 'composer.lock'];

const MAX_MANIFEST_BYTES = 1024 * 1024;

async function text(path: string): Promise<string | null> {
  try {
    const content = await readFile(path);
    return content.length > MAX_MANIFEST_BYTES ? null : content.toString('utf8');
  } catch {
    return null;
  }
}

function declaresMcpInPackageJson(content: string | null): boolean {
  if (content === null) return false;
  try {
    const manifest = JSON.parse(content) as Record<string, unknown>;
    return ['dependencies', 'peerDependencies', 'optionalDependencies'].some((field) => {
      const deps = manifest[field];
      return typeof deps === 'object' && deps !== null && Object.hasOwn(deps, '@modelcontextprotocol/sdk');
    });
  } catch {
    return false;
  }
}

/** Core metadata (PKG-INFO, METADATA) names dependencies on `Requires-Dist:` lines; the other files anywhere. */
function declaresMcpInPython(name: string, content: string | null): boolean {
  if (content === null) return false;
  const metadata = name === 'PKG-INFO' || name.endsWith('/METADATA');
  const requires = metadata
    ? content
        .split('\n')
        .filter((line) => line.startsWith('Requires-Dist:'))
        .map((line) => line.slice('Requires-Dist:'.length).trim())
        .join('\n')
    : content;
  return MCP_DEPENDENCY.test(requires);
}

/** A lockfile, or workflows under `.github/workflows`: what a checkout has and a published package does not. */
async function isRepository(root: string, entries: Dirent[]): Promise<boolean> {
  if (entries.some((entry) => LOCKFILES.includes(entry.name))) return true;
  if (!entries.some((entry) => entry.name === '.github' && entry.isDirectory())) return false;
  const workflows = await readdir(join(root, '.github'), { withFileTypes: true }).catch(() => []);
  return workflows.some((entry) => entry.name === 'workflows' && entry.isDirectory());
}

/**
 * The track an unpacked artifact belongs to, from what its root holds, or null when nothing
 * says (then the caller names the track). Rules, first match wins (docs/agents.md, "Track detection"):
 * `SKILL.md` → skills; an MCP manifest or an MCP SDK dependency → mcp_servers; a lockfile or
 * `.github/workflows` → repositories; `.mcp.json` (an MCP client's config) → mcp_servers; `package.json`, `PKG-INFO`, `setup.py`, `pyproject.toml` or a
 * `*.dist-info/METADATA` → packages.
 */
export async function detectTrack(root: string): Promise<Track | null> {
  const entries = await readdir(root, { withFileTypes: true });
  const names = new Set(entries.map((entry) => entry.name));
  if (names.has('SKILL.md')) return 'skills';
  if (MCP_MANIFESTS.some((name) => names.has(name))) return 'mcp_servers';
  if (declaresMcpInPackageJson(names.has('package.json') ? await text(join(root, 'package.json')) : null)) return 'mcp_servers';
  const metadataFiles = [
    ...PYTHON_DECLARATIONS.filter((name) => names.has(name)),
    ...entries.filter((entry) => entry.isDirectory() && entry.name.endsWith('.dist-info')).map((entry) => `${entry.name}/METADATA`),
  ];
  for (const name of metadataFiles) {
    if (declaresMcpInPython(name, await text(join(root, name)))) return 'mcp_servers';
  }
  if (await isRepository(root, entries)) return 'repositories';
  if (names.has(MCP_CLIENT_CONFIG)) return 'mcp_servers';
  if (['package.json', 'PKG-INFO', 'setup.py', 'pyproject.toml'].some((name) => names.has(name))) return 'packages';
  if (metadataFiles.some((name) => name.endsWith('/METADATA'))) {
    for (const name of metadataFiles) if (name.endsWith('/METADATA') && (await text(join(root, name))) !== null) return 'packages';
  }
  return null;
}
