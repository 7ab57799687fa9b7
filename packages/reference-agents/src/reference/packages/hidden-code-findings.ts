import type { AgentFinding } from '@vigil/core';
import { escapedOriginalOf } from '../code/printable-escapes.js';
import { SENSITIVE_NAMES } from '../code/code-facts.js';
import { lineAt, referenceFinding } from '../common/reference-finding.js';
import { SECRET_PATH_PATTERN } from '../skills/script-fact.js';
import { decodeInvisibleRun, findInvisiblePayloads, hasCodeSink, hasInvisibleDecoder } from '../code/invisible-payload.js';

/** A string literal written entirely as escape codes (`"\x65\x76\x61\x6c"`, `"\145\166\141\154"`). */
const ESCAPED_LITERAL = /(["'])((?:\\(?:x[0-9a-fA-F]{2}|[0-7]{3}|u[0-9a-fA-F]{4})){3,400})\1/g;
/** Code pushed off-screen: a long run of spaces or tabs, then more code on the same line. */
const SPACES = ' '.repeat(180);
const TABS = '\t'.repeat(60);
const OFFSCREEN_CODE = /[^\s][ \t]{180,}(?:[\w$.]+\s*\(|[\w$]+\s*\[\s*['"`][\w$]+['"`]\s*\]\s*(?:=[^=]|\()|(?:const|let|var)\s+[\w$[{]|(?:global|globalThis|process|module|window)\.[\w$.]+\s*=[^=]|import\s|exec\s*\(|eval\s*\(|require\s*\(|;\s*\w|[;,]?\s*\(\s*\d+\s*,\s*[\w$.]+\s*\)\s*\(|[;,]?\s*[(!~+-]+\s*(?:function\b|[\w$.]+\s*\())/;
/** How much of the line past the whitespace run is judged as hidden code. */
const OFFSCREEN_READ = 1024;
/** Off-screen code that loads modules, runs code or commands, reaches the network or changes PATH. */
const OFFSCREEN_SINK = /\b(?:eval|Function|require|import|child_process|exec(?:Sync)?|spawn(?:Sync)?|execFile(?:Sync)?|vm|fetch|XMLHttpRequest|WebSocket|socket\.io(?:-client)?|https?|net)\b\s*[.(['"`]|\b(?:new\s+Function|process\.env\.PATH|env\.PATH)\b|['"`](?:https?|wss?):\/\/|\[\s*['"`](?:require|eval|exec|Function)['"`]\s*\]|=\s*require\b/;
/** EBCDIC and other code pages no one writes source text in: `b"\x85\xa5\x81\x93".decode("cp1026")` is `eval`. */
const EXOTIC_CODEC = /\.decode\(\s*["'](cp(?:037|273|277|278|280|284|285|290|297|420|423|424|500|833|838|870|871|875|880|905|1025|1026|1047|114\d)|ebcdic[\w-]*)["']/i;
const CODE_LIKE = /(\bimport\b|\bexec\b|\beval\b|require\(|child_process|subprocess|os\.system|https?:\/\/|powershell|\/bin\/(ba)?sh)/;

/** Code evaluation in the same file: what turns the decoded characters into a program. */
const EVALUATES = /\beval\s*\(|\bnew\s+Function\s*\(|\bFunction\s*\(|\bvm\.(runIn\w*|Script|compileFunction)\b|\b(?:exec|compile)\s*\(|__import__\(|\bimportlib\b/;

/** Browser profile and wallet stores (their files have no dot-name a path pattern would catch). */
const BROWSER_STORE = /^(Login Data|Cookies|Web Data|Local State|Local Storage|leveldb|wallet\.dat|Local Extension Settings)$|\b(Login Data|Local Extension Settings|wallet\.dat)\b/;
/** A network API, method or address. */
const NETWORK_NAME = /^(request|get|post|fetch|connect|createConnection|send|sendBeacon|XMLHttpRequest|WebSocket|urlopen|POST|PUT)$|^(https?|wss?):\/\/|^[a-z0-9-]+(\.[a-z0-9-]+)*\.(com|net|org|io|dev|app|xyz|top|ru|cn|example|site|online|cc|me|info|biz)$/i;

/** The bytes an invisible run stands for: selectors as byte values, tags as ASCII, zero-width pairs as bits. */
export function decodeInvisible(run: string): string {
  return decodeInvisibleRun(run).decoded;
}

function unescape(body: string): string {
  return body.replace(/\\(x[0-9a-fA-F]{2}|u[0-9a-fA-F]{4}|[0-7]{3})/g, (_m, e: string) => String.fromCharCode(e[0] === 'x' || e[0] === 'u' ? parseInt(e.slice(1), 16) : parseInt(e, 8)));
}

/**
 * Code hidden in a source file's text rather than its syntax: names and code spelled as escape
 * codes, code pushed past the edge of the screen, text in an EBCDIC code page. Linear scans.
 */
export function hiddenCodeFindings(read: string, file: string): AgentFinding[] {
  // The escaping is what this reader looks at: the file as written, not as the other readers get it.
  const text = escapedOriginalOf(read);
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
  out.push(...invisibleCodeFindings(text, file));
  // A string table of an obfuscated stealer: the credential store it reads and the channel it sends
  // through, both spelled as escape codes. No program hides the name of a key file from its reader for a good reason.
  if (store.length > 0 && channel.length > 0) {
    out.push(referenceFinding({ category: 'credential_access', severity: 'CRIT', title: 'Credential store and network names spelled as escape codes (obfuscated stealer)', file, line: lineAt(text, store[0]!.index), evidence: `${store.map((x) => x.value).slice(0, 3).join(', ')} … ${channel.slice(0, 3).join(', ')}`.slice(0, 300) }));
  }
  const off = text.includes(SPACES) || text.includes(TABS) ? OFFSCREEN_CODE.exec(text) : null;
  if (off !== null) {
    // What sits past the edge of the screen is judged as hidden: code that loads modules, runs code or
    // commands, opens a network channel or changes PATH there is CRIT, anything else HIGH. Only the
    // text just past the run is read: in a one-line bundle the rest of the line is the rest of the file.
    let from = off.index + 1;
    while (text[from] === ' ' || text[from] === '\t') from++;
    const hidden = text.slice(from, from + OFFSCREEN_READ).split('\n', 1)[0]!;
    const runs = OFFSCREEN_SINK.test(hidden);
    out.push(referenceFinding({ category: 'obfuscation', severity: runs ? 'CRIT' : 'HIGH', title: 'Code hidden after a long run of whitespace on a line', file, line: lineAt(text, off.index), evidence: off[0].replace(/[ \t]{20,}/, ' […whitespace…] ').slice(0, 160) }));
  }
  const codec = text.includes('.decode(') ? EXOTIC_CODEC.exec(text) : null;
  if (codec !== null) out.push(referenceFinding({ category: 'obfuscation', severity: /getattr|exec|eval|__import__/.test(text) ? 'HIGH' : 'MED', title: 'Text hidden in an EBCDIC code page', file, line: lineAt(text, codec.index), evidence: codec[0] }));
  return out;
}

/**
 * Programs hidden in characters that render as nothing (GlassWorm, 2025) or as blank glyphs: a run
 * of 16 or more variation selectors, tag characters or zero-width characters is CRIT in a file that
 * evaluates code, HIGH otherwise; a run of 24 or more Private Use Area characters that decodes (low
 * byte) to printable text counts only where the file has the arithmetic that decodes it
 * (`codePointAt`/`charCodeAt`/`ord` with the block's base): CRIT with a code or process sink, HIGH
 * without. One finding per file, at the first run.
 */
export function invisibleCodeFindings(text: string, file: string): AgentFinding[] {
  const payloads = findInvisiblePayloads(text, 4);
  if (payloads.length === 0) return [];
  const decoder = hasInvisibleDecoder(text);
  const first = payloads.find((p) => p.kind !== 'private-use') ?? (decoder ? payloads[0]! : undefined);
  if (first === undefined) return [];
  const shown = /^[\x20-\x7e\n\t]+$/.test(first.decoded) ? ` → ${first.decoded.slice(0, 100)}` : '';
  // With code evaluation in the file, the invisible text is a program the file runs.
  const runs = first.kind === 'private-use' ? hasCodeSink(text) : EVALUATES.test(text) || (decoder && hasCodeSink(text));
  return [referenceFinding({ category: 'obfuscation', severity: runs ? 'CRIT' : 'HIGH', title: runs ? 'Runs code hidden in invisible Unicode characters' : 'Carries data hidden in invisible Unicode characters', file, line: lineAt(text, first.index), evidence: `${first.length}+ ${first.kind === 'private-use' ? 'Private Use Area' : 'invisible'} characters${shown}` })];
}
