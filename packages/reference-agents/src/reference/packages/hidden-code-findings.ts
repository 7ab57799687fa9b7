import type { AgentFinding } from '@vigil/core';
import { SENSITIVE_NAMES } from '../code/code-facts.js';
import { lineAt, referenceFinding } from '../common/reference-finding.js';
import { SECRET_PATH_PATTERN } from '../skills/script-fact.js';

/** A string literal written entirely as escape codes (`"\x65\x76\x61\x6c"`, `"\145\166\141\154"`). */
const ESCAPED_LITERAL = /(["'])((?:\\(?:x[0-9a-fA-F]{2}|[0-7]{3}|u[0-9a-fA-F]{4})){3,400})\1/g;
/** Code pushed off-screen: a long run of spaces or tabs, then more code on the same line. */
const SPACES = ' '.repeat(180);
const TABS = '\t'.repeat(60);
const OFFSCREEN_CODE = /[^\s][ \t]{180,}(?:[\w$.]+\s*\(|import\s|exec\s*\(|eval\s*\(|require\s*\(|;\s*\w|[;,]?\s*\(\s*\d+\s*,\s*[\w$.]+\s*\)\s*\(|[;,]?\s*[(!~+-]+\s*(?:function\b|[\w$.]+\s*\())/;
/** EBCDIC and other code pages no one writes source text in: `b"\x85\xa5\x81\x93".decode("cp1026")` is `eval`. */
const EXOTIC_CODEC = /\.decode\(\s*["'](cp(?:037|273|277|278|280|284|285|290|297|420|423|424|500|833|838|870|871|875|880|905|1025|1026|1047|114\d)|ebcdic[\w-]*)["']/i;
const CODE_LIKE = /(\bimport\b|\bexec\b|\beval\b|require\(|child_process|subprocess|os\.system|https?:\/\/|powershell|\/bin\/(ba)?sh)/;

/**
 * A run of characters that render as nothing: variation selectors (U+FE00–FE0F, U+E0100–E01EF),
 * tag characters (U+E0000–E007F), zero-width spaces and joiners, invisible operators, Hangul
 * fillers. An emoji or a flag holds a few; sixteen in a row carry data (GlassWorm, 2025: each
 * selector one byte of a script the file decodes and evaluates).
 */
const INVISIBLE_RUN = /(?:[\u200B\u200C\u2060-\u2064\uFEFF\u3164\u115F\u1160\u180E\u{E0000}-\u{E007F}]|[\uFE00-\uFE0F]|[\u{E0100}-\u{E01EF}]|\u200D){16,}/u;
const INVISIBLE_HINT = /[\uFE00-\uFE0F\u200B-\u200D\u2060-\u2064\u3164\u115F\u1160\u180E\uDB40]/;
/** Code evaluation in the same file: what turns the decoded characters into a program. */
const EVALUATES = /\beval\s*\(|\bnew\s+Function\s*\(|\bFunction\s*\(|\bvm\.(runIn\w*|Script|compileFunction)\b|\b(?:exec|compile)\s*\(|__import__\(|\bimportlib\b/;

/** Browser profile and wallet stores (their files have no dot-name a path pattern would catch). */
const BROWSER_STORE = /^(Login Data|Cookies|Web Data|Local State|Local Storage|leveldb|wallet\.dat|Local Extension Settings)$|\b(Login Data|Local Extension Settings|wallet\.dat)\b/;
/** A network API, method or address. */
const NETWORK_NAME = /^(request|get|post|fetch|connect|createConnection|send|sendBeacon|XMLHttpRequest|WebSocket|urlopen|POST|PUT)$|^(https?|wss?):\/\/|^[a-z0-9-]+(\.[a-z0-9-]+)*\.(com|net|org|io|dev|app|xyz|top|ru|cn|example|site|online|cc|me|info|biz)$/i;

/** The bytes an invisible run stands for: selectors as byte values, tags as ASCII, zero-width pairs as bits. */
export function decodeInvisible(run: string): string {
  const cps = [...run].map((c) => c.codePointAt(0)!);
  if (cps.every((c) => (c >= 0xfe00 && c <= 0xfe0f) || (c >= 0xe0100 && c <= 0xe01ef))) return String.fromCharCode(...cps.map((c) => (c <= 0xfe0f ? c - 0xfe00 : c - 0xe0100 + 16)));
  if (cps.every((c) => c >= 0xe0000 && c <= 0xe007f)) return String.fromCharCode(...cps.map((c) => c - 0xe0000));
  const kinds = [...new Set(cps)];
  if (kinds.length === 2) {
    const bits = cps.map((c) => (c === kinds[0] ? '0' : '1')).join('');
    let out = '';
    for (let i = 0; i + 8 <= bits.length; i += 8) out += String.fromCharCode(parseInt(bits.slice(i, i + 8), 2));
    return out;
  }
  return '';
}

function unescape(body: string): string {
  return body.replace(/\\(x[0-9a-fA-F]{2}|u[0-9a-fA-F]{4}|[0-7]{3})/g, (_m, e: string) => String.fromCharCode(e[0] === 'x' || e[0] === 'u' ? parseInt(e.slice(1), 16) : parseInt(e, 8)));
}

/**
 * Code hidden in a source file's text rather than its syntax: names and code spelled as escape
 * codes, code pushed past the edge of the screen, text in an EBCDIC code page. Linear scans.
 */
export function hiddenCodeFindings(text: string, file: string): AgentFinding[] {
  const out: AgentFinding[] = [];
  ESCAPED_LITERAL.lastIndex = 0;
  const escapes = /\\(x[0-9a-fA-F]{2}|[0-3][0-7]{2})\\/.test(text) || text.includes('\\u');
  let spelled = false;
  const store: { value: string; index: number }[] = [];
  const channel: string[] = [];
  for (let m = escapes ? ESCAPED_LITERAL.exec(text) : null, n = 0; m !== null && n < 200; m = ESCAPED_LITERAL.exec(text), n++) {
    const value = unescape(m[2]!);
    if (SECRET_PATH_PATTERN.test(value) || BROWSER_STORE.test(value)) store.push({ value, index: m.index });
    if (NETWORK_NAME.test(value)) channel.push(value);
    if (spelled) continue;
    // Only printable ASCII that spells a sensitive name or code: binary tables and non-Latin text are escaped for good reasons.
    if (!/^[\x20-\x7e\n\t]+$/.test(value)) continue;
    if (SENSITIVE_NAMES.has(value) || CODE_LIKE.test(value)) {
      out.push(referenceFinding({ category: 'obfuscation', severity: 'HIGH', title: 'Name or code spelled as escape codes', file, line: lineAt(text, m.index), evidence: `${m[0].slice(0, 80)} → ${value.slice(0, 120)}` }));
      spelled = true;
    }
  }
  const invisible = INVISIBLE_HINT.test(text) ? INVISIBLE_RUN.exec(text) : null;
  if (invisible !== null) {
    const decoded = decodeInvisible(invisible[0]);
    const shown = /^[\x20-\x7e\n\t]+$/.test(decoded) ? ` → ${decoded.slice(0, 100)}` : '';
    // With code evaluation in the file, the invisible text is a program the file runs.
    const runs = EVALUATES.test(text);
    out.push(referenceFinding({ category: 'obfuscation', severity: runs ? 'CRIT' : 'HIGH', title: runs ? 'Runs code hidden in invisible Unicode characters' : 'Carries data hidden in invisible Unicode characters', file, line: lineAt(text, invisible.index), evidence: `${[...invisible[0]].length}+ invisible characters${shown}` }));
  }
  // A string table of an obfuscated stealer: the credential store it reads and the channel it sends
  // through, both spelled as escape codes. No program hides the name of a key file from its reader for a good reason.
  if (store.length > 0 && channel.length > 0) {
    out.push(referenceFinding({ category: 'credential_access', severity: 'CRIT', title: 'Credential store and network names spelled as escape codes (obfuscated stealer)', file, line: lineAt(text, store[0]!.index), evidence: `${store.map((x) => x.value).slice(0, 3).join(', ')} … ${channel.slice(0, 3).join(', ')}`.slice(0, 300) }));
  }
  const off = text.includes(SPACES) || text.includes(TABS) ? OFFSCREEN_CODE.exec(text) : null;
  if (off !== null) out.push(referenceFinding({ category: 'obfuscation', severity: 'HIGH', title: 'Code hidden after a long run of whitespace on a line', file, line: lineAt(text, off.index), evidence: off[0].replace(/[ \t]{20,}/, ' […whitespace…] ').slice(0, 160) }));
  const codec = text.includes('.decode(') ? EXOTIC_CODEC.exec(text) : null;
  if (codec !== null) out.push(referenceFinding({ category: 'obfuscation', severity: /getattr|exec|eval|__import__/.test(text) ? 'HIGH' : 'MED', title: 'Text hidden in an EBCDIC code page', file, line: lineAt(text, codec.index), evidence: codec[0] }));
  return out;
}
