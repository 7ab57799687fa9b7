import { createWriteStream } from 'node:fs';
import { mkdir, open, readdir } from 'node:fs/promises';
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { ArchiveStreamLimitError, ByteCap, readArchiveEntries, type ArchiveEntry } from './archive-entries.js';

/** Bounds of one unpacking (docs/agents.md, "Unpacking archives"). */
export interface UnpackLimits {
  /** Bytes of all files together. */
  maxTotalBytes: number;
  /** Entries of any kind: files, directories, and the links and special files that are skipped. */
  maxFiles: number;
  /** Bytes of one file. */
  maxFileBytes: number;
}

export const DEFAULT_UNPACK_LIMITS: Readonly<UnpackLimits> = Object.freeze({
  maxTotalBytes: 256 * 1024 * 1024,
  maxFiles: 5_000,
  maxFileBytes: 64 * 1024 * 1024,
});

export type UnpackErrorCode = 'not_an_archive' | 'unsafe_path' | 'too_many_files' | 'file_too_large' | 'too_large' | 'corrupt';

/** Why an archive was refused. Nothing it held is usable then: delete the directory. */
export class UnpackError extends Error {
  constructor(
    readonly code: UnpackErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'UnpackError';
  }
}

export interface UnpackResult {
  format: 'tgz' | 'zip';
  /** The directory the archive was unpacked into. */
  dir: string;
  /** The archive's one top-level directory (`package/` of npm pack, `name-1.0/` of an sdist) when it has exactly one and nothing beside it; else `dir`. */
  root: string;
  /** Regular files written. */
  files: number;
  /** Their bytes. */
  bytes: number;
  /** Entries left out: `link` (symbolic and hard links) and `special` (devices, FIFOs). */
  skipped: Array<{ name: string; reason: 'link' | 'special' }>;
}

// eslint-disable-next-line no-control-regex
const CONTROL_RE = /[\u0000-\u001f\u007f]/;

/**
 * PATH_MAX: no file system writes a longer path, so such a name is refused before it is held (in
 * `skipped`) or used, whatever the entry is.
 */
const MAX_ENTRY_NAME_BYTES = 4096;
/** Messages quote at most this many characters of a name, then `…`. */
const QUOTED_NAME_LENGTH = 200;

function quoted(name: string): string {
  return JSON.stringify(name.length > QUOTED_NAME_LENGTH ? `${name.slice(0, QUOTED_NAME_LENGTH)}…` : name);
}

/** The entry's path under `dir`, or an UnpackError: no absolute path, no `..`, nothing that leaves `dir`. */
function entryPath(dir: string, name: string): string {
  if (Buffer.byteLength(name, 'utf8') > MAX_ENTRY_NAME_BYTES) {
    throw new UnpackError('unsafe_path', `archive entry ${quoted(name)} is longer than ${MAX_ENTRY_NAME_BYTES} bytes: refused`);
  }
  const unsafe = (why: string) => new UnpackError('unsafe_path', `archive entry ${quoted(name)} ${why}: refused (path traversal)`);
  if (CONTROL_RE.test(name)) throw unsafe('contains control characters');
  if (name.startsWith('/') || /^[A-Za-z]:/.test(name) || name.startsWith('\\')) throw unsafe('is an absolute path');
  const segments = name.split('/').filter((segment) => segment !== '' && segment !== '.');
  if (segments.includes('..')) throw unsafe('has a ".." segment');
  if (segments.length === 0) throw unsafe('names no file');
  const path = resolve(dir, ...segments);
  const rel = relative(dir, path);
  if (rel === '' || rel.startsWith(`..${sep}`) || rel === '..' || isAbsolute(rel)) throw unsafe('leaves the destination');
  return path;
}

class Budget {
  entries = 0;
  bytes = 0;
  files = 0;
  constructor(readonly limits: UnpackLimits) {}
  entry(): void {
    this.entries += 1;
    if (this.entries > this.limits.maxFiles) throw new UnpackError('too_many_files', `archive holds more than ${this.limits.maxFiles} entries (maxFiles)`);
  }
  file(name: string, size: number): void {
    if (size > this.limits.maxFileBytes) {
      throw new UnpackError('file_too_large', `archive entry ${quoted(name)} is larger than ${this.limits.maxFileBytes} bytes (maxFileBytes)`);
    }
    this.bytes += size;
    if (this.bytes > this.limits.maxTotalBytes) throw new UnpackError('too_large', `archive unpacks to more than ${this.limits.maxTotalBytes} bytes (maxTotalBytes)`);
    this.files += 1;
  }
}

/**
 * Writes one entry. `content` is opened only once the directory exists and is piped at once: a
 * zip entry's stream starts inflating as soon as it is open, and its size check must meet a listener.
 */
async function writeEntry(path: string, content: () => Promise<Readable>, size: number, name: string, limits: UnpackLimits): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  const source = await content();
  // pipeline reports the first error and then stops listening; a source that fails again later
  // (yauzl's size check, after the cap below cut the entry) must not become an uncaught error.
  source.on('error', () => {});
  // The cap holds even where the declared size is not checked against the bytes.
  await pipeline(source, new ByteCap(Math.min(size, limits.maxFileBytes), () => new UnpackError('corrupt', `archive entry ${quoted(name)} holds more bytes than it declares`)), createWriteStream(path, { mode: 0o644 }));
}

function asUnpackError(error: unknown, format: 'tgz' | 'zip'): UnpackError {
  if (error instanceof UnpackError) return error;
  const message = error instanceof Error ? error.message : String(error);
  return new UnpackError('corrupt', `${format === 'tgz' ? 'gzip/tar' : 'zip'} archive is corrupt: ${message.slice(0, 200)}`);
}

/** Writes one entry under `dir`, or records it as skipped, within the budget. */
async function unpackEntry(entry: ArchiveEntry, dir: string, budget: Budget, skipped: UnpackResult['skipped']): Promise<boolean> {
  budget.entry();
  const path = entryPath(dir, entry.name);
  if (entry.kind === 'file') {
    budget.file(entry.name, entry.size);
    await writeEntry(path, entry.open, entry.size, entry.name, budget.limits);
  } else if (entry.kind === 'directory') await mkdir(path, { recursive: true });
  else skipped.push({ name: entry.name, reason: entry.kind });
  return true;
}

async function unpackEntries(archive: string, format: 'tgz' | 'zip', dir: string, budget: Budget, skipped: UnpackResult['skipped']): Promise<void> {
  const { limits } = budget;
  try {
    await readArchiveEntries(archive, format, (entry) => unpackEntry(entry, dir, budget, skipped), {
      // Headers and padding take at most 1.5 KiB per entry beyond the content; a pax header a little
      // more. Anything past this is a bomb hiding in padding or after the end-of-archive marker.
      maxStreamBytes: limits.maxTotalBytes + limits.maxFiles * 4096 + 1024 * 1024,
      // The central directory says how many entries there are before a byte is inflated.
      onZipEntryCount: (count) => {
        if (count > limits.maxFiles) throw new UnpackError('too_many_files', `archive holds more than ${limits.maxFiles} entries (maxFiles)`);
      },
    });
  } catch (error) {
    if (error instanceof ArchiveStreamLimitError) throw new UnpackError('too_large', `archive unpacks to more than ${limits.maxTotalBytes} bytes (maxTotalBytes)`);
    throw asUnpackError(error, format);
  }
}

/** gzip `1f 8b`; zip local header `PK\3\4`, empty archive `PK\5\6`. */
async function formatOf(archive: string): Promise<'tgz' | 'zip' | null> {
  const handle = await open(archive, 'r');
  try {
    const head = Buffer.alloc(4);
    const { bytesRead } = await handle.read(head, 0, 4, 0);
    if (bytesRead >= 2 && head[0] === 0x1f && head[1] === 0x8b) return 'tgz';
    if (bytesRead === 4 && head[0] === 0x50 && head[1] === 0x4b && ((head[2] === 3 && head[3] === 4) || (head[2] === 5 && head[3] === 6))) return 'zip';
    return null;
  } finally {
    await handle.close();
  }
}

/**
 * Unpacks an npm `.tgz`, an sdist `.tar.gz`, a `.zip` or a `.whl` (told apart by their first bytes,
 * not their names) into `dir`, which must be missing or empty. Links and special files are skipped;
 * an unsafe path or a limit reached refuses the whole archive with an UnpackError, after which
 * `dir` holds a partial tree the caller deletes.
 */
export async function unpackArchive(archive: string, dir: string, limits: Partial<UnpackLimits> = {}): Promise<UnpackResult> {
  const resolvedLimits = { ...DEFAULT_UNPACK_LIMITS, ...limits };
  const format = await formatOf(archive);
  if (format === null) throw new UnpackError('not_an_archive', `${archive} is neither a gzip (.tgz, .tar.gz) nor a zip (.zip, .whl) archive`);
  const target = resolve(dir);
  await mkdir(target, { recursive: true });
  if ((await readdir(target)).length > 0) throw new TypeError(`dir: ${dir} is not empty`);
  const budget = new Budget(resolvedLimits);
  const skipped: UnpackResult['skipped'] = [];
  await unpackEntries(archive, format, target, budget, skipped);
  const top = await readdir(target, { withFileTypes: true });
  const root = top.length === 1 && top[0]!.isDirectory() ? join(target, top[0]!.name) : target;
  return { format, dir: target, root, files: budget.files, bytes: budget.bytes, skipped };
}
