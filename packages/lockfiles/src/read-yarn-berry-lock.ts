import type { LockfileCollector } from './lockfile-collector.js';
import { lockfileVersionUnsupported } from './lockfile-errors.js';
import { npmSource, splitNameAt, type NpmSource } from './npm-specs.js';
import { SKIP_REASONS } from './skip-reasons.js';
import { isRecord, own, type Entries } from './value-shapes.js';
import { YamlDocument } from './yaml-document.js';

/** `__metadata.version` of Yarn 2 (4), Yarn 3 (6) and Yarn 4 (8 to 10): the entry format is the same. */
const MIN_VERSION = 4;
const MAX_VERSION = 10;

/**
 * yarn.lock of Yarn 2 and later (Berry): YAML with a `__metadata` entry. Each workspace has an
 * entry (`name@workspace:path`) listing its dependencies, which makes them direct; Berry merges a
 * workspace's `devDependencies` into that list, so the file cannot tell dev-ness: `dev` is null.
 */
export function readYarnBerryLock(path: string, content: string, collector: LockfileCollector): string {
  const doc = YamlDocument.parse(path, content);
  const root = doc.value;
  if (!isRecord(root)) throw doc.malformed([], 'expected a mapping at the top level');
  const metadata = own(root, '__metadata');
  if (!isRecord(metadata)) throw doc.malformed(['__metadata'], '__metadata must be a mapping');
  const raw = own(metadata, 'version');
  const version = typeof raw === 'number' || typeof raw === 'string' ? String(raw) : null;
  if (version === null) throw doc.malformed(['__metadata'], '__metadata.version is missing');
  const number = Number(version);
  if (!Number.isInteger(number) || number < MIN_VERSION || number > MAX_VERSION) {
    throw lockfileVersionUnsupported(path, doc.lineAt(['__metadata', 'version']), version, `${MIN_VERSION} to ${MAX_VERSION}`);
  }

  // Every descriptor of a key (`a@npm:^1.0.0, a@npm:^1.1.0`) leads to its entry.
  const entries: [string, Entries][] = [];
  const byDescriptor = new Map<string, string>();
  for (const [key, value] of Object.entries(root)) {
    if (key === '__metadata') continue;
    if (!isRecord(value)) throw doc.malformed([key], `${key}: expected a mapping`);
    entries.push([key, value]);
    for (const descriptor of key.split(',')) byDescriptor.set(descriptor.trim(), key);
  }

  const direct = new Set<string>();
  for (const [key, entry] of entries) {
    const resolution = resolutionOf(doc, key, entry);
    if (!resolution.rest.startsWith('workspace:')) continue;
    const dependencies = own(entry, 'dependencies') ?? {};
    if (!isRecord(dependencies)) throw doc.malformed([key, 'dependencies'], `${key}: dependencies must be a mapping`);
    for (const [name, range] of Object.entries(dependencies)) {
      if (typeof range !== 'string') throw doc.malformed([key, 'dependencies', name], `${key}: ${name} must name a range`);
      const descriptor = `${name}@${range}`;
      // A relative path is bound to the workspace that asked for it: `local@file:./x::locator=root%40workspace%3A.`.
      const target = byDescriptor.get(descriptor) ?? byDescriptor.get(`${descriptor}::locator=${encodeURIComponent(`${resolution.name}@${resolution.rest}`)}`);
      if (target !== undefined) direct.add(target);
    }
  }

  for (const [key, entry] of entries) {
    const { name, rest } = resolutionOf(doc, key, entry);
    const line = () => doc.lineOfEntry(null, key);
    const entryVersion = own(entry, 'version');
    const source = berrySource(name, rest, typeof entryVersion === 'string' || typeof entryVersion === 'number' ? String(entryVersion) : null);
    if (source.kind === 'skip') {
      // The root workspace is the repository itself, not one of its dependencies.
      if (rest !== 'workspace:.') collector.skip(name, line(), source.reason);
      continue;
    }
    if (source.version === '') throw doc.malformed([key], `${key}: version is missing`);
    collector.add({ ecosystem: 'npm', name: source.name, version: source.version, direct: direct.has(key), dev: null, line });
  }
  return version;
}

function resolutionOf(doc: YamlDocument, key: string, entry: Entries): { name: string; rest: string } {
  const resolution = own(entry, 'resolution');
  if (typeof resolution !== 'string') throw doc.malformed([key], `${key}: resolution must be a string`);
  const split = splitNameAt(resolution);
  if (!split) throw doc.malformed([key, 'resolution'], `${key}: resolution ${JSON.stringify(resolution)} is not <name>@<reference>`);
  return split;
}

/** A Berry locator's reference: `npm:1.2.3`, `workspace:…`, `file:…`, `patch:…`, a git or tarball URL. */
function berrySource(name: string, reference: string, version: string | null): NpmSource {
  if (reference.startsWith('npm:')) {
    const exact = reference.slice(4);
    // A non-default registry appears as `npm:1.2.3::__archiveUrl=…`: the version is before the bindings.
    return { kind: 'registry', name, version: exact.split('::')[0] || (version ?? '') };
  }
  if (reference.startsWith('patch:')) return { kind: 'skip', reason: SKIP_REASONS.patch };
  return npmSource(name, reference);
}
