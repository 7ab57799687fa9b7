import { gzipSync } from 'node:zlib';

export interface TarEntry {
  path: string;
  content: string;
  /** Octal permission bits, e.g. 0o644. */
  mode?: number;
}

const BLOCK = 512;

function header(entry: TarEntry, size: number): Buffer {
  const block = Buffer.alloc(BLOCK);
  const field = (offset: number, length: number, value: string) => block.write(value, offset, length, 'ascii');
  const octal = (offset: number, length: number, value: number) => field(offset, length, `${value.toString(8).padStart(length - 1, '0')}\0`);
  if (Buffer.byteLength(entry.path) > 100) throw new RangeError(`path: ${entry.path} is longer than ustar's 100 bytes`);
  block.write(entry.path, 0, 100, 'utf8');
  octal(100, 8, entry.mode ?? 0o644);
  octal(108, 8, 0);
  octal(116, 8, 0);
  octal(124, 12, size);
  // mtime 0: the same files always give the same bytes, hence the same content hash.
  octal(136, 12, 0);
  field(148, 8, '        ');
  field(156, 1, '0');
  field(257, 6, 'ustar\0');
  field(263, 2, '00');
  let sum = 0;
  for (const byte of block) sum += byte;
  field(148, 8, `${sum.toString(8).padStart(6, '0')}\0 `);
  return block;
}

/**
 * A gzipped ustar archive of `entries`, byte-for-byte reproducible (fixed mtime, owner and order),
 * as npm and PyPI source distributions are shipped. Small files only: the demo's artifacts.
 */
export function tarGz(entries: readonly TarEntry[]): Uint8Array {
  const parts: Buffer[] = [];
  for (const entry of entries) {
    const body = Buffer.from(entry.content, 'utf8');
    parts.push(header(entry, body.length), body, Buffer.alloc((BLOCK - (body.length % BLOCK)) % BLOCK));
  }
  parts.push(Buffer.alloc(2 * BLOCK));
  return new Uint8Array(gzipSync(Buffer.concat(parts), { level: 9 }));
}
