import { lstat, open, readdir, readFile } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import yauzl from 'yauzl';
import { archiveFormatOf } from '../../artifacts/index.js';

/** An OSV record is a few kilobytes; a `.json` file above this is reported and not read. */
export const MAX_RECORD_BYTES = 4 * 1024 * 1024;

/** One `.json` file of a feed: its text, or why it could not be read. Names are relative to the directory, or zip entry names. */
export type FeedFile = { name: string; text: string } | { name: string; error: string };

/** The feed source is neither a directory nor a zip (or cannot be opened at all). */
export class FeedSourceError extends Error {
  override name = 'FeedSourceError';
}

/**
 * The `.json` files of an OSV feed: a directory (searched recursively, symbolic links not followed,
 * in name order) or a zip such as osv.dev's bulk export (`<ID>.json` entries, in archive order).
 * Other files are passed over.
 */
export async function* readFeedFiles(source: string): AsyncGenerator<FeedFile> {
  const info = await lstat(source).catch((error: unknown) => {
    throw new FeedSourceError(`${source}: ${(error as Error).message}`);
  });
  if (info.isDirectory()) {
    yield* directoryFiles(source);
    return;
  }
  if (!info.isFile()) throw new FeedSourceError(`${source}: neither a directory nor a zip file`);
  const head = Buffer.alloc(4);
  const handle = await open(source, 'r');
  try {
    await handle.read(head, 0, 4, 0);
  } finally {
    await handle.close();
  }
  if (archiveFormatOf(head) !== 'zip') throw new FeedSourceError(`${source}: neither a directory nor a zip file`);
  yield* zipFiles(source);
}

async function* directoryFiles(root: string): AsyncGenerator<FeedFile> {
  const entries = await readdir(root, { recursive: true, withFileTypes: true });
  const files = entries
    .filter((e) => e.isFile() && e.name.endsWith('.json'))
    .map((e) => join(e.parentPath, e.name))
    .sort();
  for (const path of files) {
    const name = relative(root, path).split(sep).join('/');
    const size = (await lstat(path)).size;
    if (size > MAX_RECORD_BYTES) {
      yield { name, error: `larger than ${MAX_RECORD_BYTES} bytes` };
      continue;
    }
    yield { name, text: await readFile(path, 'utf8') };
  }
}

function openZip(path: string): Promise<yauzl.ZipFile> {
  return new Promise((resolve, reject) => {
    yauzl.open(path, { lazyEntries: true, autoClose: true, strictFileNames: false, validateEntrySizes: true }, (error, zip) => {
      if (error || !zip) reject(new FeedSourceError(`${path}: not a readable zip (${error?.message ?? 'unknown error'})`));
      else resolve(zip);
    });
  });
}

function readEntry(zip: yauzl.ZipFile, entry: yauzl.Entry): Promise<string> {
  return new Promise((resolve, reject) => {
    zip.openReadStream(entry, (error, stream) => {
      if (error || !stream) {
        reject(error ?? new Error('unreadable entry'));
        return;
      }
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('error', reject);
      stream.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    });
  });
}

/** Entries one at a time (lazyEntries), so a bulk export of 500,000 records is never held at once. */
async function* zipFiles(path: string): AsyncGenerator<FeedFile> {
  const zip = await openZip(path);
  const next = (): Promise<yauzl.Entry | undefined> =>
    new Promise((resolve, reject) => {
      const onEntry = (entry: yauzl.Entry) => {
        cleanup();
        resolve(entry);
      };
      const onEnd = () => {
        cleanup();
        resolve(undefined);
      };
      const onError = (error: Error) => {
        cleanup();
        reject(new FeedSourceError(`${path}: ${error.message}`));
      };
      const cleanup = () => {
        zip.off('entry', onEntry);
        zip.off('end', onEnd);
        zip.off('error', onError);
      };
      zip.on('entry', onEntry);
      zip.on('end', onEnd);
      zip.on('error', onError);
      zip.readEntry();
    });
  try {
    for (let entry = await next(); entry !== undefined; entry = await next()) {
      if (entry.fileName.endsWith('/') || !entry.fileName.endsWith('.json')) continue;
      if (entry.uncompressedSize > MAX_RECORD_BYTES) {
        yield { name: entry.fileName, error: `larger than ${MAX_RECORD_BYTES} bytes` };
        continue;
      }
      try {
        yield { name: entry.fileName, text: await readEntry(zip, entry) };
      } catch (error) {
        yield { name: entry.fileName, error: `unreadable in the zip (${(error as Error).message})` };
      }
    }
  } finally {
    zip.close();
  }
}
