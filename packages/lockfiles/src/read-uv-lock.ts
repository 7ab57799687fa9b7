import { DependencyGraph, devOf } from './dependency-graph.js';
import type { LockfileCollector } from './lockfile-collector.js';
import { lockfileVersionUnsupported } from './lockfile-errors.js';
import { normalizePypiName } from './pypi-name.js';
import { SKIP_REASONS, type SkipReason } from './skip-reasons.js';
import { TomlDocument } from './toml-document.js';
import { isRecord, own, type Entries } from './value-shapes.js';

interface UvPackage {
  index: number;
  name: string;
  version: string | null;
  entry: Entries;
  source: Entries;
}

interface Edge {
  name: string;
  version: string | null;
  extras: string[];
}

/** A package with an extra enabled is its own node: the extra's dependencies hang off it. */
const node = (index: number, extra: string | null): string => (extra === null ? String(index) : `${index}[${extra}]`);

/**
 * uv.lock (version 1). The workspace members (`[manifest] members`, or the project at `.` when
 * there is no manifest) name the direct dependencies: `dependencies` and `optional-dependencies`
 * are production, `dev-dependencies` (every dependency group) development. Dev-ness is computed over
 * the graph, extras included: `httpx[http2]` also pulls in httpx's `http2` extra.
 */
export function readUvLock(path: string, content: string, collector: LockfileCollector): string {
  const doc = TomlDocument.parse(path, content);
  const raw = own(doc.value, 'version');
  if (raw === undefined) throw lockfileVersionUnsupported(path, 1, '(none)', '1');
  if (raw !== 1) throw lockfileVersionUnsupported(path, doc.keyLine('version'), raw, '1');

  const list = own(doc.value, 'package') ?? [];
  if (!Array.isArray(list)) throw doc.malformedKey('package', 'package must be an array of tables');
  const packages: UvPackage[] = list.map((entry: unknown, index) => {
    if (!isRecord(entry)) throw doc.malformedPackage(index, `package ${index + 1}: expected a table`);
    const name = own(entry, 'name');
    const version = own(entry, 'version');
    const source = own(entry, 'source') ?? {};
    if (typeof name !== 'string' || name === '') throw doc.malformedPackage(index, `package ${index + 1}: name must be a non-empty string`);
    // A local project with a dynamic version has none in the lock.
    if (version !== undefined && typeof version !== 'string') throw doc.malformedPackage(index, `${name}: version must be a string`);
    if (!isRecord(source)) throw doc.malformedPackage(index, `${name}: source must be a table`);
    return { index, name: normalizePypiName(name), version: version ?? null, entry, source };
  });
  const byName = new Map<string, UvPackage[]>();
  for (const pkg of packages) {
    const same = byName.get(pkg.name);
    if (same) same.push(pkg);
    else byName.set(pkg.name, [pkg]);
  }

  const resolve = (from: UvPackage, edge: Edge): UvPackage => {
    const candidates = byName.get(edge.name) ?? [];
    const found = candidates.length === 1 ? candidates[0] : candidates.find((c) => c.version === edge.version);
    if (!found) throw doc.malformedPackage(from.index, `${from.name}: dependency ${edge.name}${edge.version ? ` ${edge.version}` : ''} is not a package of the lock`);
    return found;
  };
  const edgesOf = (pkg: UvPackage, value: unknown, what: string): Edge[] => {
    if (value === undefined) return [];
    if (!Array.isArray(value)) throw doc.malformedPackage(pkg.index, `${pkg.name}: ${what} must be an array`);
    return value.map((item: unknown) => {
      const name = isRecord(item) ? own(item, 'name') : undefined;
      if (typeof name !== 'string') throw doc.malformedPackage(pkg.index, `${pkg.name}: every entry of ${what} needs a name`);
      const version = own(item as Entries, 'version');
      const extras = own(item as Entries, 'extra');
      return {
        name: normalizePypiName(name),
        version: typeof version === 'string' ? version : null,
        extras: Array.isArray(extras) ? extras.filter((e): e is string => typeof e === 'string') : [],
      };
    });
  };
  const groupsOf = (pkg: UvPackage, key: string): [string, Edge[]][] => {
    const value = own(pkg.entry, key);
    if (value === undefined) return [];
    if (!isRecord(value)) throw doc.malformedPackage(pkg.index, `${pkg.name}: ${key} must be a table`);
    return Object.entries(value).map(([group, edges]) => [group, edgesOf(pkg, edges, `${key}.${group}`)]);
  };

  const graph = new DependencyGraph<string>();
  const link = (from: string, pkg: UvPackage, edge: Edge): string => {
    const target = resolve(pkg, edge);
    graph.addEdge(from, node(target.index, null));
    for (const extra of edge.extras) graph.addEdge(from, node(target.index, extra));
    return node(target.index, null);
  };
  for (const pkg of packages) {
    for (const edge of edgesOf(pkg, own(pkg.entry, 'dependencies'), 'dependencies')) link(node(pkg.index, null), pkg, edge);
    for (const [extra, edges] of groupsOf(pkg, 'optional-dependencies')) {
      graph.addEdge(node(pkg.index, extra), node(pkg.index, null));
      for (const edge of edges) link(node(pkg.index, extra), pkg, edge);
    }
  }

  const members = memberNames(doc, packages);
  const direct = new Set<string>();
  const productionRoots: string[] = [];
  const developmentRoots: string[] = [];
  for (const pkg of packages) {
    if (!members.has(pkg.name)) continue;
    productionRoots.push(node(pkg.index, null));
    for (const [extra] of groupsOf(pkg, 'optional-dependencies')) productionRoots.push(node(pkg.index, extra));
    const named = [
      ...edgesOf(pkg, own(pkg.entry, 'dependencies'), 'dependencies'),
      ...groupsOf(pkg, 'optional-dependencies').flatMap(([, edges]) => edges),
    ];
    for (const edge of named) direct.add(node(resolve(pkg, edge).index, null));
    for (const [, edges] of groupsOf(pkg, 'dev-dependencies')) {
      for (const edge of edges) {
        const target = resolve(pkg, edge);
        direct.add(node(target.index, null));
        developmentRoots.push(node(target.index, null), ...edge.extras.map((extra) => node(target.index, extra)));
      }
    }
  }
  const production = graph.reachable(productionRoots);
  const development = graph.reachable(developmentRoots);

  for (const pkg of packages) {
    const line = () => doc.packageLine(pkg.index);
    const reason = members.has(pkg.name) ? SKIP_REASONS.workspace : nonRegistryReason(pkg.source);
    if (reason) {
      // The project at the workspace root is the repository itself, not one of its dependencies.
      if (!(reason === SKIP_REASONS.workspace && isRootSource(pkg.source))) collector.skip(pkg.name, line(), reason);
      continue;
    }
    if (pkg.version === null) throw doc.malformedPackage(pkg.index, `${pkg.name}: a registry package needs a version`);
    const key = node(pkg.index, null);
    collector.add({ ecosystem: 'pypi', name: pkg.name, version: pkg.version, direct: direct.has(key), dev: devOf(key, production, development), line });
  }
  return '1';
}

/** The workspace members: `[manifest] members`, else the project the lock was made for (source `.`). */
function memberNames(doc: TomlDocument, packages: UvPackage[]): Set<string> {
  const manifest = own(doc.value, 'manifest');
  const members = isRecord(manifest) ? own(manifest, 'members') : undefined;
  if (Array.isArray(members)) return new Set(members.filter((m): m is string => typeof m === 'string').map(normalizePypiName));
  return new Set(packages.filter((p) => isRootSource(p.source)).map((p) => p.name));
}

function isRootSource(source: Entries): boolean {
  return own(source, 'editable') === '.' || own(source, 'virtual') === '.';
}

function nonRegistryReason(source: Entries): SkipReason | null {
  if (own(source, 'registry') !== undefined) return null;
  if (own(source, 'git') !== undefined) return SKIP_REASONS.git;
  if (own(source, 'url') !== undefined) return SKIP_REASONS.url;
  if (['editable', 'virtual', 'directory', 'path'].some((kind) => own(source, kind) !== undefined)) return SKIP_REASONS.localPath;
  return SKIP_REASONS.otherProtocol;
}
