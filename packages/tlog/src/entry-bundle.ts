import { TlogError } from './errors.js';

/** An entry in a bundle is prefixed by its length as a big-endian uint16 (C2SP tlog-tiles). */
export const MAX_ENTRY_SIZE = 0xffff;

/** The bytes of `tile/entries/<N>`: each entry as uint16 big-endian length || entry. */
export function encodeEntryBundle(entries: readonly Uint8Array[]): Uint8Array {
  let size = 0;
  for (const [i, entry] of entries.entries()) {
    if (entry.length > MAX_ENTRY_SIZE) {
      throw new TlogError('invalid_input', `entry ${i} is ${entry.length} bytes; an entry bundle holds at most ${MAX_ENTRY_SIZE}`);
    }
    size += 2 + entry.length;
  }
  const out = new Uint8Array(size);
  let offset = 0;
  for (const entry of entries) {
    out[offset] = entry.length >> 8;
    out[offset + 1] = entry.length & 0xff;
    out.set(entry, offset + 2);
    offset += 2 + entry.length;
  }
  return out;
}

/** The entries of a bundle. Refuses a truncated length or entry rather than returning a prefix. */
export function parseEntryBundle(bundle: Uint8Array): Uint8Array[] {
  const entries: Uint8Array[] = [];
  let offset = 0;
  while (offset < bundle.length) {
    if (offset + 2 > bundle.length) throw new TlogError('malformed_entry_bundle', `truncated length at byte ${offset}`);
    const length = (bundle[offset]! << 8) | bundle[offset + 1]!;
    offset += 2;
    if (offset + length > bundle.length) {
      throw new TlogError('malformed_entry_bundle', `entry ${entries.length} claims ${length} bytes, ${bundle.length - offset} remain`);
    }
    entries.push(bundle.slice(offset, offset + length));
    offset += length;
  }
  return entries;
}
