import { DependencyGraph, devOf } from './dependency-graph.js';
import type { LockfileCollector } from './lockfile-collector.js';
import { lockfileVersionUnsupported } from './lockfile-errors.js';
import { nonRegistryReason, publicRegistryTarball, splitNameAt } from './npm-specs.js';
import { SKIP_REASONS, type SkipReason } from './skip-reasons.js';
import { isRecord, own, type Entries } from './value-shapes.js';
import { YamlDocument } from './yaml-document.js';

const SEMVER_RE = /^\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?(?:\+[0-9A-Za-z.-]+)?$/;
const IMPORTER_FIELDS = [
  ['dependencies', false],
  ['optionalDependencies', false],
  ['devDependencies', true],
] as const;
const EDGE_FIELDS = ['dependencies', 'optionalDependencies'] as const;

/** `name@1.0.0(react@18.2.0)`: the peer suffix distinguishes instances of one package, not packages. */
function withoutPeers(key: string): string {
  const paren = key.indexOf('(');
  return paren === -1 ? key : key.slice(0, paren);
}

/**
 * pnpm-lock.yaml, lockfile 6.x (pnpm 8) and 9.x (pnpm 9 and 10). Every importer (the root and each
 * workspace member) names its direct dependencies; the package graph (`packages` in 6.x, `snapshots`
 * in 9.x) gives dev-ness: a package is development-only when only `devDependencies` of importers
 * reach it. Version 9 dropped the per-package `dev` flag, so both versions are computed the same way.
 */
export function readPnpmLock(path: string, content: string, collector: LockfileCollector): string {
  const doc = YamlDocument.parse(path, content);
  const root = doc.value;
  if (!isRecord(root)) throw doc.malformed([], 'expected a mapping at the top level');
  const raw = own(root, 'lockfileVersion');
  if (raw === undefined) throw lockfileVersionUnsupported(path, 1, '(none)', '6.x and 9.x');
  if (typeof raw !== 'string' && typeof raw !== 'number') throw doc.malformed(['lockfileVersion'], 'lockfileVersion must be a string');
  const version = String(raw);
  const major = /^(\d+)(?:\.\d+)?$/.exec(version)?.[1];
  if (major !== '6' && major !== '9') throw lockfileVersionUnsupported(path, doc.lineAt(['lockfileVersion']), version, '6.x and 9.x');
  const v6 = major === '6';

  const packagesValue = own(root, 'packages') ?? {};
  if (!isRecord(packagesValue)) throw doc.malformed(['packages'], 'packages must be a mapping');
  const packages = new Map(Object.entries(packagesValue));
  const graphSection = v6 ? 'packages' : 'snapshots';
  const nodesValue = v6 ? packagesValue : (own(root, 'snapshots') ?? {});
  if (!isRecord(nodesValue)) throw doc.malformed([graphSection], `${graphSection} must be a mapping`);
  const nodes = new Map(Object.entries(nodesValue));

  // The key a dependency reference names: `1.0.0`, an alias `ms@2.1.3` (6.x: `/ms@2.1.3`), `file:…`; null for a workspace `link:`.
  const keyOf = (name: string, ref: string): string | null => {
    if (ref.startsWith('link:')) return null;
    if (v6) return ref.startsWith('/') ? ref : /^\d/.test(ref) ? `/${name}@${ref}` : ref;
    return /^(@[^/]+\/)?[^@/:(]+@/.test(ref) ? ref : `${name}@${ref}`;
  };
  const target = (at: (string | number)[], name: string, ref: unknown): string | null => {
    const version = isRecord(ref) ? own(ref, 'version') : ref;
    if (typeof version !== 'string' || version === '') throw doc.malformed(at, `${name}: the resolved version must be a non-empty string`);
    const key = keyOf(name, version);
    if (key !== null && !nodes.has(key)) throw doc.malformed(at, `${name}: ${key} is not in ${graphSection}`);
    return key;
  };

  const importersValue = own(root, 'importers');
  // A lockfile of a single project (no workspace) keeps its importer's fields at the top level.
  const importers: [string, unknown][] = importersValue === undefined ? [['.', root]] : isRecord(importersValue) ? Object.entries(importersValue) : [];
  if (importersValue !== undefined && !isRecord(importersValue)) throw doc.malformed(['importers'], 'importers must be a mapping');
  const direct = new Set<string>();
  const productionRoots: string[] = [];
  const developmentRoots: string[] = [];
  for (const [importer, value] of importers) {
    const at = importersValue === undefined ? [] : ['importers', importer];
    if (!isRecord(value)) throw doc.malformed(at, `importer ${importer}: expected a mapping`);
    if (importer !== '.') collector.skip(importer, doc.lineOfEntry('importers', importer), SKIP_REASONS.workspace);
    for (const [field, isDev] of IMPORTER_FIELDS) {
      const deps = own(value, field);
      if (deps === undefined) continue;
      if (!isRecord(deps)) throw doc.malformed([...at, field], `importer ${importer}: ${field} must be a mapping`);
      for (const [name, ref] of Object.entries(deps)) {
        const key = target([...at, field, name], name, ref);
        if (key === null) continue;
        direct.add(key);
        (isDev ? developmentRoots : productionRoots).push(key);
      }
    }
  }

  const graph = new DependencyGraph<string>();
  for (const [key, value] of nodes) {
    if (value === null) continue;
    if (!isRecord(value)) throw doc.malformed([graphSection, key], `${key}: expected a mapping`);
    for (const field of EDGE_FIELDS) {
      const deps = own(value, field);
      if (deps === undefined) continue;
      if (!isRecord(deps)) throw doc.malformed([graphSection, key, field], `${key}: ${field} must be a mapping`);
      for (const [name, ref] of Object.entries(deps)) {
        const to = target([graphSection, key, field, name], name, ref);
        if (to !== null) graph.addEdge(key, to);
      }
    }
  }
  const production = graph.reachable(productionRoots);
  const development = graph.reachable(developmentRoots);

  const skippedKeys = new Set<string>();
  for (const key of nodes.keys()) {
    const baseKey = v6 ? key : withoutPeers(key);
    const info = packages.get(baseKey);
    if (!v6 && !isRecord(info)) throw doc.malformed([graphSection, key], `${key}: no entry ${baseKey} in packages`);
    const line = () => doc.lineOfEntry('packages', baseKey);
    const source = classify(baseKey, (info ?? {}) as Entries, v6);
    if (source.kind === 'skip') {
      if (!skippedKeys.has(baseKey)) collector.skip(source.name, line(), source.reason);
      skippedKeys.add(baseKey);
      continue;
    }
    if (source.kind === 'malformed') throw doc.malformed(['packages', baseKey], `${baseKey}: ${source.message}`);
    collector.add({ ecosystem: 'npm', name: source.name, version: source.version, direct: direct.has(key), dev: devOf(key, production, development), line });
  }
  return version;
}

type PnpmSource =
  | { kind: 'registry'; name: string; version: string }
  | { kind: 'skip'; name: string | null; reason: SkipReason }
  | { kind: 'malformed'; message: string };

function classify(baseKey: string, info: Entries, v6: boolean): PnpmSource {
  const resolution = own(info, 'resolution');
  const infoName = typeof own(info, 'name') === 'string' ? (own(info, 'name') as string) : null;
  // 6.x keys registry packages `/name@version`; anything else (`file:…`, `github.com/…`) carries `name` and `version` fields.
  const split = v6 ? (baseKey.startsWith('/') ? splitNameAt(withoutPeers(baseKey.slice(1))) : null) : splitNameAt(baseKey);
  const name = split?.name ?? infoName;
  if (isRecord(resolution)) {
    const type = own(resolution, 'type');
    if (type === 'git' || own(resolution, 'commit') !== undefined) return { kind: 'skip', name, reason: SKIP_REASONS.git };
    if (type === 'directory') return { kind: 'skip', name, reason: SKIP_REASONS.localPath };
    const tarball = own(resolution, 'tarball');
    if (typeof tarball === 'string' && !(split && SEMVER_RE.test(split.rest))) {
      if (tarball.startsWith('file:')) return { kind: 'skip', name, reason: SKIP_REASONS.localPath };
      const registry = publicRegistryTarball(tarball);
      return registry ? { kind: 'registry', ...registry } : { kind: 'skip', name, reason: nonRegistryReason(tarball) ?? SKIP_REASONS.url };
    }
  }
  if (!split) {
    return { kind: 'skip', name, reason: nonRegistryReason(baseKey) ?? SKIP_REASONS.otherProtocol };
  }
  if (SEMVER_RE.test(split.rest)) return { kind: 'registry', name: split.name, version: split.rest };
  const reason = nonRegistryReason(split.rest);
  if (reason) return { kind: 'skip', name, reason };
  return { kind: 'malformed', message: `${JSON.stringify(split.rest)} is neither a version nor a known source` };
}
