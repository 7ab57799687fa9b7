/**
 * Payloads written in characters that render as nothing or as a blank box: variation selectors
 * (U+FE00–FE0F, U+E0100–E01EF), tag characters (U+E0000–E007F), Private Use Area characters
 * (U+E000–F8FF, planes 15–16), zero-width characters. GlassWorm (2025) and its copies put a
 * program in a string of selectors, turn each back into a byte with `codePointAt() - 0xFE00`
 * arithmetic and hand the bytes to `eval`; the PUA variant subtracts 0xE000. This module finds the
 * runs, decodes them the way such loaders do, and says whether the file has the decoding arithmetic
 * and a sink, so the decoded text can be analysed like any other code.
 */

/** A run of at least 16 selectors, tags, zero-width or invisible-operator characters (an emoji or a flag holds a few). */
const INVISIBLE_RUN = /(?:[\u200B\u200C\u2060-\u2064\uFEFF\u3164\u115F\u1160\u180E\u{E0000}-\u{E007F}]|[\uFE00-\uFE0F]|[\u{E0100}-\u{E01EF}]|\u200D){16,}/gu;
const INVISIBLE_HINT = /[\uFE00-\uFE0F\u200B-\u200D\u2060-\u2064\u3164\u115F\u1160\u180E\uDB40]/;
/** A run of Private Use Area characters (icon fonts use them one or a few at a time, as glyph names). */
const PUA_RUN = /[\uE000-\uF8FF\u{F0000}-\u{FFFFD}\u{100000}-\u{10FFFD}]{24,}/gu;
const PUA_HINT = /[\uE000-\uF8FF\uDB80-\uDBFF]/;
const ANY_HINT = /[\uFE00-\uFE0F\u200B-\u200D\u2060-\u2064\u3164\u115F\u1160\u180E\uDB40\uE000-\uF8FF\uDB80-\uDBFF]/;

/**
 * Code that turns such characters back into bytes: a code point read (`codePointAt`, `charCodeAt`,
 * Python `ord`) and one of the block bases as a number (0xFE00, 0xE0100, 0xE0000, 0xE000, 0xF0000,
 * in hex or decimal), or a mask to the low byte.
 */
const CODE_POINT_READ = /\b(?:codePointAt|charCodeAt)\s*\(|\bord\s*\(/;
const BLOCK_BASE = /\b(?:0x0*(?:fe00|e0100|e0000|e000|f0000|100000)|65024|917760|917504|57344|983040|1048576)\b/i;
/** Where decoded text becomes a program or a process. */
const SINK = /\beval\s*\(|\bnew\s+Function\s*\(|\bFunction\s*\(|\bvm\.(?:runIn\w*|Script|compileFunction)\b|\b(?:exec|compile)\s*\(|__import__\(|\bimportlib\b|\brequire\s*\(\s*[^'"`\s)]|\bimport\s*\(\s*[^'"`\s)]|\bchild_process\b|\bsubprocess\b|\bos\.(?:system|popen)\b|\bspawn(?:Sync)?\s*\(|\bexecSync\s*\(|\bModule\._compile\b|\b_compile\s*\(/;

export interface InvisiblePayload {
  /** Offset of the run in the text. */
  index: number;
  /** Characters in the run. */
  length: number;
  kind: 'selectors' | 'tags' | 'private-use' | 'zero-width';
  /** The run decoded as its loader would (bytes as UTF-8; '' when no decoding fits). */
  decoded: string;
}

function utf8OrLatin1(bytes: number[]): string {
  const buf = Buffer.from(bytes);
  const text = buf.toString('utf8');
  return text.includes('\uFFFD') ? buf.toString('latin1') : text;
}

/** The bytes an invisible run stands for: selectors as byte values, tags as ASCII, PUA as the low byte, two alternating zero-width characters as bits. */
export function decodeInvisibleRun(run: string): { kind: InvisiblePayload['kind']; decoded: string } {
  const cps = [...run].map((c) => c.codePointAt(0)!);
  if (cps.every((c) => (c >= 0xfe00 && c <= 0xfe0f) || (c >= 0xe0100 && c <= 0xe01ef))) return { kind: 'selectors', decoded: utf8OrLatin1(cps.map((c) => (c <= 0xfe0f ? c - 0xfe00 : c - 0xe0100 + 16))) };
  if (cps.every((c) => c >= 0xe0000 && c <= 0xe007f)) return { kind: 'tags', decoded: String.fromCharCode(...cps.map((c) => c - 0xe0000)) };
  if (cps.every((c) => (c >= 0xe000 && c <= 0xf8ff) || c >= 0xf0000)) return { kind: 'private-use', decoded: utf8OrLatin1(cps.map((c) => c & 0xff)) };
  const kinds = [...new Set(cps)];
  if (kinds.length === 2) {
    const bits = cps.map((c) => (c === kinds[0] ? '0' : '1')).join('');
    let out = '';
    for (let i = 0; i + 8 <= bits.length; i += 8) out += String.fromCharCode(parseInt(bits.slice(i, i + 8), 2));
    return { kind: 'zero-width', decoded: out };
  }
  return { kind: 'zero-width', decoded: '' };
}

/** Printable text (what a decoded program is): letters, digits, punctuation, whitespace; at least 90 %. */
export function isPrintable(text: string): boolean {
  if (text === '') return false;
  let ok = 0;
  for (const ch of text) {
    const c = ch.codePointAt(0)!;
    if ((c >= 0x20 && c !== 0x7f && c !== 0xfffd) || c === 0x0a || c === 0x0d || c === 0x09) ok++;
  }
  return ok / [...text].length >= 0.9;
}

/**
 * The invisible payloads of a text (at most `max`). Private Use Area runs count only when they
 * decode to printable text: an icon font's glyphs are one per name, a glyph table's bytes are not text.
 */
export function findInvisiblePayloads(text: string, max = 8): InvisiblePayload[] {
  const out: InvisiblePayload[] = [];
  if (INVISIBLE_HINT.test(text)) {
    INVISIBLE_RUN.lastIndex = 0;
    for (let m = INVISIBLE_RUN.exec(text); m !== null && out.length < max; m = INVISIBLE_RUN.exec(text)) {
      const { kind, decoded } = decodeInvisibleRun(m[0]);
      out.push({ index: m.index, length: [...m[0]].length, kind, decoded });
    }
  }
  if (PUA_HINT.test(text)) {
    PUA_RUN.lastIndex = 0;
    for (let m = PUA_RUN.exec(text); m !== null && out.length < max; m = PUA_RUN.exec(text)) {
      const { decoded } = decodeInvisibleRun(m[0]);
      if (isPrintable(decoded)) out.push({ index: m.index, length: [...m[0]].length, kind: 'private-use', decoded });
    }
  }
  return out.sort((a, b) => a.index - b.index);
}

/** Whether the text has the arithmetic that turns such characters back into bytes. */
export function hasInvisibleDecoder(text: string): boolean {
  return CODE_POINT_READ.test(text) && BLOCK_BASE.test(text);
}

/** Whether the text evaluates code or starts a process (where a decoded payload would go). */
export function hasCodeSink(text: string): boolean {
  return SINK.test(text);
}

/**
 * Adds the decoded text of each invisible payload in a string literal to a file's strings, marked
 * decoded: the rules that judge decoded strings (code, commands, URLs) and re-parse decoded code see
 * the program a selector string carries as they see a base64 one. Only printable decodings count.
 */
export function pushInvisiblePayloads(strings: { value: string; line: number; decoded: boolean }[], literal: string, line: number): void {
  if (!ANY_HINT.test(literal)) return;
  for (const p of findInvisiblePayloads(literal, 2)) if (p.decoded.length >= 4 && isPrintable(p.decoded)) strings.push({ value: p.decoded, line, decoded: true });
}
