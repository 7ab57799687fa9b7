import { createGzip } from 'node:zlib';
import { pack, type Header } from 'tar-stream';

/**
 * A .tar.gz written by tar-stream (the library listings read with): names longer than ustar's
 * fields go into pax headers, as GNU tar and npm write them, so a test can give any name.
 */
export async function paxTarGz(entries: ReadonlyArray<Partial<Header> & { name: string; content?: string }>): Promise<Buffer> {
  const archive = pack();
  const gzip = createGzip({ level: 9 });
  const chunks: Buffer[] = [];
  gzip.on('data', (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise<void>((resolve, reject) => {
    gzip.on('end', resolve);
    gzip.on('error', reject);
  });
  archive.pipe(gzip);
  for (const { content, ...header } of entries) {
    await new Promise<void>((resolve, reject) => archive.entry(header as Header, content ?? '', (error) => (error ? reject(error) : resolve())));
  }
  archive.finalize();
  await done;
  return Buffer.concat(chunks);
}
