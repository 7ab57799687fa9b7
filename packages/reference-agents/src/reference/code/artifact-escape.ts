import { posix } from 'node:path';
import type { AgentFinding } from '@vigil/core';
import { referenceFinding } from '../common/reference-finding.js';

/**
 * Build and deploy manifests whose paths leave the artifact. Smithery built each server from the
 * `build.dockerfile` / `build.dockerBuildPath` its `smithery.yaml` named, relative to the repository;
 * `..` there made the build read the builder's own files and secrets (Smithery.ai path traversal,
 * GitGuardian, June 2025). The same reach: a compose `context:` or a Dockerfile `COPY`/`ADD` source
 * above the artifact, and a compose service of an MCP server or tool that mounts the host's SSH keys,
 * cloud credentials, root file system or the Docker socket (the host's root, one API call away).
 * Subfolder paths (`context: .`, `dockerfile: docker/Dockerfile`) stay inside and are not this.
 */
export type EscapeKind = 'smithery' | 'compose' | 'dockerfile';

export function escapeManifestKind(path: string): EscapeKind | null {
  const base = path.slice(path.lastIndexOf('/') + 1);
  if (/^smithery\.ya?ml$/i.test(base)) return 'smithery';
  if (/^(?:docker-)?compose(?:\.[\w-]+)?\.ya?ml$/i.test(base)) return 'compose';
  if (/^(?:Dockerfile|Containerfile)(?:\.[\w-]+)?$|\.Dockerfile$/i.test(base)) return 'dockerfile';
  return null;
}

/** A path outside the directory tree rooted at the artifact: absolute, home-relative, or `..` above the root. */
function leavesArtifact(manifestPath: string, value: string): boolean {
  const v = value.trim().replace(/^['"]|['"]$/g, '');
  if (v === '' || /^[a-z][\w+.-]*:\/\//i.test(v) || v.includes('${')) return false;
  if (v.startsWith('/') || v.startsWith('~') || /^[A-Za-z]:[\\/]/.test(v) || /^\$(?:HOME|\{HOME\})/.test(v)) return true;
  const dir = manifestPath.includes('/') ? posix.dirname(manifestPath) : '';
  return posix.normalize(posix.join(dir, v.replace(/\\/g, '/'))).startsWith('..');
}

/** Host paths no MCP server or tool container needs: SSH and signing keys, registry and git tokens, the whole home, root or /etc. */
const HOST_SECRET_MOUNT = /^(?:~|\$\{?HOME\}?|\/home\/[\w.-]+|\/Users\/[\w.-]+|\/root)\/\.(?:ssh|gnupg|npmrc|netrc|git-credentials)\b|^(?:~|\$\{?HOME\}?|\/home\/[\w.-]+|\/Users\/[\w.-]+|\/root)\/?$|^\/$|^\/etc\/?$/;
// Cloud and cluster credentials and the Docker socket are what a server managing that cloud, cluster or
// Docker mounts on purpose (AWS, Kubernetes and Docker MCP servers document exactly these mounts): MED, not HIGH.
const HOST_SERVICE_MOUNT = /^(?:~|\$\{?HOME\}?|\/home\/[\w.-]+|\/Users\/[\w.-]+|\/root)\/\.(?:aws|kube|docker|config\/gcloud|azure)\b|^\/(?:var\/)?run\/docker\.sock$/;

const lineOf = (text: string, index: number) => text.slice(0, index).split('\n').length;

export function artifactEscapeFindings(path: string, text: string, kind: EscapeKind): AgentFinding[] {
  const out: AgentFinding[] = [];
  const push = (severity: 'HIGH' | 'MED', title: string, index: number, evidence: string) => out.push(referenceFinding({ category: 'supply_chain', severity, title, file: path, line: lineOf(text, index), evidence: evidence.trim().slice(0, 200) }));
  if (kind === 'smithery') {
    for (const m of text.matchAll(/^[ \t]*(dockerfile|dockerBuildPath|dockerBuildContext|buildPath|context)[ \t]*:[ \t]*([^\n#]+)/gim)) {
      if (leavesArtifact(path, m[2]!)) push('HIGH', 'build manifest points the build outside the artifact (path traversal)', m.index, m[0]);
    }
    // The start command's program or config file taken from outside the server (`command: ../../x`, `/etc/…`).
    for (const m of text.matchAll(/^[ \t]*(?:command|configFile|entrypoint)[ \t]*:[ \t]*['"]?((?:\.\.\/)+[^\s'"]+)/gm)) {
      if (leavesArtifact(path, m[1]!)) push('HIGH', 'build manifest points the build outside the artifact (path traversal)', m.index, m[0]);
    }
    return out;
  }
  if (kind === 'dockerfile') {
    for (const m of text.matchAll(/^[ \t]*(?:COPY|ADD)\b((?:[ \t]+--[\w-]+(?:=\S+)?)*)[ \t]+([^\n]+)/gim)) {
      if (/--from\b/.test(m[1]!)) continue;
      const parts = m[2]!.trim().startsWith('[') ? [...m[2]!.matchAll(/"([^"]+)"/g)].map((p) => p[1]!) : m[2]!.trim().split(/\s+/);
      const sources = parts.slice(0, -1);
      // Inside the build context, a path is relative to the context: only `..` reaches above it.
      if (sources.some((s) => /^\.\.(?:\/|$)/.test(posix.normalize(s)))) push('HIGH', 'build manifest points the build outside the artifact (path traversal)', m.index, m[0]);
    }
    return out;
  }
  // Compose: build contexts and dockerfiles; volumes of a service that is an MCP server or a tool.
  for (const m of text.matchAll(/^[ \t]*(?:-[ \t]+)?(context|dockerfile|env_file)[ \t]*:[ \t]*([^\n#]+)/gm)) {
    if (leavesArtifact(path, m[2]!)) push('HIGH', 'build manifest points the build outside the artifact (path traversal)', m.index, m[0]);
  }
  for (const m of text.matchAll(/^[ \t]*build[ \t]*:[ \t]*([^\n#{]+)$/gm)) {
    if (leavesArtifact(path, m[1]!)) push('HIGH', 'build manifest points the build outside the artifact (path traversal)', m.index, m[0]);
  }
  const mcpService = /\bmcp\b|mcp[-_]|[-_]mcp|modelcontextprotocol|\btools?[-_]?server\b/i;
  // Services are the blocks at the indentation below `services:`.
  const services = /^services[ \t]*:[ \t]*$/m.exec(text);
  if (services === null) return out;
  const block = text.slice(services.index);
  const starts = [...block.matchAll(/^([ \t]{1,8})([\w.-]+)[ \t]*:[ \t]*$/gm)];
  const indent = starts[0]?.[1]?.length ?? 2;
  const heads = starts.filter((s) => s[1]!.length === indent);
  heads.forEach((h, i) => {
    const from = h.index;
    const to = heads[i + 1]?.index ?? block.length;
    const body = block.slice(from, to);
    if (!mcpService.test(body)) return;
    for (const v of body.matchAll(/^[ \t]*-[ \t]*['"]?([^:'"\n]+):([^:'"\n]+)(?::[\w,]+)?['"]?[ \t]*$|^[ \t]*source[ \t]*:[ \t]*['"]?([^'"\n]+)/gm)) {
      const host = (v[1] ?? v[3] ?? '').trim();
      // A relative mount that climbs above the artifact (`../..:/workspace`) hands the container the folders around it.
      if (/^\.\.?(?:\/|$)/.test(host) && leavesArtifact(path, host)) {
        push('HIGH', 'build manifest points the build outside the artifact (path traversal)', services.index + from + v.index, `${h[2]}: ${v[0].trim()}`);
        continue;
      }
      if (HOST_SECRET_MOUNT.test(host)) push('HIGH', 'MCP server or tool container mounts the host’s keys, home or root', services.index + from + v.index, `${h[2]}: ${v[0].trim()}`);
      else if (HOST_SERVICE_MOUNT.test(host)) push('MED', 'MCP server or tool container mounts cloud credentials or the Docker socket', services.index + from + v.index, `${h[2]}: ${v[0].trim()}`);
    }
  });
  return out;
}
