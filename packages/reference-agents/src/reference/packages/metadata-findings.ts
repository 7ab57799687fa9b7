import type { AgentFinding } from '@vigil/core';
import { lineAt, referenceFinding } from '../common/reference-finding.js';
import type { PackageLayout } from './package-manifest.js';
import { editDistance, typosquatOf } from '../known/typosquat.js';
import { urlDependencyFindings } from './url-dependencies.js';

export interface MetadataInput {
  layout: PackageLayout;
  manifest: Record<string, unknown> | null;
  /** package.json as written (npm), to point findings at their line. */
  manifestText?: string | null;
  packageName: string | null;
  paths: string[];
}

/** Name, repository and dependency red flags of a package's metadata. */
export function metadataFindings(input: MetadataInput): AgentFinding[] {
  const out: AgentFinding[] = [];
  const manifestFile = input.layout.kind === 'npm' ? 'package.json' : input.layout.kind === 'wheel' ? (input.paths.find((p) => p.endsWith('.dist-info/METADATA')) ?? 'METADATA') : input.paths.includes('PKG-INFO') ? 'PKG-INFO' : 'setup.py';
  const name = input.packageName;
  // The line of a key in package.json (first occurrence), when the manifest text is known.
  const lineOfKey = (key: string): { line?: number } => {
    const at = input.manifestText?.indexOf(JSON.stringify(key)) ?? -1;
    return at >= 0 && manifestFile === 'package.json' ? { line: lineAt(input.manifestText!, at) } : {};
  };
  if (name !== null) {
    const squat = typosquatOf(name, input.layout.ecosystem);
    if (squat !== null) {
      out.push(referenceFinding({ category: 'typosquat', severity: 'HIGH', title: 'Name imitates a popular package', file: manifestFile, ...lineOfKey('name'), evidence: `${name} looks like ${squat.imitates} (${squat.how})` }));
      const repo = repositoryUrl(input.manifest);
      const repoName = repo === null ? null : /github\.com[/:][^/]+\/([^/#.]+)/i.exec(repo)?.[1]?.toLowerCase();
      const target = squat.imitates.split('/').pop()!;
      if (repoName !== undefined && repoName !== null && editDistance(repoName, target, 0) === 0) {
        out.push(referenceFinding({ category: 'typosquat', severity: 'MED', title: 'Repository URL points at the package it imitates', file: manifestFile, ...lineOfKey('repository'), evidence: repo ?? '' }));
      }
    }
  }
  if (input.manifest !== null) out.push(...urlDependencyFindings(input.manifest, input.manifestText ?? null, 'package.json'));
  if (input.paths.some((p) => p.startsWith('node_modules/'))) out.push(referenceFinding({ category: 'metadata', severity: 'LOW', title: 'Ships its own node_modules', file: 'node_modules' }));
  return out;
}

function repositoryUrl(manifest: Record<string, unknown> | null): string | null {
  const repo = manifest?.repository;
  if (typeof repo === 'string') return repo;
  if (typeof repo === 'object' && repo !== null && typeof (repo as { url?: unknown }).url === 'string') return (repo as { url: string }).url;
  return null;
}
