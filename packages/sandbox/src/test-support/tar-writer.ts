import { createGzip } from 'node:zlib';
import type { Writable } from 'node:stream';
import { pack, type Header } from 'tar-stream';

// Shared with @vigil/reference-agents' tests, which import it by relative path (as the server's tests
// import @vigil/registries' test-support): one copy for the workspace. Never published.

export interface TarEntryInput {
  header: Partial<Header> & { name: string };
  content?: Buffer | string;
  /** Streamed content: this many zero bytes, written in 1 MiB chunks (a bomb without holding it in memory). */
  zeros?: number;
}

/** A .tar.gz built with tar-stream (the library the unpacker reads with), entries as given. */
export async function tarGz(entries: TarEntryInput[]): Promise<Buffer> {
  const archive = pack();
  const gzip = createGzip({ level: 9 });
  const chunks: Buffer[] = [];
  gzip.on('data', (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise<void>((resolve, reject) => {
    gzip.on('end', resolve);
    gzip.on('error', reject);
  });
  archive.pipe(gzip);
  for (const entry of entries) {
    if (entry.zeros !== undefined) {
      // tar-stream's sink behaves as a Writable for what is used here.
      const stream = archive.entry({ ...entry.header, size: entry.zeros } as Header) as unknown as Writable;
      const chunk = Buffer.alloc(1024 * 1024);
      for (let left = entry.zeros; left > 0; left -= chunk.length) {
        const piece = left >= chunk.length ? chunk : chunk.subarray(0, left);
        if (!stream.write(piece)) await new Promise((resolve) => stream.once('drain', resolve));
      }
      await new Promise<void>((resolve, reject) => {
        stream.on('finish', resolve);
        stream.on('error', reject);
        stream.end();
      });
    } else {
      await new Promise<void>((resolve, reject) => archive.entry(entry.header as Header, entry.content ?? '', (error) => (error ? reject(error) : resolve())));
    }
  }
  archive.finalize();
  await done;
  return Buffer.concat(chunks);
}
