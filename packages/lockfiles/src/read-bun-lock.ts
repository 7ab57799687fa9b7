import { DependencyGraph, devOf } from './dependency-graph.js';
import { JsonDocument } from './json-document.js';
import type { LockfileCollector } from './lockfile-collector.js';
import { lockfileVersionUnsupported } from './lockfile-errors.js';
import { npmSource, splitNameAt } from './npm-specs.js';
import { isRecord, own, stringMap, type Entries } from './value-shapes.js';

/** What a workspace or package needs at run time; bun installs peers too. */
const PRODUCTION_FIELDS = ['dependencies', 'optionalDependencies', 'peerDependencies'] as const;

/** The package names a `packages` key is made of: `@fixture/util/ms` is `@fixture/util` then `ms`. */
function segments(key: string): string[] {
  const parts = key.split('/');
  const out: string[] = [];
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i]!;
    if (part.startsWith('@') && i + 1 < parts.length) out.push(`${part}/${parts[++i]}`);
    else out.push(part);
  }
  return out;
}

/**
 * bun.lock, bun's text lockfile (bun 1.2 and later; JSON with trailing commas). `workspaces` holds
 * each workspace's manifest dependencies (direct, with dev-ness); `packages` is keyed by install
 * path (`parent/child` for a nested copy) and resolved from a dependent the way Node resolves it.
 */
export function readBunLock(path: string, content: string, collector: LockfileCollector): string {
  const doc = JsonDocument.parse(path, content, { jsonc: true });
  const root = doc.value;
  if (!isRecord(root)) throw doc.malformed([], 'expected a JSON object');
  const raw = own(root, 'lockfileVersion');
  if (raw === undefined) throw lockfileVersionUnsupported(path, 1, '(none)', '0 and 1');
  if (typeof raw !== 'number') throw doc.malformed(['lockfileVersion'], 'lockfileVersion must be a number');
  if (raw !== 0 && raw !== 1) throw lockfileVersionUnsupported(path, doc.lineAt(['lockfileVersion']), raw, '0 and 1');

  const workspacesValue = own(root, 'workspaces') ?? {};
  const packagesValue = own(root, 'packages') ?? {};
  if (!isRecord(workspacesValue)) throw doc.malformed(['workspaces'], 'workspaces must be an object');
  if (!isRecord(packagesValue)) throw doc.malformed(['packages'], 'packages must be an object');
  const packages = new Map<string, { ident: string; info: Entries }>();
  for (const [key, value] of Object.entries(packagesValue)) {
    if (!Array.isArray(value) || typeof value[0] !== 'string') throw doc.malformed(['packages', key], `${key}: expected ["<name>@<version>", …]`);
    const info = value.slice(1).find(isRecord) ?? {};
    packages.set(key, { ident: value[0], info });
  }

  const resolve = (from: string[], name: string): string | null => {
    for (let depth = from.length; depth >= 0; depth--) {
      const candidate = [...from.slice(0, depth), name].join('/');
      if (packages.has(candidate)) return candidate;
    }
    return null;
  };

  const direct = new Set<string>();
  const productionRoots: string[] = [];
  const developmentRoots: string[] = [];
  for (const [dir, workspace] of Object.entries(workspacesValue)) {
    if (!isRecord(workspace)) throw doc.malformed(['workspaces', dir], `workspace ${dir || '(root)'}: expected an object`);
    const wsName = own(workspace, 'name');
    // A member's own copies of its dependencies are keyed under its name; the root's are top-level.
    const from = dir === '' || typeof wsName !== 'string' ? [] : [wsName];
    for (const field of [...PRODUCTION_FIELDS, 'devDependencies'] as const) {
      const declared = stringMap(own(workspace, field));
      if (!declared) throw doc.malformed(['workspaces', dir, field], `workspace ${dir || '(root)'}: ${field} must map names to strings`);
      for (const [name] of declared) {
        const key = resolve(from, name);
        if (key === null) continue;
        direct.add(key);
        (field === 'devDependencies' ? developmentRoots : productionRoots).push(key);
      }
    }
  }

  const graph = new DependencyGraph<string>();
  for (const [key, { info }] of packages) {
    const from = segments(key);
    for (const field of PRODUCTION_FIELDS) {
      const declared = stringMap(own(info, field));
      if (!declared) throw doc.malformed(['packages', key], `${key}: ${field} must map names to strings`);
      for (const [name] of declared) {
        const to = resolve(from, name);
        if (to !== null) graph.addEdge(key, to);
      }
    }
  }
  const production = graph.reachable(productionRoots);
  const development = graph.reachable(developmentRoots);

  for (const [key, { ident }] of packages) {
    const line = () => doc.lineAt(['packages', key]);
    const split = splitNameAt(ident);
    if (!split) throw doc.malformed(['packages', key], `${key}: ${JSON.stringify(ident)} is not <name>@<version>`);
    const source = npmSource(split.name, split.rest);
    if (source.kind === 'skip') collector.skip(split.name, line(), source.reason);
    else collector.add({ ecosystem: 'npm', name: source.name, version: source.version, direct: direct.has(key), dev: devOf(key, production, development), line });
  }
  return String(raw);
}
