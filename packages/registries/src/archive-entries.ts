import { gunzipSync, inflateRawSync } from 'node:zlib';

/** One file of an archive: its path and, when asked for, its bytes. */
export interface ArchiveEntry {
  path: string;
  size: number;
  content: Buffer | null;
}

/**
 * The regular files of a gzipped tar (npm tarball, sdist), with the contents of those `want`
 * selects. Only what track choice needs: ustar and pax `path` records; a malformed archive yields
 * the entries read before the damage (the bytes are judged by the agents, not refused here).
 */
export function tarGzEntries(bytes: Buffer, want: (path: string) => boolean, maxGunzippedBytes: number): ArchiveEntry[] {
  let tar: Buffer;
  try {
    tar = gunzipSync(bytes, { maxOutputLength: maxGunzippedBytes });
  } catch {
    return [];
  }
  const entries: ArchiveEntry[] = [];
  let offset = 0;
  let paxPath: string | null = null;
  while (offset + 512 <= tar.length) {
    const header = tar.subarray(offset, offset + 512);
    if (header.every((b) => b === 0)) break;
    const size = parseInt(field(header, 124, 12).trim() || '0', 8);
    if (!Number.isFinite(size) || size < 0) break;
    const type = String.fromCharCode(header[156] ?? 48);
    const prefix = field(header, 345, 155);
    const name = field(header, 0, 100);
    const body = tar.subarray(offset + 512, offset + 512 + size);
    if (type === 'x') {
      const match = /(?:^|\n)\d+ path=([^\n]*)\n/.exec(body.toString('utf8'));
      paxPath = match ? match[1]! : null;
    } else if (type === '0' || type === '\0' || type === '7') {
      const path = paxPath ?? (prefix ? `${prefix}/${name}` : name);
      entries.push({ path, size, content: want(path) ? Buffer.from(body) : null });
      paxPath = null;
    } else {
      paxPath = null;
    }
    offset += 512 + Math.ceil(size / 512) * 512;
  }
  return entries;
}

function field(header: Buffer, start: number, length: number): string {
  const raw = header.subarray(start, start + length);
  const end = raw.indexOf(0);
  return raw.subarray(0, end < 0 ? length : end).toString('utf8');
}

/** The files of a zip (a wheel) from its central directory, with the contents `want` selects. */
export function zipEntries(bytes: Buffer, want: (path: string) => boolean, maxEntryBytes: number): ArchiveEntry[] {
  const eocd = bytes.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  if (eocd < 0 || eocd + 22 > bytes.length) return [];
  const count = bytes.readUInt16LE(eocd + 10);
  let offset = bytes.readUInt32LE(eocd + 16);
  const entries: ArchiveEntry[] = [];
  for (let i = 0; i < count && offset + 46 <= bytes.length; i += 1) {
    if (bytes.readUInt32LE(offset) !== 0x02014b50) break;
    const method = bytes.readUInt16LE(offset + 10);
    const compressed = bytes.readUInt32LE(offset + 20);
    const size = bytes.readUInt32LE(offset + 24);
    const nameLength = bytes.readUInt16LE(offset + 28);
    const extraLength = bytes.readUInt16LE(offset + 30);
    const commentLength = bytes.readUInt16LE(offset + 32);
    const local = bytes.readUInt32LE(offset + 42);
    const path = bytes.subarray(offset + 46, offset + 46 + nameLength).toString('utf8');
    let content: Buffer | null = null;
    if (!path.endsWith('/') && want(path) && size <= maxEntryBytes && local + 30 <= bytes.length) {
      const dataStart = local + 30 + bytes.readUInt16LE(local + 26) + bytes.readUInt16LE(local + 28);
      const data = bytes.subarray(dataStart, dataStart + compressed);
      try {
        content = method === 0 ? Buffer.from(data) : method === 8 ? inflateRawSync(data, { maxOutputLength: maxEntryBytes }) : null;
      } catch {
        content = null;
      }
    }
    if (!path.endsWith('/')) entries.push({ path, size, content });
    offset += 46 + nameLength + extraLength + commentLength;
  }
  return entries;
}
