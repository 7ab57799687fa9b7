/**
 * Obfuscator string tables read back into the text (chalk/debug drainer, September 2025; obfuscator.io
 * output): every string of the payload — `fetch`, `XMLHttpRequest`, `ethereum`, the addresses — sits
 * hex- or base64-encoded in one array, and the code reaches each through a decoder function called
 * with an index (`_0x19b2(8)`, or an alias of it: `var _f = _0x19b2; W[_f(2)]`). Text rules that look
 * for `window.fetch =` see none of it. This puts each call back as the string it returns and turns
 * `x['name']` into `x.name`, so text rules read the code as written before obfuscation.
 *
 * Only the plain table shape is read: an array of at least 5 encoded strings, a function that indexes
 * it with its parameter (optionally less a constant offset, as obfuscator.io writes `p = p - 0x1a3`).
 * A rotated table (`push(shift())` until a checksum matches) needs running the code, and is left.
 * A table of ordinary strings (messages, names) is not encoded and is not touched.
 */
const TABLE = /(?:var|let|const)\s+([\w$]+)\s*=\s*\[((?:\s*(?:'[^'\\\n]*'|"[^"\\\n]*")\s*,){4,}\s*(?:'[^'\\\n]*'|"[^"\\\n]*")\s*,?\s*)\]/g;
const MAX_TABLE = 5000;

function decodeEntry(s: string, kind: 'hex' | 'base64' | 'plain'): string | null {
  if (kind === 'plain') return s;
  const bytes = kind === 'hex' ? Buffer.from(s, 'hex') : Buffer.from(s, 'base64');
  const out = bytes.toString('latin1');
  // A decoded table of text: printable characters, or it was not an encoding of strings.
  return /^[\x20-\x7e\t\r\n]*$/.test(out) ? out : null;
}

/** How a table's entries are encoded: all hex (even length), all base64, or neither. */
function tableKind(entries: string[]): 'hex' | 'base64' | null {
  if (entries.every((e) => e.length >= 2 && e.length % 2 === 0 && /^[0-9a-fA-F]+$/.test(e))) return 'hex';
  if (entries.every((e) => e.length >= 4 && e.length % 4 === 0 && /^[A-Za-z0-9+/]+={0,2}$/.test(e)) && entries.some((e) => /[A-Z]/.test(e) && /[a-z]/.test(e))) return 'base64';
  return null;
}

function quote(s: string): string {
  return `'${s.replace(/\\/g, '\\\\').replace(/'/g, "\\'").replace(/\n/g, '\\n')}'`;
}

function escapeRe(s: string): string {
  return s.replace(/[$]/g, '\\$');
}

/** The text with decoder calls on encoded string tables replaced by their strings; null when none was found. */
export function inlineStringTableCalls(text: string): string | null {
  let out = text;
  let changed = false;
  for (const table of text.matchAll(TABLE)) {
    const name = table[1]!;
    const entries = [...table[2]!.matchAll(/'([^'\\\n]*)'|"([^"\\\n]*)"/g)].map((m) => m[1] ?? m[2] ?? '');
    if (entries.length > MAX_TABLE) continue;
    const kind = tableKind(entries);
    if (kind === null) continue;
    const decoded = entries.map((e) => decodeEntry(e, kind));
    if (decoded.some((d) => d === null)) continue;
    // The decoder: a function whose parameter indexes the table (`function d(i){ … T[i] … }`).
    const fnRe = new RegExp(`function\\s+([\\w$]+)\\s*\\(\\s*([\\w$]+)[^)]*\\)\\s*\\{([^}]{0,400}?)${escapeRe(name)}\\s*\\[\\s*([\\w$]+)(?:\\s*-\\s*(0x[0-9a-fA-F]+|\\d+))?\\s*\\]`, 'g');
    const exprRe = new RegExp(`(?:var|let|const)\\s+([\\w$]+)\\s*=\\s*function\\s*\\(\\s*([\\w$]+)[^)]*\\)\\s*\\{([^}]{0,400}?)${escapeRe(name)}\\s*\\[\\s*([\\w$]+)(?:\\s*-\\s*(0x[0-9a-fA-F]+|\\d+))?\\s*\\]`, 'g');
    // `const d = (i) => atob(T[i])`, `const d = i => { i -= 3; return T[i]; }`: the arrow form of the decoder.
    const arrowRe = new RegExp(`(?:var|let|const)\\s+([\\w$]+)\\s*=\\s*\\(?\\s*([\\w$]+)[^)=]*\\)?\\s*=>\\s*\\{?([^}]{0,400}?)${escapeRe(name)}\\s*\\[\\s*([\\w$]+)(?:\\s*-\\s*(0x[0-9a-fA-F]+|\\d+))?\\s*\\]`, 'g');
    const decoders = new Map<string, number>();
    for (const m of [...text.matchAll(fnRe), ...text.matchAll(exprRe), ...text.matchAll(arrowRe)]) {
      const [, fn, param, body, index, indexOffset] = m;
      if (index !== param) continue;
      // `p = p - 0x1a3`, `p -= 0x1a3`, or `T[p - 0x1a3]`.
      const offset = new RegExp(`\\b${escapeRe(param!)}\\s*(?:=\\s*${escapeRe(param!)}\\s*-|-=)\\s*(0x[0-9a-fA-F]+|\\d+)`).exec(body!);
      decoders.set(fn!, indexOffset !== undefined ? Number(indexOffset) : offset ? Number(offset[1]) : 0);
    }
    // `atob(T[3])`, `Buffer.from(T[3], 'base64').toString()`: the table read in place, with no decoder function.
    out = out.replace(new RegExp(`(?<![\\w$.])(?:atob\\(\\s*${escapeRe(name)}\\s*\\[\\s*(0x[0-9a-fA-F]+|\\d+)\\s*\\]\\s*\\)|Buffer\\.from\\(\\s*${escapeRe(name)}\\s*\\[\\s*(0x[0-9a-fA-F]+|\\d+)\\s*\\]\\s*,\\s*['"](?:base64|hex)['"]\\s*\\)\\s*\\.toString\\(\\s*(?:['"][\\w-]*['"])?\\s*\\))`, 'g'), (whole, a?: string, b?: string) => {
      const s = decoded[Number(a ?? b)];
      if (s === undefined || s === null) return whole;
      changed = true;
      return quote(s);
    });
    if (decoders.size === 0) continue;
    // Aliases: `var _f = _0x19b2` / `, _f = _0x19b2`.
    for (const [fn, offset] of [...decoders]) {
      for (const a of text.matchAll(new RegExp(`([\\w$]+)\\s*=\\s*${escapeRe(fn)}\\s*(?=[,;)\\n])`, 'g'))) decoders.set(a[1]!, offset);
    }
    for (const [fn, offset] of decoders) {
      out = out.replace(new RegExp(`(?<![\\w$.])${escapeRe(fn)}\\s*\\(\\s*(0x[0-9a-fA-F]+|\\d+)\\s*\\)`, 'g'), (whole, n: string) => {
        const s = decoded[Number(n) - offset];
        if (s === undefined || s === null) return whole;
        changed = true;
        return quote(s);
      });
    }
  }
  if (!changed) return null;
  // `W['fetch']` reads as `W.fetch` to the text rules.
  return out.replace(/\[\s*'([A-Za-z_$][\w$]*)'\s*\]/g, '.$1');
}
