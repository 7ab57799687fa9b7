import { parseSyml } from '@yarnpkg/parsers';
import type { LockfileCollector } from './lockfile-collector.js';
import { lockfileMalformed } from './lockfile-errors.js';
import { nonRegistryReason, npmSource, splitNameAt, type NpmSource } from './npm-specs.js';
import { SKIP_REASONS } from './skip-reasons.js';
import { isRecord, own } from './value-shapes.js';

const HEADER_RE = /^(#.*(\r?\n))*?#\s+yarn\s+lockfile\s+v1\r?\n/i;

/**
 * yarn.lock of Yarn 1 (classic). The file lists each resolved package under the ranges that asked
 * for it, and nothing about the project's own manifest: `direct` and `dev` are null.
 */
export function readYarnClassicLock(path: string, content: string, collector: LockfileCollector): string {
  // Yarn's own parser reads the v1 grammar only after its header line; a file without it is still v1.
  const hasHeader = HEADER_RE.test(content);
  const source = hasHeader ? content : `# yarn lockfile v1\n${content}`;
  let parsed: unknown;
  try {
    parsed = parseSyml(source);
  } catch (error) {
    const location = (error as { location?: { start?: { line?: number } } }).location;
    const line = Math.max(1, (location?.start?.line ?? 2) - (hasHeader ? 0 : 1));
    const message = ((error as Error).message ?? 'syntax error').replace(/ \(line \d+, column \d+\)/, '');
    throw lockfileMalformed(path, line, `invalid yarn.lock: ${message}`);
  }
  if (!isRecord(parsed)) throw lockfileMalformed(path, 1, 'expected entries at the top level');

  const lines = new EntryLines(content);
  for (const [key, entry] of Object.entries(parsed)) {
    const line = () => lines.lineOf(key);
    if (!isRecord(entry)) throw lockfileMalformed(path, line(), `${key}: expected an entry`);
    const version = own(entry, 'version');
    if (typeof version !== 'string' || version === '') throw lockfileMalformed(path, line(), `${key}: version must be a non-empty string`);
    // All ranges of one entry resolve to the same package: the first one says which kind it is.
    const descriptor = splitNameAt(key.split(',')[0]!.trim());
    if (!descriptor) throw lockfileMalformed(path, line(), `${key}: expected <name>@<range>`);
    const { name, rest: range } = descriptor;
    const found = classicSource(name, range, version, own(entry, 'resolved'));
    if (found.kind === 'skip') collector.skip(name, line(), found.reason);
    else collector.add({ ecosystem: 'npm', name: found.name, version: found.version, direct: null, dev: null, line });
  }
  return '1';
}

function classicSource(name: string, range: string, version: string, resolved: unknown): NpmSource {
  if (range.startsWith('npm:')) {
    // `my-ms@npm:ms@^2.1.0`: the alias's range names the real package, the entry its resolved version.
    const real = splitNameAt(range.slice(4));
    return { kind: 'registry', name: real ? real.name : name, version };
  }
  if (/^https?:\/\//i.test(range)) return npmSource(name, range);
  const reason = nonRegistryReason(range);
  if (reason) return { kind: 'skip', reason };
  // A range can be satisfied from a git host; `resolved` then says so.
  if (typeof resolved === 'string' && nonRegistryReason(resolved) === SKIP_REASONS.git) return { kind: 'skip', reason: SKIP_REASONS.git };
  return { kind: 'registry', name, version };
}

/** The line of each top-level entry, indexed by its key as Yarn writes it (quotes removed). */
class EntryLines {
  private index: Map<string, number> | null = null;

  constructor(private readonly text: string) {}

  lineOf(key: string): number {
    if (!this.index) {
      this.index = new Map();
      const lines = this.text.split('\n');
      for (let i = 0; i < lines.length; i++) {
        const line = lines[i]!;
        if (line === '' || line.startsWith(' ') || line.startsWith('#') || !line.trimEnd().endsWith(':')) continue;
        const raw = line.trimEnd().slice(0, -1);
        const unquoted = raw.split(/,\s*/).map((part) => part.replace(/^"(.*)"$/, '$1')).join(', ');
        this.index.set(unquoted, i + 1);
      }
    }
    return this.index.get(key) ?? 1;
  }
}
