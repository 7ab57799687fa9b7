import { gzipSync } from 'node:zlib';

export interface TarEntry {
  path: string;
  /** Text (written as UTF-8) or bytes. */
  content: string | Uint8Array;
  /** Octal permission bits, e.g. 0o644. */
  mode?: number;
}

const BLOCK = 512;

function header(entry: TarEntry, size: number): Buffer {
  const block = Buffer.alloc(BLOCK);
  const field = (offset: number, length: number, value: string) => block.write(value, offset, length, 'ascii');
  const octal = (offset: number, length: number, value: number) => field(offset, length, `${value.toString(8).padStart(length - 1, '0')}\0`);
  const [prefix, name] = splitPath(entry.path);
  block.write(name, 0, 100, 'utf8');
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
  block.write(prefix, 345, 155, 'utf8');
  let sum = 0;
  for (const byte of block) sum += byte;
  field(148, 8, `${sum.toString(8).padStart(6, '0')}\0 `);
  return block;
}

/**
 * ustar's two path fields: a name of at most 100 bytes and a prefix of at most 155 bytes, joined by
 * a `/`. Paths that do not split so are refused rather than written in a form some readers misread.
 */
function splitPath(path: string): [string, string] {
  if (Buffer.byteLength(path) <= 100) return ['', path];
  for (let at = path.indexOf('/'); at >= 0; at = path.indexOf('/', at + 1)) {
    const prefix = path.slice(0, at);
    const name = path.slice(at + 1);
    if (Buffer.byteLength(prefix) <= 155 && Buffer.byteLength(name) <= 100 && name.length > 0) return [prefix, name];
  }
  throw new RangeError(`path: ${path} does not fit ustar's 100-byte name and 155-byte prefix`);
}

/**
 * A gzipped ustar archive of `entries`, byte-for-byte reproducible (fixed mtime, owner and order),
 * as npm and PyPI source distributions are shipped. Held in memory: the loader packs directories of
 * package size, the seed its small samples.
 */
export function tarGz(entries: readonly TarEntry[]): Uint8Array {
  const parts: Buffer[] = [];
  for (const entry of entries) {
    const body = typeof entry.content === 'string' ? Buffer.from(entry.content, 'utf8') : Buffer.from(entry.content);
    parts.push(header(entry, body.length), body, Buffer.alloc((BLOCK - (body.length % BLOCK)) % BLOCK));
  }
  parts.push(Buffer.alloc(2 * BLOCK));
  return new Uint8Array(gzipSync(Buffer.concat(parts), { level: 9 }));
}
