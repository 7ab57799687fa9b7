import { full } from 'acorn-walk';
import type { Node } from 'acorn';
import { keepForNextParse, parseJavaScript } from './parse-javascript.js';
import { parsePython } from './parse-python.js';

// An escape of a printable ASCII character (`\x63`, `\u0068`, `\u{65}`): the cheap test first.
const PRINTABLE_ESCAPE = /\\(?:x(?:[2-6][0-9a-fA-F]|7[0-9a-eA-E])|u00(?:[2-6][0-9a-fA-F]|7[0-9a-eA-E])|u\{0*(?:[2-6][0-9a-fA-F]|7[0-9a-eA-E])\})/;
const JS_FILE = /\.(?:[cm]?[jt]sx?)$/i;
const PY_FILE = /\.pyw?$/i;

/**
 * A string literal's source with escapes of printable ASCII characters written as the characters
 * (`"\x63\x75\x72\x6c"` → `"curl"`): the same value, in the form every reader of the text (a
 * pattern over the source, a fold of the tree) already reads. Quotes, backslashes, and braces of
 * f-strings stay escaped; `\u` is left alone in Python bytes (it is not an escape there).
 */
function unescapeLiteral(raw: string, keep: string, unicode: boolean): string {
  let out = '';
  for (let i = 0; i < raw.length; i++) {
    const ch = raw[i]!;
    if (ch !== '\\') {
      out += ch;
      continue;
    }
    const rest = raw.slice(i + 1, i + 12);
    const m = /^x([0-9a-fA-F]{2})/.exec(rest) ?? (unicode ? (/^u([0-9a-fA-F]{4})/.exec(rest) ?? /^u\{([0-9a-fA-F]{1,6})\}/.exec(rest)) : null);
    const code = m === null ? NaN : parseInt(m[1]!, 16);
    if (m !== null && code >= 0x20 && code <= 0x7e && !keep.includes(String.fromCharCode(code))) {
      out += String.fromCharCode(code);
      i += m[0].length;
      continue;
    }
    // Any other escape is copied whole (so `\\x41` stays an escaped backslash and `x41`).
    out += ch + (raw[i + 1] ?? '');
    i++;
  }
  return out;
}

// The source as written, for the readers whose subject is the escaping itself (names spelled as escape codes).
const originals = new Map<string, string>();
const MAX_ORIGINALS = 2000;

/** The text as the file wrote it, before `unescapePrintable` (the text itself when nothing was rewritten). */
export function escapedOriginalOf(text: string): string {
  return originals.get(text) ?? text;
}

/** Code text with the printable escapes of its string literals written out (same lines; see `unescapeLiteral`). */
export function unescapePrintable(text: string, path: string): string {
  const out = rewrite(text, path);
  if (out !== text) {
    if (originals.size > MAX_ORIGINALS) originals.clear();
    originals.set(out, text);
  }
  return out;
}

// The rewrites of the texts read last, by the reading they had (round s30): an MCP server's module is
// read again by each reader of the files that import it, and its parse was most of a read's time.
// The rewrite depends only on the text and that reading; bounded by the characters kept.
const rewrites = new Map<string, Partial<Record<'js' | 'ts' | 'py', string>>>();
let rewrittenChars = 0;
const MAX_REWRITTEN_CHARS = 16_000_000;

function rewrite(text: string, path: string): string {
  if (!PRINTABLE_ESCAPE.test(text)) return text;
  const reading = JS_FILE.test(path) ? (/\.[cm]?tsx?$/i.test(path) ? 'ts' : 'js') : PY_FILE.test(path) ? 'py' : null;
  if (reading === null) return text;
  const known = rewrites.get(text)?.[reading];
  if (known !== undefined) return known;
  const out = rewriteUncached(text, path);
  if (rewrittenChars + text.length > MAX_REWRITTEN_CHARS) {
    rewrites.clear();
    rewrittenChars = 0;
  }
  let entry = rewrites.get(text);
  if (entry === undefined) {
    entry = {};
    rewrites.set(text, entry);
    rewrittenChars += text.length;
  }
  entry[reading] = out;
  return out;
}

function rewriteUncached(text: string, path: string): string {
  const edits: { from: number; to: number; text: string }[] = [];
  if (JS_FILE.test(path)) {
    const typescript = /\.[cm]?tsx?$/i.test(path);
    const parsed = parseJavaScript(text, typescript);
    if (parsed === null || parsed.mode !== 'strict') return text;
    full(parsed.program as Node, (n) => {
      const lit = n as Node & { value?: unknown; raw?: string };
      if (n.type !== 'Literal' || typeof lit.value !== 'string' || lit.raw === undefined || !PRINTABLE_ESCAPE.test(lit.raw)) return;
      if (text.slice(n.start, n.end) !== lit.raw) return;
      edits.push({ from: n.start, to: n.end, text: unescapeLiteral(lit.raw, `\\${lit.raw[0]!}`, true) });
    });
    // Most files with such escapes have them only in regular expressions and templates: the text
    // stays as it is, and the facts reader parses this same text next (a large bundle parsed twice
    // was a tenth of the packages eval's time).
    if (edits.length === 0) keepForNextParse(text, typescript, parsed);
  } else if (PY_FILE.test(path)) {
    parsePython(text).iterate({
      enter: (n) => {
        if (n.name !== 'String') return;
        const raw = text.slice(n.from, n.to);
        const prefix = /^[a-zA-Z]*/.exec(raw)![0].toLowerCase();
        if (prefix.includes('r') || prefix.includes('f') || !PRINTABLE_ESCAPE.test(raw)) return;
        edits.push({ from: n.from, to: n.to, text: unescapeLiteral(raw, `\\'"`, !prefix.includes('b')) });
      },
    });
  } else return text;
  if (edits.length === 0) return text;
  let out = '';
  let at = 0;
  for (const e of edits.sort((a, b) => a.from - b.from)) {
    if (e.from < at) continue;
    out += text.slice(at, e.from) + e.text;
    at = e.to;
  }
  return out + text.slice(at);
}
