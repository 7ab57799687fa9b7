import { brotliDecompressSync, gunzipSync, inflateRawSync, inflateSync, unzipSync } from 'node:zlib';

// Decoders the folding of both languages applies to constants, on bytes kept as latin1 strings
// (one character per byte), as Python's `base64.b85decode`, `b32decode`, `a85decode` and
// `zlib.decompress` and Node's `zlib.gunzipSync` would return them. Nothing is executed: these only
// turn constant text into the bytes a program would see, so the result can be read.

/** At most this many bytes come out of one decompression (a zip bomb stops here). */
const MAX_OUTPUT = 1 << 20;

const B85 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz!#$%&()*+-;<=>?@^_`{|}~';
const B85_INDEX = new Map([...B85].map((c, i) => [c, i]));

/** Python's `base64.b85decode` (RFC 1924 alphabet), or undefined when the text is not base85. */
export function b85decode(text: string): string | undefined {
  const s = text.replace(/\s+/g, '');
  const pad = (5 - (s.length % 5)) % 5;
  const padded = s + '~'.repeat(pad);
  const out: number[] = [];
  for (let i = 0; i < padded.length; i += 5) {
    let acc = 0;
    for (let j = 0; j < 5; j++) {
      const v = B85_INDEX.get(padded[i + j]!);
      if (v === undefined) return undefined;
      acc = acc * 85 + v;
    }
    if (acc > 0xffffffff) return undefined;
    out.push((acc >>> 24) & 0xff, (acc >>> 16) & 0xff, (acc >>> 8) & 0xff, acc & 0xff);
  }
  return Buffer.from(out.slice(0, out.length - pad)).toString('latin1');
}

/** Python's `base64.a85decode` (Ascii85, `z` for four zero bytes, optional `<~ ~>`), or undefined. */
export function a85decode(text: string): string | undefined {
  let s = text.replace(/\s+/g, '');
  if (s.startsWith('<~')) s = s.slice(2);
  if (s.endsWith('~>')) s = s.slice(0, -2);
  s = s.replace(/z/g, '!!!!!');
  const pad = (5 - (s.length % 5)) % 5;
  const padded = s + 'u'.repeat(pad);
  const out: number[] = [];
  for (let i = 0; i < padded.length; i += 5) {
    let acc = 0;
    for (let j = 0; j < 5; j++) {
      const c = padded.charCodeAt(i + j);
      if (c < 33 || c > 117) return undefined;
      acc = acc * 85 + (c - 33);
    }
    if (acc > 0xffffffff) return undefined;
    out.push((acc >>> 24) & 0xff, (acc >>> 16) & 0xff, (acc >>> 8) & 0xff, acc & 0xff);
  }
  return Buffer.from(out.slice(0, out.length - pad)).toString('latin1');
}

/** Python's `base64.b32decode` (RFC 4648 alphabet, `=` padding), or undefined. */
export function b32decode(text: string): string | undefined {
  const s = text.replace(/\s+/g, '').replace(/=+$/, '').toUpperCase();
  const out: number[] = [];
  let bits = 0;
  let value = 0;
  for (const c of s) {
    const v = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567'.indexOf(c);
    if (v < 0) return undefined;
    value = (value << 5) | v;
    bits += 5;
    if (bits >= 8) {
      out.push((value >>> (bits - 8)) & 0xff);
      bits -= 8;
    }
  }
  return Buffer.from(out).toString('latin1');
}

/**
 * Decompressed bytes (zlib, gzip or raw deflate: whatever the data is, as `zlib.decompress` with
 * its `wbits` or Node's `unzipSync` would take it; `brotli` only when asked), or undefined.
 */
export function decompress(bytes: Buffer, kind: 'any' | 'gzip' | 'raw' | 'brotli' = 'any'): string | undefined {
  const attempts = kind === 'brotli' ? [brotliDecompressSync] : kind === 'raw' ? [inflateRawSync] : kind === 'gzip' ? [gunzipSync] : [unzipSync, inflateSync, inflateRawSync];
  for (const f of attempts) {
    try {
      return f(bytes, { maxOutputLength: MAX_OUTPUT }).toString('latin1');
    } catch {
      // Not this format (or over the limit): try the next.
    }
  }
  return undefined;
}
