import { JsonDocument } from './json-document.js';
import type { LockfileCollector } from './lockfile-collector.js';
import { lockfileVersionUnsupported } from './lockfile-errors.js';
import { npmSource, publicRegistryTarball } from './npm-specs.js';
import { SKIP_REASONS } from './skip-reasons.js';
import { isRecord, own, stringMap, type Entries } from './value-shapes.js';

const DECLARED_FIELDS = ['dependencies', 'optionalDependencies', 'devDependencies', 'peerDependencies'] as const;

/**
 * package-lock.json and npm-shrinkwrap.json (one format). Version 1 (npm 5–6) is a nested
 * `dependencies` tree that records dev-ness but not the root's own dependencies, so `direct` is
 * null; versions 2 and 3 (npm 7+) carry the root and workspace manifests in `packages`, from which
 * direct dependencies are resolved the way Node resolves a `require` from that directory.
 */
export function readPackageLock(path: string, content: string, collector: LockfileCollector): string {
  const doc = JsonDocument.parse(path, content, { jsonc: false });
  const root = doc.value;
  if (!isRecord(root)) throw doc.malformed([], 'expected a JSON object');
  const version = own(root, 'lockfileVersion');
  if (version === undefined) throw lockfileVersionUnsupported(path, 1, '(none)', '1, 2 and 3');
  if (typeof version !== 'number') throw doc.malformed(['lockfileVersion'], 'lockfileVersion must be a number');
  if (version === 1) readVersion1(doc, root, collector);
  else if (version === 2 || version === 3) readPackages(doc, root, collector);
  else throw lockfileVersionUnsupported(path, doc.lineAt(['lockfileVersion']), version, '1, 2 and 3');
  return String(version);
}

function readVersion1(doc: JsonDocument, root: Entries, collector: LockfileCollector): void {
  const top = own(root, 'dependencies') ?? {};
  if (!isRecord(top)) throw doc.malformed(['dependencies'], 'dependencies must be an object');
  // An explicit stack: a deeply nested tree must not exhaust the call stack.
  const stack: { at: string[]; deps: Entries }[] = [{ at: ['dependencies'], deps: top }];
  while (stack.length > 0) {
    const { at, deps } = stack.pop()!;
    for (const [name, entry] of Object.entries(deps)) {
      const here = [...at, name];
      if (!isRecord(entry)) throw doc.malformed(here, `${name}: expected an object`);
      const version = own(entry, 'version');
      if (typeof version !== 'string' || version === '') throw doc.malformed(here, `${name}: version must be a non-empty string`);
      const nested = own(entry, 'dependencies');
      if (nested !== undefined) {
        if (!isRecord(nested)) throw doc.malformed([...here, 'dependencies'], `${name}: dependencies must be an object`);
        stack.push({ at: [...here, 'dependencies'], deps: nested });
      }
      if (own(entry, 'bundled') === true) {
        collector.skip(name, doc.lineAt(here), SKIP_REASONS.bundled);
        continue;
      }
      const source = npmSource(name, version);
      if (source.kind === 'skip') collector.skip(name, doc.lineAt(here), source.reason);
      else collector.add({ ecosystem: 'npm', name: source.name, version: source.version, direct: null, dev: own(entry, 'dev') === true, line: () => doc.lineAt(here) });
    }
  }
}

/** `workspaces` globs (`packages/*`, `apps/**`) as a matcher of member directories. */
function workspaceMatcher(spec: unknown): (dir: string) => boolean {
  const list = Array.isArray(spec) ? spec : isRecord(spec) && Array.isArray(own(spec, 'packages')) ? (own(spec, 'packages') as unknown[]) : [];
  const include: RegExp[] = [];
  const exclude: RegExp[] = [];
  for (const pattern of list) {
    if (typeof pattern !== 'string') continue;
    const negated = pattern.startsWith('!');
    const body = (negated ? pattern.slice(1) : pattern).replace(/^\.\//, '').replace(/\/+$/, '');
    const source = body
      .split(/(\*\*\/?|\*|\?)/)
      .map((part) => (part.startsWith('**') ? '(?:.*/)?' : part === '*' ? '[^/]*' : part === '?' ? '[^/]' : part.replace(/[.+^${}()|[\]\\]/g, '\\$&')))
      .join('');
    (negated ? exclude : include).push(new RegExp(`^${source}$`));
  }
  return (dir) => include.some((re) => re.test(dir)) && !exclude.some((re) => re.test(dir));
}

function nameFromKey(key: string): string {
  return key.slice(key.lastIndexOf('node_modules/') + 'node_modules/'.length);
}

function isInstallPath(key: string): boolean {
  return key.startsWith('node_modules/') || key.includes('/node_modules/');
}

function readPackages(doc: JsonDocument, root: Entries, collector: LockfileCollector): void {
  const packagesValue = own(root, 'packages');
  if (!isRecord(packagesValue)) throw doc.malformed(packagesValue === undefined ? [] : ['packages'], 'packages must be an object');
  const packages = new Map(Object.entries(packagesValue));
  const rootEntry = packages.get('') ?? {};
  if (!isRecord(rootEntry)) throw doc.malformed(['packages', ''], 'the root package must be an object');
  const isWorkspace = workspaceMatcher(own(rootEntry, 'workspaces'));

  const importers = [''];
  const declaredUrls = new Set<string>();
  for (const [key, entry] of packages) {
    if (!isRecord(entry)) throw doc.malformed(['packages', key], `${key}: expected an object`);
    for (const field of DECLARED_FIELDS) {
      const declared = stringMap(own(entry, field));
      if (!declared) throw doc.malformed(['packages', key, field], `${key || 'the root package'}: ${field} must map names to strings`);
      for (const [, spec] of declared) if (/^https?:\/\//i.test(spec)) declaredUrls.add(spec);
    }
    if (key !== '' && !isInstallPath(key) && isWorkspace(key)) importers.push(key);
  }

  const direct = new Set<string>();
  for (const importer of importers) {
    // The root may be absent from `packages` (a lockfile written by a tool that omits it).
    const entry = (importer === '' ? rootEntry : packages.get(importer)) as Entries;
    for (const field of DECLARED_FIELDS) {
      for (const [name] of stringMap(own(entry, field)) ?? []) {
        const found = resolveFrom(packages, importer, name);
        if (found) direct.add(found);
      }
    }
  }

  const importerSet = new Set(importers);
  for (const [key, value] of packages) {
    if (key === '') continue;
    const entry = value as Entries;
    const line = () => doc.lineAt(['packages', key]);
    if (!isInstallPath(key)) {
      const name = own(entry, 'name');
      collector.skip(typeof name === 'string' ? name : key, line(), importerSet.has(key) ? SKIP_REASONS.workspace : SKIP_REASONS.localPath);
      continue;
    }
    // A link points at a workspace member or local directory, reported under its own key.
    if (own(entry, 'link') === true) continue;
    const keyName = nameFromKey(key);
    const name = own(entry, 'name') ?? keyName;
    const version = own(entry, 'version');
    const resolved = own(entry, 'resolved');
    if (typeof name !== 'string' || name === '') throw doc.malformed(['packages', key], `${key}: name must be a non-empty string`);
    if (own(entry, 'inBundle') === true) {
      collector.skip(name, line(), SKIP_REASONS.bundled);
      continue;
    }
    if (typeof version !== 'string' || version === '') throw doc.malformed(['packages', key], `${key}: version must be a non-empty string`);
    if (resolved !== undefined && typeof resolved !== 'string') throw doc.malformed(['packages', key, 'resolved'], `${key}: resolved must be a string`);
    let source = resolved && !/^https?:\/\//i.test(resolved) ? npmSource(name, resolved) : npmSource(name, version);
    // A dependency declared by URL is that URL's tarball, which is a registry package only when it is the registry's own file.
    if (resolved && declaredUrls.has(resolved)) {
      const tarball = publicRegistryTarball(resolved);
      source = tarball ? { kind: 'registry', ...tarball } : { kind: 'skip', reason: SKIP_REASONS.url };
    }
    if (source.kind === 'skip') collector.skip(name, line(), source.reason);
    else collector.add({ ecosystem: 'npm', name: source.name, version: source.version, direct: direct.has(key), dev: own(entry, 'dev') === true, line });
  }
}

/** Node's lookup from a workspace directory: `<dir>/node_modules/<name>`, then each parent directory's, up to the root. */
function resolveFrom(packages: Map<string, unknown>, from: string, name: string): string | null {
  let dir = from;
  for (;;) {
    const candidate = `${dir ? `${dir}/` : ''}node_modules/${name}`;
    if (packages.has(candidate)) return candidate;
    if (dir === '') return null;
    dir = dir.slice(0, Math.max(dir.lastIndexOf('/'), 0));
  }
}
