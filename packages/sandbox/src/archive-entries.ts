import { createReadStream } from 'node:fs';
import { Transform, type Readable, type TransformCallback } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGunzip } from 'node:zlib';
import { extract } from 'tar-stream';
import yauzl from 'yauzl';

/**
 * The one tar/zip reader of Vigil: unpackArchive writes what it reads, and the server's archive
 * listing lists it. Both see the same entries, named and typed the same way, so a file the listing
 * shows is a file the sandbox unpacks.
 */
export type ArchiveEntryKind = 'file' | 'directory' | 'link' | 'special';

export interface ArchiveEntry {
  /** The name as the archive declares it, never checked: a path only once the caller made it safe. */
  name: string;
  kind: ArchiveEntryKind;
  /** The declared size (tar header, zip central directory); the bytes may disagree. */
  size: number;
  /** The entry's bytes, for a `file`: call it at most once, and read the stream to its end. Not called, the bytes are skipped. */
  open(): Promise<Readable>;
}

export interface ReadArchiveEntriesOptions {
  /**
   * A gzip is decompressed up to this many bytes (headers and padding included); past it the read
   * rejects with ArchiveStreamLimitError. A small gzip can expand without bound: a reader must not.
   */
  maxStreamBytes: number;
  /** Told a zip's entry count (from its central directory) before any entry; a throw refuses the archive. */
  onZipEntryCount?: (count: number) => void;
}

export interface ReadArchiveEntriesResult {
  /** False when `visit` stopped the read early. */
  complete: boolean;
  /** Entries `visit` was given. */
  visited: number;
  /** A zip's entry count as its central directory declares it; null for a tgz. */
  declaredEntries: number | null;
}

/** The decompressed stream passed `maxStreamBytes`. */
export class ArchiveStreamLimitError extends Error {
  constructor(readonly maxStreamBytes: number) {
    super(`decompressed size passed ${maxStreamBytes} bytes`);
    this.name = 'ArchiveStreamLimitError';
  }
}

/** Stops a stream after `max` bytes with the error `refusal` gives. */
export class ByteCap extends Transform {
  private seen = 0;
  constructor(
    private readonly max: number,
    private readonly refusal: () => Error,
  ) {
    super();
  }
  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    this.seen += chunk.byteLength;
    if (this.seen > this.max) return done(this.refusal());
    done(null, chunk);
  }
}

/**
 * Calls `visit` on each entry of a gzip'd tar (`tgz`) or a zip, in archive order, waiting for it
 * before the next; `visit` resolves false to stop. Rejects with what `visit` threw, with
 * ArchiveStreamLimitError, or with the reader's own error for a corrupt or truncated archive.
 */
export function readArchiveEntries(
  archive: string,
  format: 'tgz' | 'zip',
  visit: (entry: ArchiveEntry) => Promise<boolean> | boolean,
  options: ReadArchiveEntriesOptions,
): Promise<ReadArchiveEntriesResult> {
  return format === 'tgz' ? readTarGz(archive, visit, options) : readZip(archive, visit, options);
}

function tarKind(type: string | null | undefined): ArchiveEntryKind {
  if (type === 'file' || type === 'contiguous-file') return 'file';
  if (type === 'directory') return 'directory';
  if (type === 'symlink' || type === 'link') return 'link';
  return 'special';
}

async function readTarGz(archive: string, visit: (entry: ArchiveEntry) => Promise<boolean> | boolean, options: ReadArchiveEntriesOptions): Promise<ReadArchiveEntriesResult> {
  const tar = extract();
  let visited = 0;
  let stopped = false;
  // The entry being read. When the gzip stream fails (a truncated archive), tar-stream is destroyed
  // but the entry it was feeding may never end, and its reader would wait forever: the feeding
  // error is passed on to it.
  let current: Readable | undefined;
  const walking = (async () => {
    for await (const entry of tar) {
      // tar-stream's entry is a streamx Readable, which Node's stream functions accept.
      const stream = entry as unknown as Readable;
      current = stream;
      let opened = false;
      visited += 1;
      try {
        const go = await visit({
          name: entry.header.name,
          kind: tarKind(entry.header.type),
          size: entry.header.size ?? 0,
          open: () => {
            opened = true;
            return Promise.resolve(stream);
          },
        });
        if (!go) {
          stopped = true;
          tar.destroy();
          return;
        }
      } catch (error) {
        tar.destroy(error as Error);
        throw error;
      }
      if (!opened) {
        // Skipped bytes: a truncated archive fails this entry's stream too, and the feed reports it.
        stream.on('error', () => {});
        entry.resume();
      }
    }
  })();
  const feeding = pipeline(createReadStream(archive), createGunzip(), new ByteCap(options.maxStreamBytes, () => new ArchiveStreamLimitError(options.maxStreamBytes)), tar);
  // A failed feed (a truncated gzip stream, a bomb) answers at once: the entry loop may never end
  // after tar-stream is destroyed mid-entry, so it is not waited for. The visitor's own failure,
  // when it came first (and so destroyed the feed), is the better answer.
  let walkFailure: { error: unknown } | undefined;
  walking.catch((error: unknown) => {
    walkFailure = { error };
  });
  const fedError = await feeding.then(
    () => undefined,
    (error: unknown) => error ?? new Error('archive stream failed'),
  );
  if (fedError !== undefined) {
    await new Promise((resolve) => setImmediate(resolve));
    if (walkFailure !== undefined) throw walkFailure.error;
    if (stopped) return { complete: false, visited, declaredEntries: null };
    current?.destroy(fedError instanceof Error ? fedError : new Error(String(fedError)));
    throw fedError;
  }
  await walking;
  return { complete: !stopped, visited, declaredEntries: null };
}

const S_IFMT = 0o170000;
const S_IFREG = 0o100000;
const S_IFDIR = 0o040000;
const S_IFLNK = 0o120000;

/** What a zip entry is: only an entry made on Unix (version made by, high byte 3) says, in the high 16 bits of its external attributes. */
function zipEntryKind(entry: yauzl.Entry, name: string): ArchiveEntryKind {
  const type = entry.versionMadeBy >> 8 === 3 ? (entry.externalFileAttributes >>> 16) & S_IFMT : 0;
  if (type === S_IFLNK) return 'link';
  if (type === S_IFDIR || name.endsWith('/')) return 'directory';
  if (type === 0 || type === S_IFREG) return 'file';
  return 'special';
}

function openZip(archive: string): Promise<yauzl.ZipFile> {
  return new Promise((resolvePromise, reject) => {
    // decodeStrings off: yauzl would refuse the whole archive on a `../` or absolute entry name
    // without saying which rule; the unpacker checks names itself, and the listing shows them as
    // declared (exactly what an analyst needs to see). validateEntrySizes: a stream whose bytes
    // disagree with the declared size fails, so a deflate bomb claiming a small size is cut there.
    yauzl.open(archive, { lazyEntries: true, autoClose: true, decodeStrings: false, validateEntrySizes: true, strictFileNames: false }, (error, zip) => {
      if (error || !zip) reject(error ?? new Error('unreadable zip'));
      else resolvePromise(zip);
    });
  });
}

async function readZip(archive: string, visit: (entry: ArchiveEntry) => Promise<boolean> | boolean, options: ReadArchiveEntriesOptions): Promise<ReadArchiveEntriesResult> {
  const zip = await openZip(archive);
  let visited = 0;
  let stopped = false;
  try {
    options.onZipEntryCount?.(zip.entryCount);
    await new Promise<void>((resolvePromise, reject) => {
      zip.on('error', reject);
      zip.on('end', () => resolvePromise());
      zip.on('entry', (entry: yauzl.Entry) => {
        // With decodeStrings off, yauzl's types still say string: the name is the raw bytes.
        const name = yauzl.getFileNameLowLevel(entry.generalPurposeBitFlag, entry.fileName as unknown as Buffer, entry.extraFields, false);
        visited += 1;
        const open = () => new Promise<Readable>((ok, fail) => zip.openReadStream(entry, (error, stream) => (error || !stream ? fail(error ?? new Error(`${name}: unreadable`)) : ok(stream))));
        Promise.resolve()
          .then(() => visit({ name, kind: zipEntryKind(entry, name), size: entry.uncompressedSize, open }))
          .then((go) => {
            if (go) zip.readEntry();
            else {
              stopped = true;
              resolvePromise();
            }
          }, reject);
      });
      zip.readEntry();
    });
  } finally {
    zip.close();
  }
  return { complete: !stopped, visited, declaredEntries: zip.entryCount };
}
