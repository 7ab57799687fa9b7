import { describe, expect, it } from 'vitest';
import { chooseTrack } from './choose-track.js';

const npm = (manifest: Record<string, unknown> | null, files: string[] = ['package.json']) => chooseTrack({ ecosystem: 'npm', manifest, files });
const pypi = (requiresDist: string[], files: string[] = []) => chooseTrack({ ecosystem: 'pypi', requiresDist, files });

describe('chooseTrack', () => {
  it('takes an npm package with mcpName or an mcp field as an MCP server', () => {
    expect(npm({ name: 'x', mcpName: 'io.github.a/x' })).toEqual({ track: 'mcp_servers', reason: 'manifest field mcpName' });
    expect(npm({ name: 'x', mcp: { transport: 'stdio' } })).toEqual({ track: 'mcp_servers', reason: 'manifest field mcp' });
    expect(npm({ name: 'x', mcpName: '  ' }).track).toBe('packages');
  });

  it('takes the MCP SDK as a server only with an executable (a client library is a package)', () => {
    expect(npm({ name: 'srv', bin: 'cli.js', dependencies: { '@modelcontextprotocol/sdk': '^1' } })).toEqual({ track: 'mcp_servers', reason: 'dependency @modelcontextprotocol/sdk and a bin' });
    expect(npm({ name: 'client', dependencies: { '@modelcontextprotocol/sdk': '^1' } }).track).toBe('packages');
    expect(npm({ name: 'x', devDependencies: { '@modelcontextprotocol/sdk': '^1' }, bin: { x: 'x.js' } }).track).toBe('packages');
  });

  it('takes a bin named like an MCP server', () => {
    expect(npm({ name: 'tools', bin: { 'github-mcp': 'a.js' } })).toEqual({ track: 'mcp_servers', reason: 'bin github-mcp' });
    expect(npm({ name: 'tools', bin: { 'mcp-server-git': 'a.js' } }).track).toBe('mcp_servers');
    expect(npm({ name: 'tools', bin: { mcpx: 'a.js', compact: 'b.js' } }).track).toBe('packages');
  });

  it('takes a SKILL.md at the package root as a skill, not one deeper', () => {
    expect(npm({ name: 's' }, ['package.json', 'SKILL.md'])).toEqual({ track: 'skills', reason: 'SKILL.md at the package root' });
    expect(npm({ name: 's' }, ['package.json', 'docs/SKILL.md']).track).toBe('packages');
  });

  it('puts an MCP server that also ships a SKILL.md on mcp_servers', () => {
    expect(npm({ name: 's', mcpName: 'io.github.a/s' }, ['SKILL.md']).track).toBe('mcp_servers');
  });

  it('reads PyPI requirements: mcp or fastmcp unconditionally, not as an extra', () => {
    expect(pypi(['httpx>=0.27', 'mcp[cli]>=1.2'])).toEqual({ track: 'mcp_servers', reason: 'requires mcp' });
    expect(pypi(['FastMCP ; python_version >= "3.10"'])).toEqual({ track: 'mcp_servers', reason: 'requires fastmcp' });
    expect(pypi(['mcp>=1 ; extra == "server"']).track).toBe('packages');
    expect(pypi(['mcpx', 'mcp-proxy']).track).toBe('packages');
    expect(pypi([], ['SKILL.md']).track).toBe('skills');
  });

  it('leaves a package with no manifest on packages', () => {
    expect(npm(null, [])).toEqual({ track: 'packages', reason: 'none' });
  });
});
