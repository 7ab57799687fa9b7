/**
 * The forms of the API key the filter of every tool answer removes (docs/mcp.md, "The API key").
 * An upstream that quotes the key rarely quotes it whole and as sent: a proxy may upper-case a
 * header, split the token at its `_`, log it base64-encoded (Basic-style) or percent-encode it.
 * The key id (`vgl_<id>`) is not secret; its 48-hex secret is the credential, so the secret on
 * its own is redacted as well as the whole token.
 */

/** `vgl_<8 hex>_<48 hex>`: the id and the secret. */
const TOKEN_RE = /^vgl_([0-9a-fA-F]{8})_([0-9a-fA-F]{48})$/;

const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * Every base64 (and base64url) text that encodes `value` somewhere inside a longer encoded text:
 * the encoding depends on where `value` starts modulo 3, so one stable core per alignment, without
 * the boundary characters that also encode the neighbouring bytes.
 */
function base64Cores(value: string): string[] {
  const bytes = Buffer.from(value, 'utf8');
  const cores: string[] = [];
  for (let shift = 0; shift < 3; shift++) {
    const padded = Buffer.concat([Buffer.alloc(shift), bytes]);
    const encoded = padded.toString('base64').replace(/=+$/, '');
    // Characters wholly determined by `value`'s bytes: skip those mixing in the leading pad bytes
    // (ceil(shift*8/6)) and those mixing in whatever follows (the last partial group).
    const start = Math.ceil((shift * 8) / 6);
    const end = Math.floor((padded.length * 8) / 6);
    const core = encoded.slice(start, end);
    cores.push(core, core.replace(/\+/g, '-').replace(/\//g, '_'));
  }
  return cores;
}

/** Each character as itself or percent-encoded (`%76` for `v`), letters in any case. */
function caseAndPercentPattern(value: string): string {
  return [...value]
    .map((c) => {
      const hex = c.charCodeAt(0).toString(16).padStart(2, '0');
      return `(?:${escapeRe(c)}|%${hex})`;
    })
    .join('');
}

/** The matchers of one key: letter case is ignored for the plain, percent and hex forms, not for base64. */
export interface KeyPattern {
  anyCase: RegExp;
  exactCase: RegExp;
}

/**
 * A matcher for the key in a text: the whole token and its 48-hex secret, in any letter case and
 * percent-encoded; their hex encodings (any case); and their base64 and base64url encodings.
 */
export function keyPattern(apiKey: string): KeyPattern | null {
  if (apiKey.length === 0) return null;
  const match = TOKEN_RE.exec(apiKey);
  const plain = match ? [apiKey, match[2]!] : [apiKey];
  const anyCase: string[] = [];
  const exactCase: string[] = [];
  for (const value of plain) {
    anyCase.push(caseAndPercentPattern(value), Buffer.from(value, 'utf8').toString('hex'));
    for (const core of base64Cores(value)) exactCase.push(escapeRe(core));
  }
  // Longest first, so the whole token wins over its secret inside it.
  const alternation = (list: string[]) => [...new Set(list)].sort((a, b) => b.length - a.length).join('|');
  return { anyCase: new RegExp(alternation(anyCase), 'gi'), exactCase: new RegExp(alternation(exactCase), 'g') };
}

/** `text` with every form of the key `pattern` matches replaced by `[redacted]`. */
export function redactKey(text: string, pattern: KeyPattern | null): string {
  return pattern === null ? text : text.replace(pattern.anyCase, '[redacted]').replace(pattern.exactCase, '[redacted]');
}
