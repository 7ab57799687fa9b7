import { JsonDocument } from './json-document.js';
import type { LockfileCollector } from './lockfile-collector.js';
import { lockfileVersionUnsupported } from './lockfile-errors.js';
import { normalizePypiName } from './pypi-name.js';
import { SKIP_REASONS } from './skip-reasons.js';
import { isRecord, own } from './value-shapes.js';

const SECTIONS = [
  ['default', false],
  ['develop', true],
] as const;

/**
 * Pipfile.lock (pipfile-spec 6, every pipenv since 2018). `default` holds the packages installed
 * for production, `develop` those installed with `--dev`; a package in both is production. The file
 * does not record which were named in the Pipfile, so `direct` is null.
 */
export function readPipfileLock(path: string, content: string, collector: LockfileCollector): string {
  const doc = JsonDocument.parse(path, content, { jsonc: false });
  const root = doc.value;
  if (!isRecord(root)) throw doc.malformed([], 'expected a JSON object');
  const meta = own(root, '_meta');
  if (!isRecord(meta)) throw doc.malformed(['_meta'], '_meta is missing');
  const spec = own(meta, 'pipfile-spec');
  if (spec === undefined) throw lockfileVersionUnsupported(path, doc.lineAt(['_meta']), '(none)', 'pipfile-spec 6');
  if (spec !== 6) throw lockfileVersionUnsupported(path, doc.lineAt(['_meta', 'pipfile-spec']), spec, 'pipfile-spec 6');

  for (const [section, dev] of SECTIONS) {
    const entries = own(root, section) ?? {};
    if (!isRecord(entries)) throw doc.malformed([section], `${section} must be an object`);
    for (const [name, entry] of Object.entries(entries)) {
      const at = [section, name];
      const line = () => doc.lineAt(at);
      if (!isRecord(entry)) throw doc.malformed(at, `${name}: expected an object`);
      if (own(entry, 'git') !== undefined) collector.skip(name, line(), SKIP_REASONS.git);
      else if (own(entry, 'path') !== undefined) collector.skip(name, line(), own(entry, 'editable') === true ? SKIP_REASONS.editable : SKIP_REASONS.localPath);
      else if (own(entry, 'file') !== undefined) {
        const file = own(entry, 'file');
        collector.skip(name, line(), typeof file === 'string' && /^https?:\/\//i.test(file) ? SKIP_REASONS.url : SKIP_REASONS.localPath);
      } else {
        const version = own(entry, 'version');
        if (typeof version !== 'string') throw doc.malformed(at, `${name}: version must be a string`);
        const pinned = /^===?\s*([^\s,;*]+)$/.exec(version.trim());
        if (!pinned) collector.skip(name, line(), SKIP_REASONS.unpinned);
        else collector.add({ ecosystem: 'pypi', name: normalizePypiName(name), version: pinned[1]!, direct: null, dev, line });
      }
    }
  }
  return '6';
}
