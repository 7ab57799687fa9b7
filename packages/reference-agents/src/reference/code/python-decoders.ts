import { a85decode, b32decode, b85decode, decompress } from './decode-bytes.js';

/** Python's decoding calls whose result, applied to a constant, is a constant (base64, hex, compression). */
export const PYTHON_DECODERS = /^(base64\.(b64decode|b32decode|b85decode|a85decode|urlsafe_b64decode|decodebytes)|codecs\.decode|bytes\.fromhex|binascii\.(unhexlify|a2b_base64)|zlib\.decompress|marshal\.loads|lzma\.decompress|bz2\.decompress|gzip\.decompress)$/;

/**
 * What a decoding call (`base64.b64decode`, `bytes.fromhex`, `codecs.decode(v, 'rot13')`, ...)
 * gives for a constant argument, as latin1 text; undefined when it is not one the reader can fold.
 * One decoder shared by every Python reader (facts, tools, skills' scripts), so an encoding folded
 * in one is folded in all.
 */
export function decodePythonConstant(callee: string, value: string, codec?: string): string | undefined {
  if (/b64decode|decodebytes|a2b_base64/.test(callee)) return Buffer.from(value, 'base64').toString('latin1');
  if (/fromhex|unhexlify/.test(callee)) return Buffer.from(value.replace(/\s+/g, ''), 'hex').toString('latin1');
  if (/b85decode/.test(callee)) return b85decode(value);
  if (/a85decode/.test(callee)) return a85decode(value);
  if (/b32decode/.test(callee)) return b32decode(value);
  if (/^(zlib|gzip)\.decompress$/.test(callee)) return decompress(Buffer.from(value, 'latin1'), callee === 'gzip.decompress' ? 'gzip' : 'any');
  if (callee === 'codecs.decode' && /^(base64|b64|base_64)(_codec)?$/i.test(codec ?? '')) return Buffer.from(value, 'base64').toString('latin1');
  if (callee === 'codecs.decode' && /^(zlib|zip)(_codec)?$/i.test(codec ?? '')) return decompress(Buffer.from(value, 'latin1'));
  if (callee === 'codecs.decode' && /rot.?13/i.test(codec ?? '')) return value.replace(/[a-z]/gi, (c) => String.fromCharCode(((c.toLowerCase().charCodeAt(0) - 97 + 13) % 26) + (c === c.toLowerCase() ? 97 : 65)));
  return undefined;
}

/** Latin1 text of decoded bytes read as UTF-8 (what `.decode()` gives), when it is valid UTF-8. */
export function utf8OfLatin1(text: string): string {
  const bytes = Buffer.from(text, 'latin1');
  const out = bytes.toString('utf8');
  return out.includes('\ufffd') ? text : out;
}
