import type { LockfileCollector } from './lockfile-collector.js';
import { lockfileVersionUnsupported } from './lockfile-errors.js';
import { normalizePypiName } from './pypi-name.js';
import { SKIP_REASONS } from './skip-reasons.js';
import { TomlDocument } from './toml-document.js';
import { isRecord, own } from './value-shapes.js';

/**
 * poetry.lock, lock-version 1.x (Poetry 1.1 to 1.4) and 2.x (Poetry 1.5 and later). The file lists
 * resolved packages without the project's own requirements, so `direct` is null. Dev-ness: 1.x
 * writes `category = "main" | "dev"`, 2.1 writes `groups` (development-only when `main` is not
 * among them); 2.0 writes neither, and `dev` is null.
 */
export function readPoetryLock(path: string, content: string, collector: LockfileCollector): string {
  const doc = TomlDocument.parse(path, content);
  const metadata = own(doc.value, 'metadata');
  if (!isRecord(metadata)) throw doc.malformedKey('metadata', 'the [metadata] table is missing');
  const raw = own(metadata, 'lock-version');
  if (raw === undefined) throw lockfileVersionUnsupported(path, doc.keyLine('metadata'), '(none)', '1.x and 2.x');
  if (typeof raw !== 'string') throw doc.malformedKey('lock-version', 'lock-version must be a string');
  if (!/^[12]\.\d+$/.test(raw)) throw lockfileVersionUnsupported(path, doc.keyLine('lock-version'), raw, '1.x and 2.x');

  const list = own(doc.value, 'package') ?? [];
  if (!Array.isArray(list)) throw doc.malformedKey('package', 'package must be an array of tables');
  list.forEach((entry: unknown, index) => {
    if (!isRecord(entry)) throw doc.malformedPackage(index, `package ${index + 1}: expected a table`);
    const name = own(entry, 'name');
    const version = own(entry, 'version');
    if (typeof name !== 'string' || name === '') throw doc.malformedPackage(index, `package ${index + 1}: name must be a non-empty string`);
    if (typeof version !== 'string' || version === '') throw doc.malformedPackage(index, `${name}: version must be a non-empty string`);
    const line = () => doc.packageLine(index);
    const source = own(entry, 'source');
    const type = isRecord(source) ? own(source, 'type') : undefined;
    if (type === 'git') return collector.skip(name, line(), SKIP_REASONS.git);
    if (type === 'directory' || type === 'file') return collector.skip(name, line(), SKIP_REASONS.localPath);
    if (type === 'url') return collector.skip(name, line(), SKIP_REASONS.url);
    // `legacy` (another package index) and no source at all are index packages.
    collector.add({ ecosystem: 'pypi', name: normalizePypiName(name), version, direct: null, dev: devOf(entry), line });
  });
  return raw;
}

function devOf(entry: Record<string, unknown>): boolean | null {
  const category = own(entry, 'category');
  if (category === 'dev') return true;
  if (category === 'main') return false;
  const groups = own(entry, 'groups');
  if (Array.isArray(groups) && groups.length > 0) return !groups.includes('main');
  return null;
}
