import { open } from 'node:fs/promises';
import { buffer } from 'node:stream/consumers';
import { MAX_ARCHIVE_ENTRIES, MAX_ARCHIVE_LISTING_BYTES, MAX_ARCHIVE_NAME_BYTES, type ArchiveEntry, type ArchiveFormat, type ArchiveListing } from '@vigil/core';
import { ArchiveStreamLimitError, readArchiveEntries } from '@vigil/sandbox';

/**
 * A gzip stream is read up to this many decompressed bytes; beyond, the listing stops with
 * `truncated: true` (a small gzip can expand without bound: the listing must not).
 */
export const MAX_DECOMPRESSED_BYTES = 1024 * 1024 * 1024;

/** gzip `1f 8b`; zip local header `PK\3\4`, empty archive `PK\5\6`, spanned `PK\7\8`. */
export function archiveFormatOf(head: Uint8Array): ArchiveFormat {
  if (head[0] === 0x1f && head[1] === 0x8b) return 'tgz';
  if (head[0] === 0x50 && head[1] === 0x4b && [0x0304, 0x0506, 0x0708].includes(((head[2] ?? 0) << 8) | (head[3] ?? 0))) return 'zip';
  return 'none';
}

/**
 * The files listed so far, within the listing's bounds: a name is small to declare and costs its
 * whole length in every answer and in the listings each instance remembers, so a long one is
 * counted rather than listed, and the listing stops before `files` would pass
 * MAX_ARCHIVE_LISTING_BYTES as JSON (or MAX_ARCHIVE_ENTRIES files).
 */
class FileList {
  readonly files: ArchiveEntry[] = [];
  longNamesOmitted = 0;
  /** `files` as JSON: `[`, the entries joined by commas, `]`. */
  private jsonBytes = 2;

  /** Lists a regular file; false when the listing is full (this file not listed: stop, truncated). */
  add(name: string, size: number): boolean {
    if (Buffer.byteLength(name, 'utf8') > MAX_ARCHIVE_NAME_BYTES) {
      this.longNamesOmitted += 1;
      return true;
    }
    const entry = { name, size };
    const bytes = Buffer.byteLength(JSON.stringify(entry), 'utf8') + (this.files.length > 0 ? 1 : 0);
    if (this.jsonBytes + bytes > MAX_ARCHIVE_LISTING_BYTES) return false;
    this.jsonBytes += bytes;
    this.files.push(entry);
    return true;
  }

  get full(): boolean {
    return this.files.length >= MAX_ARCHIVE_ENTRIES;
  }
}

/**
 * The listing with as many of its files (the first ones) as take at most `budget` bytes, each entry
 * counted as its JSON, and the bytes they take: `truncated` when some are left out. The listings
 * of a lookup page share one budget (MAX_LOOKUP_LISTING_BYTES), so a page of many wide listings
 * cannot answer many times the limit of one.
 */
export function fitListing(listing: ArchiveListing, budget: number): { listing: ArchiveListing; bytes: number } {
  if (listing.files === null) return { listing, bytes: 0 };
  let bytes = 0;
  let kept = 0;
  for (const file of listing.files) {
    const entry = Buffer.byteLength(JSON.stringify(file), 'utf8');
    if (bytes + entry > budget) break;
    bytes += entry;
    kept += 1;
  }
  if (kept === listing.files.length) return { listing, bytes };
  return { listing: { ...listing, files: listing.files.slice(0, kept), truncated: true }, bytes };
}

function ok(format: ArchiveFormat, list: FileList | null, truncated: boolean): ArchiveListing {
  return { format, status: 'ok', files: list?.files ?? null, truncated, long_names_omitted: list?.longNamesOmitted ?? 0, error: null };
}

function corrupt(format: ArchiveFormat, error: unknown): ArchiveListing {
  const message = error instanceof Error ? error.message : String(error);
  return { format, status: 'corrupt', files: null, truncated: false, long_names_omitted: 0, error: message.slice(0, 200) };
}

/** The listing of bytes the blob store does not hold: nothing is known of them, not even whether they are an archive. */
export const UNAVAILABLE_LISTING: ArchiveListing = { format: 'unavailable', status: 'unavailable', files: null, truncated: false, long_names_omitted: 0, error: null };

/** A file read out of an archive (package metadata) is kept whole only up to this size; larger ones are not kept. */
export const MAX_CAPTURED_FILE_BYTES = 1024 * 1024;
/** At most this many files are kept from one archive, whatever `capture` asks for. */
export const MAX_CAPTURED_FILES = 16;

export interface ArchiveRead {
  listing: ArchiveListing;
  /** The contents of the entries `capture` asked for (by entry name), each at most MAX_CAPTURED_FILE_BYTES. */
  files: Map<string, Buffer>;
}

export interface ReadArchiveOptions {
  /** Which entries to keep the bytes of, by name (a tar entry's path, a zip entry's file name). */
  capture?: (name: string) => boolean;
}

/**
 * Lists the files inside an artifact (a local file): a gzip is read as a tar (npm's `.tgz`, a
 * source tarball), a zip (a wheel, a `.zip`) through its central directory; anything else is a
 * single file (`format: none`). A corrupt archive is a listing with `status: corrupt`, never a throw.
 */
export async function listArchive(path: string): Promise<ArchiveListing> {
  return (await readArchive(path)).listing;
}

/**
 * listArchive, also keeping the bytes of the entries `capture` names, in the same pass and under the
 * same limits (the decompressed budget, the entry count): the package facts read `package.json` or
 * `METADATA` this way without decompressing the archive a second time.
 */
export async function readArchive(path: string, options: ReadArchiveOptions = {}): Promise<ArchiveRead> {
  const handle = await open(path, 'r');
  let head: Uint8Array;
  try {
    const buffer = Buffer.alloc(4);
    const { bytesRead } = await handle.read(buffer, 0, 4, 0);
    head = buffer.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
  const format = archiveFormatOf(head);
  const capture = new Capture(options.capture);
  const listing = format === 'none' ? ok('none', null, false) : await listEntries(path, format, capture);
  return { listing, files: listing.status === 'ok' ? capture.files : new Map() };
}

/** Which entries to keep, and what was kept. */
class Capture {
  readonly files = new Map<string, Buffer>();
  constructor(private readonly wanted: ((name: string) => boolean) | undefined) {}
  wants(name: string, size: number): boolean {
    return this.wanted !== undefined && size <= MAX_CAPTURED_FILE_BYTES && this.files.size < MAX_CAPTURED_FILES && !this.files.has(name) && this.wanted(name);
  }
}

/**
 * Lists through the sandbox's reader (@vigil/sandbox `readArchiveEntries`), so the listing shows the
 * entries the sandbox would unpack, named and typed the same way: regular files are listed, with
 * their declared sizes (a zip's from its central directory: no entry's bytes are read unless
 * captured); directories, links and special files are not.
 */
async function listEntries(path: string, format: 'tgz' | 'zip', capture: Capture): Promise<ArchiveListing> {
  const list = new FileList();
  let truncated = false;
  // Entries seen, against what a zip's central directory declares.
  const read = { visited: 0, declaredEntries: 0 };
  try {
    await readArchiveEntries(
      path,
      format,
      async (entry) => {
        read.visited += 1;
        if (entry.kind !== 'file') return true;
        // A file the listing has no room for: stop, truncated.
        if (!list.add(entry.name, entry.size)) {
          truncated = true;
          return false;
        }
        // A tgz stops as soon as the listing is full; a zip keeps the file that filled it (its
        // central directory says whether any entry is left out).
        if (list.full && format === 'tgz') {
          truncated = true;
          return false;
        }
        if (capture.wants(entry.name, entry.size)) capture.files.set(entry.name, await buffer(await entry.open()));
        if (list.full) {
          truncated = read.declaredEntries > read.visited;
          return false;
        }
        return true;
      },
      { maxStreamBytes: MAX_DECOMPRESSED_BYTES, onZipEntryCount: (count) => (read.declaredEntries = count) },
    );
    return ok(format, list, truncated);
  } catch (error) {
    // The decompressed budget reached: what was listed so far stands, marked truncated.
    if (error instanceof ArchiveStreamLimitError) return ok(format, list, true);
    return corrupt(format, error);
  }
}
