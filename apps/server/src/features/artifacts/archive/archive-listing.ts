import { createReadStream } from 'node:fs';
import { open } from 'node:fs/promises';
import { Transform, type TransformCallback } from 'node:stream';
import { createGunzip } from 'node:zlib';
import { MAX_ARCHIVE_ENTRIES, MAX_ARCHIVE_LISTING_BYTES, MAX_ARCHIVE_NAME_BYTES, type ArchiveEntry, type ArchiveFormat, type ArchiveListing } from '@vigil/core';
import { extract } from 'tar-stream';
import yauzl from 'yauzl';

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
  let listing: ArchiveListing;
  if (format === 'tgz') listing = await listTarGz(path, capture);
  else if (format === 'zip') listing = await listZip(path, capture);
  else listing = ok('none', null, false);
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

class ByteBudget extends Transform {
  seen = 0;
  exceeded = false;
  constructor(private readonly max: number) {
    super();
  }
  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    this.seen += chunk.byteLength;
    if (this.seen > this.max) {
      this.exceeded = true;
      return done(new Error('decompressed size budget reached'));
    }
    done(null, chunk);
  }
}

function listTarGz(path: string, capture: Capture): Promise<ArchiveListing> {
  return new Promise((resolve) => {
    const list = new FileList();
    const source = createReadStream(path);
    const gunzip = createGunzip();
    const budget = new ByteBudget(MAX_DECOMPRESSED_BYTES);
    const tar = extract();
    const streams: { on(event: 'error', listener: (error: unknown) => void): unknown; destroy(): void }[] = [source, gunzip, budget, tar];
    let settled = false;
    const finish = (listing: ArchiveListing) => {
      if (settled) return;
      settled = true;
      for (const stream of streams) stream.destroy();
      resolve(listing);
    };
    const fail = (error: unknown) => finish(budget.exceeded ? ok('tgz', list, true) : corrupt('tgz', error));
    tar.on('entry', (header, stream, next) => {
      const listed = header.type === 'file' || header.type === 'contiguous-file' ? list.add(header.name, header.size ?? 0) : true;
      if (!listed || list.full) {
        finish(ok('tgz', list, true));
        return;
      }
      // An entry that claims more bytes than the archive holds fails on its own stream: without this
      // listener that error would have no handler and end the process.
      stream.on('error', fail);
      const isFile = header.type === 'file' || header.type === 'contiguous-file';
      if (isFile && capture.wants(header.name, header.size ?? 0)) {
        const chunks: Buffer[] = [];
        stream.on('data', (chunk: unknown) => chunks.push(chunk as Buffer));
        stream.on('end', () => {
          capture.files.set(header.name, Buffer.concat(chunks));
          next();
        });
        return;
      }
      stream.on('end', next);
      stream.resume();
    });
    tar.on('finish', () => finish(ok('tgz', list, false)));
    // Closed without finishing or failing (a stream torn down early): whatever ended it, not a listing.
    tar.on('close', () => finish(corrupt('tgz', new Error('the archive ended before its last entry'))));
    for (const stream of streams) stream.on('error', fail);
    source.pipe(gunzip).pipe(budget).pipe(tar);
  });
}

const S_IFMT = 0o170000;
const S_IFREG = 0o100000;

/**
 * A zip entry made on Unix (version made by, high byte 3) carries its st_mode in the high 16 bits of
 * the external attributes: a symbolic link (S_IFLNK, its target as content), a directory without a
 * trailing slash, a device are not regular files and are left out, as tgz listings leave out links.
 * Entries from other systems (or with no type bits) are files unless named with a trailing slash.
 */
function isRegularZipEntry(entry: yauzl.Entry): boolean {
  if (entry.versionMadeBy >> 8 !== 3) return true;
  const type = (entry.externalFileAttributes >>> 16) & S_IFMT;
  return type === 0 || type === S_IFREG;
}

function listZip(path: string, capture: Capture): Promise<ArchiveListing> {
  return new Promise((resolve) => {
    // decodeStrings off: yauzl would refuse the whole archive on a `../` or absolute entry name, and
    // such a name is exactly what an analyst needs to see. Names are listed as declared, never used
    // as paths, the same as tgz listings.
    yauzl.open(path, { lazyEntries: true, autoClose: true, decodeStrings: false, validateEntrySizes: true }, (openError, zip) => {
      if (openError || !zip) {
        resolve(corrupt('zip', openError ?? new Error('unreadable zip')));
        return;
      }
      const list = new FileList();
      let settled = false;
      const finish = (listing: ArchiveListing) => {
        if (settled) return;
        settled = true;
        zip.close();
        resolve(listing);
      };
      let read = 0;
      const nextEntry = () => {
        if (list.full) finish(ok('zip', list, zip.entryCount > read));
        else zip.readEntry();
      };
      zip.on('entry', (entry: yauzl.Entry) => {
        const name = yauzl.getFileNameLowLevel(entry.generalPurposeBitFlag, entry.fileName as unknown as Buffer, entry.extraFields, false);
        const isFile = !name.endsWith('/') && isRegularZipEntry(entry);
        read += 1;
        // The central directory's declared size: the listing reads no entry's bytes.
        if (isFile && !list.add(name, entry.uncompressedSize)) {
          finish(ok('zip', list, true));
          return;
        }
        if (!isFile || !capture.wants(name, entry.uncompressedSize)) {
          nextEntry();
          return;
        }
        // validateEntrySizes makes the stream fail when the bytes disagree with the declared size, so
        // a deflate bomb claiming a small size is cut at that size.
        zip.openReadStream(entry, (error, stream) => {
          if (error || !stream) {
            finish(corrupt('zip', error ?? new Error(`${name}: unreadable`)));
            return;
          }
          const chunks: Buffer[] = [];
          stream.on('data', (chunk: Buffer) => chunks.push(chunk));
          stream.on('error', (streamError: unknown) => finish(corrupt('zip', streamError)));
          stream.on('end', () => {
            capture.files.set(name, Buffer.concat(chunks));
            nextEntry();
          });
        });
      });
      zip.on('end', () => finish(ok('zip', list, false)));
      zip.on('error', (error: unknown) => finish(corrupt('zip', error)));
      zip.readEntry();
    });
  });
}
