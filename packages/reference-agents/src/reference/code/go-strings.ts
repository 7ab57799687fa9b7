import { goCommentOrRuneEnd } from './go-trivia.js';

/**
 * A Go source file with everything but the contents of its string literals blanked (newlines kept, so
 * offsets and lines stay those of the file): the text a Go server can hand a model — a tool's result
 * built with `"…" + "…"`, `fmt.Sprintf`, `strings.Builder` writes, `mcp.NewToolResultText` — read as
 * one run of words, without comments, identifiers and rune literals (`'"'` opens no string).
 *
 * Interpreted strings keep their characters, the two-character escapes `\n`, `\t`, `\r`, `\"`, `\\`
 * blanked to spaces around the character they stand for; raw strings (`` `…` ``) are kept as written.
 * Format verbs (`%s`, `%-10v`, `%q`, `%.2f`) are blanked too: in Go the program fills them
 * (`fmt.Sprintf("…?q=%s", url.QueryEscape(q))`), they are not a blank left for the model to fill.
 * (round s30 fix) A verb whose argument is a literal is that literal, though: in the format string of
 * `fmt.Sprintf`/`Printf`/`Errorf`/`Fprintf`/`Appendf` with the arguments on its line, `%s`/`%v` of a
 * string literal reads as its text (`fmt.Sprintf("…?d=%s …", "<CONVERSATION>")`), `%q` as it quoted, `%c`
 * of a rune or an integer literal as its character (`'!'`, `33`), `%d` of an integer as its digits; the
 * text is written where the call's format string and arguments stood (it is never longer than they are).
 * (round s31) A byte or rune slice literal (`[]byte{104, 116, 0x74, 'p'}`, `[]rune{…}`, `[]uint8{…}`, `[]int32{…}`)
 * is the text it spells (`goSliceText`), written (quoted) where the slice stood, as `string(…)` of it gives it to the
 * program; a slice of anything but integer and rune literals, with a byte over 255 or a rune that is no code point,
 * stays blank. Control bytes are read as the characters they are (`0x16, 0x03, 0x01` is three control characters:
 * text that spells no order, not a blank).
 */
export function goStringsView(text: string): string {
  const out: string[] = [];
  const blank = (s: string) => s.replace(/[^\n]/g, ' ');
  let i = 0;
  let plain = 0;
  let constants: ReadonlyMap<string, string> | null = null;
  const flush = (to: number) => {
    if (to > plain) out.push(blank(text.slice(plain, to)));
  };
  while (i < text.length) {
    const c = text[i];
    const past = goCommentOrRuneEnd(text, i);
    if (past > i) {
      i = past;
      continue;
    }
    if (c === '[' && text[i + 1] === ']') {
      const slice = goSliceAt(text, i);
      if (slice !== null) {
        flush(i);
        out.push(slice.view);
        i = plain = slice.end;
        continue;
      }
    }
    if (c === '`' || c === '"') {
      const lit = goLiteral(text, i);
      flush(i);
      const filled = FORMAT_CALL_BEFORE.test(text.slice(Math.max(0, i - 80), i)) ? filledFormat(text, i, lit, (constants ??= packageStrings(text))) : null;
      if (filled !== null) {
        out.push(filled.view);
        i = plain = filled.end;
        continue;
      }
      out.push(verbs(lit.view));
      i = plain = lit.end;
      continue;
    }
    i++;
  }
  flush(text.length);
  return out.join('');
}

/** A byte or rune slice literal: its element type and the text between its braces (bounded, no nested braces). */
const SLICE_AT = /\[\](byte|uint8|rune|int32)\s*\{([^{}]{0,20000})\}/y;
/** Elements of a slice read at most (a host or a command line, not a binary blob). */
const MAX_SLICE_ELEMENTS = 4096;

/**
 * The value of a Go integer or rune literal (`104`, `0x68`, `0o150`, `0150`, `0b1101000`, `1_000`, `'h'`,
 * `'\n'`, `'\x68'`, `'\u00e9'`), or null.
 */
export function goIntegerLiteral(token: string): number | null {
  const t = token.trim().replace(/_/g, '');
  if (/^0[xX][0-9a-fA-F]+$/.test(t)) return parseInt(t.slice(2), 16);
  if (/^0[oO][0-7]+$/.test(t)) return parseInt(t.slice(2), 8);
  if (/^0[bB][01]+$/.test(t)) return parseInt(t.slice(2), 2);
  if (/^0[0-7]+$/.test(t)) return parseInt(t.slice(1), 8);
  if (/^\d{1,10}$/.test(t)) return Number(t);
  const rune = /^'(\\(?:[abfnrtv'"\\]|x[0-9a-fA-F]{2}|u[0-9a-fA-F]{4}|U[0-9a-fA-F]{8}|[0-7]{3})|[^'\\\n]{1,2})'$/.exec(t)?.[1];
  if (rune === undefined) return null;
  if (!rune.startsWith('\\')) return [...rune].length === 1 ? rune.codePointAt(0)! : null;
  const e = rune.slice(1);
  if (/^[xuU]/.test(e)) return parseInt(e.slice(1), 16);
  if (/^[0-7]{3}$/.test(e)) return parseInt(e, 8);
  return ({ a: 7, b: 8, f: 12, n: 10, r: 13, t: 9, v: 11, "'": 39, '"': 34, '\\': 92 } as Record<string, number>)[e] ?? null;
}

/**
 * (round s31) The text a byte or rune slice literal's elements spell (`104, 116, 116, 112` → `http`): bytes
 * read as UTF-8 (Latin-1 when they are not valid UTF-8), runes as code points; null when an element is not an
 * integer or rune literal, a byte is over 255 or a rune is a surrogate or over U+10FFFF, or there are none or
 * more than 4096. Control characters are kept (the readers decide what the text says). The one reader of byte
 * slices for the MCP servers' Go (`goStringsView`, `goStringConstants`) and the repositories' (`foldGoStrings`).
 */
export function goSliceText(kind: string, body: string): string | null {
  const parts = body.split(',').map((p) => p.replace(/\/\/[^\n]*|\/\*[\s\S]*?\*\//g, '').trim());
  if (parts.length > 0 && parts[parts.length - 1] === '') parts.pop();
  if (parts.length === 0 || parts.length > MAX_SLICE_ELEMENTS) return null;
  const values: number[] = [];
  for (const p of parts) {
    const v = goIntegerLiteral(p);
    if (v === null) return null;
    values.push(v);
  }
  if (kind === 'byte' || kind === 'uint8') {
    if (values.some((v) => v > 255)) return null;
    const bytes = Buffer.from(values);
    const utf8 = bytes.toString('utf8');
    return utf8.includes('\ufffd') ? bytes.toString('latin1') : utf8;
  }
  if (values.some((v) => v > 0x10ffff || (v >= 0xd800 && v <= 0xdfff))) return null;
  return String.fromCodePoint(...values);
}

/** The view of a slice literal at `i` (see goStringsView): its text quoted, over blanks that keep the span's newlines. */
function goSliceAt(text: string, i: number): { view: string; end: number } | null {
  SLICE_AT.lastIndex = i;
  const m = SLICE_AT.exec(text);
  if (m === null) return null;
  const value = goSliceText(m[1]!, m[2]!);
  if (value === null) return null;
  const span = m[0];
  const quoted = `"${value.replace(/[\r\n\t]/g, ' ')}"`;
  const out = span.split('').map((ch): string => (ch === '\n' ? '\n' : ' '));
  let k = 0;
  for (let j = 0; j < out.length && k < quoted.length; j++) if (out[j] !== '\n') out[j] = quoted[k++]!;
  return k < quoted.length ? null : { view: out.join(''), end: i + span.length };
}

const VERB = /%[-+# 0]{0,4}(?:\d{1,3}|\*)?(?:\.(?:\d{1,3}|\*)?)?[vTtbcdoOqxXUeEfFgGsp]/g;
const verbs = (s: string) => s.replace(VERB, (m) => ' '.repeat(m.length));

interface GoLiteral {
  /** Offset after the literal's closing quote. */
  end: number;
  /** The literal as the view shows it: quotes kept, two-character escapes read as spaces around the character. */
  view: string;
}

/** The interpreted (`"…"`) or raw (`` `…` ``) string literal that starts at `i`. */
function goLiteral(text: string, i: number): GoLiteral {
  if (text[i] === '`') {
    const close = text.indexOf('`', i + 1);
    const end = close < 0 ? text.length : close + 1;
    return { end, view: text.slice(i, end) };
  }
  let j = i + 1;
  let body = '"';
  while (j < text.length && text[j] !== '"' && text[j] !== '\n') {
    if (text[j] === '\\' && j + 1 < text.length && text[j + 1] !== '\n') {
      const e = text[j + 1] as string;
      body += e === 'n' || e === 't' || e === 'r' ? '  ' : e === '"' || e === '\\' ? ` ${e}` : `\\${e}`;
      j += 2;
      continue;
    }
    body += text[j];
    j++;
  }
  if (text[j] === '"') {
    body += '"';
    j++;
  }
  return { end: j, view: body };
}

// The format string of a fmt call begins here (`fmt.Sprintf(`, `fmt.Fprintf(w, `).
const FORMAT_CALL_BEFORE = /(?:\b(?:Sprintf|Printf|Errorf)\s*\(|\b(?:Fprintf|Appendf)\s*\([^,()"`\n]{1,60},)\s*$/;
const RUNE = /^'(?:\\(?:[nrt'\\]|x[0-9a-fA-F]{2}|u[0-9a-fA-F]{4}|[0-7]{3})|[^'\\\n])'$/;
const INTEGER = /^(?:0[xX][0-9a-fA-F]{1,6}|\d{1,7})$/;

/**
 * The view of a fmt call's format string with each verb whose argument is a literal filled with it,
 * padded with blanks over the call's arguments, and the offset after them; null when the arguments do
 * not end on the format string's line, a verb takes an explicit index or a `*` width, or nothing is filled.
 */
function filledFormat(text: string, from: number, lit: GoLiteral, constants: ReadonlyMap<string, string>): { view: string; end: number } | null {
  // The arguments, split at top-level commas, up to the call's closing parenthesis on the same line.
  const args: string[] = [];
  let depth = 0;
  let start = lit.end;
  let end = -1;
  for (let k = lit.end; k < text.length && k < lit.end + 2000; k++) {
    const ch = text[k] as string;
    if (ch === '\n') return null;
    if (ch === '"' || ch === '`') {
      const inner = goLiteral(text, k);
      k = inner.end - 1;
      continue;
    }
    if (ch === "'") {
      const m = /^'(?:\\[^\n]{1,9}?|[^'\\\n])'/.exec(text.slice(k, k + 12));
      if (m !== null) k += m[0].length - 1;
      continue;
    }
    if (ch === '(' || ch === '[' || ch === '{') depth++;
    else if ((ch === ')' || ch === ']' || ch === '}') && depth > 0) depth--;
    else if (ch === ')' || (ch === ',' && depth === 0)) {
      if (k > lit.end || ch === ',') args.push(text.slice(start, k).trim());
      if (ch === ')') {
        end = k;
        break;
      }
      start = k + 1;
    }
  }
  if (end < 0 || args.length < 2 || args[0] !== '' || text.slice(lit.end, end).includes('\n')) return null;
  args.shift();
  const format = lit.view;
  if (/%(?:[-+# 0]{0,4}\d{0,3}(?:\.\d{0,3})?)?(?:\[|\*)|%\.?\*/.test(format)) return null;
  let n = 0;
  let filledAny = false;
  const view = format.replace(/%%|%[-+# 0]{0,4}\d{0,3}(?:\.\d{0,3})?[vTtbcdoOqxXUeEfFgGsp]/g, (m) => {
    if (m === '%%') return m;
    const arg = args[n++] ?? '';
    const verb = m.slice(-1);
    // A package constant whose text is itself a blank (`var slot = "<CONVERSATION>"`) leaves the verb as the blank it fills.
    const named = constants.get(arg);
    if (named !== undefined && (verb === 's' || verb === 'v') && BLANK_TEXT.test(named)) {
      filledAny = true;
      return m;
    }
    const value = literalArgument(arg, verb);
    if (value === null) return ' '.repeat(m.length);
    filledAny = true;
    return value;
  });
  const span = end + 1 - from;
  if (!filledAny || view.length > span) return null;
  const rest = text.slice(from + view.length, end + 1).replace(/[^\n]/g, ' ');
  return { view: view + rest, end: end + 1 };
}

// A text that is itself a blank for the model to fill (`<NAME>`, `{name}`, `[NAME]`, `$NAME`, an upper-case name).
const BLANK_TEXT = /<[A-Za-z][\w -]{0,40}>|\{\{?\s*[A-Za-z_][\w.]{0,40}\s*\}|\[[A-Z][A-Z_ ]{0,40}\]|\$\{?[A-Za-z_]|^[A-Z][A-Z0-9_]{2,40}$/;

/**
 * Package-level names bound once to one interpreted string literal (`const slot = "…"`, `var slot = "…"`,
 * also inside a `const (…)` block) and never assigned again in the file.
 */
function packageStrings(text: string): Map<string, string> {
  const out = new Map<string, string>();
  const dropped = new Set<string>();
  let block = false;
  for (const line of text.split('\n')) {
    if (/^(?:const|var)[ \t]*\([ \t]*(?:\/\/.*)?$/.test(line)) {
      block = true;
      continue;
    }
    if (block && /^\)/.test(line)) block = false;
    const m = (block ? /^[ \t]+([A-Za-z_]\w{0,60})[ \t]*(?:string[ \t]*)?=[ \t]*("(?:[^"\\\n]|\\.){0,400}")[ \t]*(?:\/\/.*)?$/ : /^(?:const|var)[ \t]+([A-Za-z_]\w{0,60})[ \t]*(?:string[ \t]*)?=[ \t]*("(?:[^"\\\n]|\\.){0,400}")[ \t]*(?:\/\/.*)?$/).exec(line);
    if (m === null) continue;
    const name = m[1] as string;
    if (out.has(name)) dropped.add(name);
    out.set(name, goLiteral(m[2] as string, 0).view.slice(1, -1));
  }
  if (out.size === 0) return out;
  // Assigned anywhere else (`slot = q`, `slot := …`, `slot += …`): not a constant. Its declaration counts once.
  const assigned = new Map<string, number>();
  for (const m of text.matchAll(/(?<![\w.])([A-Za-z_]\w{0,60})[ \t]*(?:string[ \t]*)?(?:=(?!=)|:=|\+=)/g)) {
    const name = m[1] as string;
    if (out.has(name)) assigned.set(name, (assigned.get(name) ?? 0) + 1);
  }
  for (const name of [...out.keys()]) if (dropped.has(name) || (assigned.get(name) ?? 0) > 1) out.delete(name);
  return out;
}

/** What a verb prints for a literal argument, or null when the argument is not a literal it reads. */
function literalArgument(arg: string, verb: string): string | null {
  if ((verb === 's' || verb === 'v' || verb === 'q') && (/^"(?:[^"\\\n]|\\.)*"$/.test(arg) || /^`[^`]*`$/.test(arg))) {
    const v = goLiteral(arg, 0).view;
    if (v.includes('\n')) return null;
    return verb === 'q' ? v : v.slice(1, -1);
  }
  if (verb === 'c' && RUNE.test(arg)) {
    const body = arg.slice(1, -1);
    if (!body.startsWith('\\')) return body;
    if (/^\\[xu]/.test(body)) return String.fromCodePoint(parseInt(body.slice(2), 16));
    if (/^\\[0-7]{3}$/.test(body)) return String.fromCodePoint(parseInt(body.slice(1), 8));
    return body[1] === 'n' || body[1] === 'r' || body[1] === 't' ? ' ' : (body[1] as string);
  }
  if (INTEGER.test(arg)) {
    const code = Number(arg);
    if (verb === 'c' && code >= 32 && code < 0x110000) return String.fromCodePoint(code);
    if (verb === 'd' || verb === 'v') return String(code);
  }
  return null;
}

// ---------------------------------------------------------------------------------------------------------------
// (round s31) Text a Go program builds from named pieces: package-level string constants read across the .go
// files of one package directory, and string concatenations joined, so a served text split between a constant in
// one file and the code that appends it in another reads as the one text the model receives.

/** A string constant's text kept at most, and constants per package at most. */
const MAX_CONSTANT_CHARS = 8192;
const MAX_CONSTANTS = 400;
/** Lines one declaration's `+` chain is followed over, at most. */
const MAX_DECLARATION_LINES = 60;

/** The value of an interpreted (`"…"`) or raw (`` `…` ``) Go string literal, escapes read. */
export function goLiteralValue(literal: string): string {
  if (literal.startsWith('`')) return literal.slice(1, literal.endsWith('`') && literal.length > 1 ? -1 : undefined).replace(/\r/g, '');
  const body = literal.slice(1, literal.endsWith('"') && literal.length > 1 ? -1 : undefined);
  return body.replace(/\\(x[0-9a-fA-F]{2}|u[0-9a-fA-F]{4}|U[0-9a-fA-F]{8}|[0-7]{3}|.)/g, (_all, e: string) => {
    if (/^[xuU]/.test(e)) return String.fromCodePoint(Math.min(parseInt(e.slice(1), 16), 0x10ffff));
    if (/^[0-7]{3}$/.test(e)) return String.fromCharCode(parseInt(e, 8));
    return ({ a: '\x07', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t', v: '\v', '\\': '\\', "'": "'", '"': '"' } as Record<string, string>)[e] ?? `\\${e}`;
  });
}

/** A value written as a Go interpreted string literal. */
function goQuote(value: string): string {
  return `"${value.replace(/[\\"]/g, (c) => `\\${c}`).replace(/\n/g, '\\n').replace(/\r/g, '\\r').replace(/\t/g, '\\t')}"`;
}

// One piece of a string expression, at the start of the text: a literal, a slice literal, a conversion of either.
const PIECE = /^\s*(?:string\s*\(\s*)?(?:("(?:[^"\\\n]|\\.)*"|`[^`]*`)|\[\](byte|uint8|rune|int32)\s*(?:\{([^{}]{0,20000})\}|\(\s*("(?:[^"\\\n]|\\.)*"|`[^`]*`)\s*\)))(\s*\))?/;

/** PIECE read in place (sticky), so the source is not copied at each `[]`. */
const PIECE_AT = new RegExp(PIECE.source.slice(1), 'y');

/** The text of a string expression (pieces joined by `+`, over lines), or null when it is anything else. */
function stringExpressionValue(expression: string): string | null {
  let rest = expression;
  let out = '';
  for (let n = 0; n < 200; n++) {
    const m = PIECE.exec(rest);
    if (m === null) return null;
    // `string(` opened must be closed; a bare piece takes no `)`.
    const opened = /^\s*string\s*\(/.test(m[0]);
    if (opened !== (m[5] !== undefined)) return null;
    const literal = m[1] ?? m[4];
    const value = literal !== undefined ? goLiteralValue(literal) : goSliceText(m[2]!, m[3] ?? '');
    if (value === null) return null;
    out += value;
    if (out.length > MAX_CONSTANT_CHARS) return null;
    rest = rest.slice(m[0].length).replace(/^\s*\/\/[^\n]*/, '');
    const plus = /^\s*\+/.exec(rest);
    if (plus === null) return /^\s*(?:\/\/[^\n]*)?\s*$/.test(rest) ? out : null;
    rest = rest.slice(plus[0].length).replace(/^\s*\/\/[^\n]*/, '');
  }
  return null;
}

/** The expression from `from` on: that line and, while a line ends with `+`, the lines after it. */
function declarationExpression(lines: readonly string[], index: number, from: string): string {
  let expression = from;
  for (let k = index + 1; k < lines.length && k <= index + MAX_DECLARATION_LINES && /\+\s*(?:\/\/[^\n]*)?$/.test(expression); k++) expression += `\n${lines[k]}`;
  return expression;
}

/**
 * The package-level string constants of a Go package's files (`const NAME = "…"`, `var NAME string = "…" + "…"`,
 * entries of `const (…)` and `var (…)` blocks; literals, raw strings, byte and rune slices joined by `+`, over
 * lines), by name: a name declared twice, or assigned anywhere else in the package, is left out.
 */
export function goStringConstants(texts: readonly string[]): Map<string, string> {
  const out = new Map<string, string>();
  const dropped = new Set<string>();
  for (const text of texts) {
    const lines = text.split('\n');
    let block = false;
    for (let i = 0; i < lines.length && out.size < MAX_CONSTANTS; i++) {
      const line = lines[i]!;
      if (/^(?:const|var)[ \t]*\([ \t]*(?:\/\/.*)?$/.test(line)) {
        block = true;
        continue;
      }
      if (block && /^\)/.test(line)) {
        block = false;
        continue;
      }
      const m = (block ? /^[ \t]+([A-Za-z_]\w{0,60})[ \t]*(?:string[ \t]*)?=(?!=)/ : /^(?:const|var)[ \t]+([A-Za-z_]\w{0,60})[ \t]*(?:string[ \t]*)?=(?!=)/).exec(line);
      if (m === null) continue;
      const name = m[1]!;
      const value = stringExpressionValue(declarationExpression(lines, i, line.slice(m[0].length)));
      if (value === null) continue;
      if (out.has(name)) dropped.add(name);
      out.set(name, value);
    }
  }
  if (out.size === 0) return out;
  // Assigned anywhere else (`name = q`, `name += …`): not a constant. Its declaration counts once.
  const assigned = new Map<string, number>();
  for (const text of texts) {
    for (const m of text.matchAll(/(?<![\w.])([A-Za-z_]\w{0,60})[ \t]*(?:string[ \t]*)?(?:=(?!=)|:=|\+=)/g)) {
      const name = m[1]!;
      if (out.has(name)) assigned.set(name, (assigned.get(name) ?? 0) + 1);
    }
  }
  for (const name of [...out.keys()]) if (dropped.has(name) || (assigned.get(name) ?? 0) > 1) out.delete(name);
  return out;
}

/** Names a file binds once, with `:=` or `var`, to a string expression (the local names its code joins). */
function localStringBindings(text: string): Map<string, string> {
  const out = new Map<string, string>();
  if (!/:=|\bvar\b/.test(text)) return out;
  const lines = text.split('\n');
  const counts = new Map<string, number>();
  for (const m of text.matchAll(/(?<![\w.])([A-Za-z_]\w{0,60})[ \t]*(?:string[ \t]*)?(?:=(?!=)|:=|\+=)/g)) counts.set(m[1]!, (counts.get(m[1]!) ?? 0) + 1);
  for (let i = 0; i < lines.length && out.size < MAX_CONSTANTS; i++) {
    const m = /^[ \t]+(?:var[ \t]+)?([A-Za-z_]\w{0,60})[ \t]*(?:string[ \t]*)?:?=(?!=)/.exec(lines[i]!);
    if (m === null || counts.get(m[1]!) !== 1) continue;
    const value = stringExpressionValue(declarationExpression(lines, i, lines[i]!.slice(m[0].length)));
    if (value !== null) out.set(m[1]!, value);
  }
  return out;
}

/**
 * (round s31) The Go source with its string pieces joined, for reading the texts it builds: byte and rune slices
 * (and `string(…)` of them or of a literal) written as literals, a name bound to a string expression — a
 * package-level constant of any file of the package (`constants`, from `goStringConstants`) or a local bound once
 * in this file — written as its text where it is used beside `+` or as an argument or field value, raw strings
 * beside `+` written as interpreted literals, then `"a" + "b"` joined into `"ab"`. Line breaks inside a rewritten
 * piece move after it, so lines after it keep their numbers.
 */
export function goJoinedSource(text: string, constants: ReadonlyMap<string, string>): string {
  const locals = localStringBindings(text);
  const valueOf = (name: string) => locals.get(name) ?? constants.get(name);
  const out: string[] = [];
  const newlines = (s: string) => '\n'.repeat((s.match(/\n/g) ?? []).length);
  const prevCode = (at: number) => {
    let k = at - 1;
    while (k >= 0 && /[ \t\r\n]/.test(text[k]!)) k--;
    return k < 0 ? '' : text[k]!;
  };
  const nextCode = (at: number) => /^[ \t\r\n]*(:=|\S)/.exec(text.slice(at, at + 200))?.[1] ?? '';
  let i = 0;
  let plain = 0;
  const emit = (from: number, to: number, replacement: string) => {
    if (from > plain) out.push(text.slice(plain, from));
    out.push(replacement);
    i = plain = to;
  };
  while (i < text.length) {
    const c = text[i]!;
    const past = goCommentOrRuneEnd(text, i);
    if (past > i) {
      i = past;
      continue;
    }
    if (c === '"' || c === '`') {
      const lit = goLiteral(text, i);
      const raw = text.slice(i, lit.end);
      if (c === '`' && (prevCode(i) === '+' || nextCode(lit.end) === '+')) emit(i, lit.end, `${goQuote(goLiteralValue(raw))}${newlines(raw)}`);
      else i = lit.end;
      continue;
    }
    if ((c === 's' && /^string\s*\(\s*\[\]/.test(text.slice(i, i + 16)) && !/[\w.]/.test(text[i - 1] ?? '')) || (c === '[' && text[i + 1] === ']')) {
      PIECE_AT.lastIndex = i;
      const m = PIECE_AT.exec(text);
      const opened = m !== null && /^\s*string\s*\(/.test(m[0]);
      // A bare slice (`w.Write([]byte{…})`) ends before the `)` the pattern may have taken.
      const span = m === null ? '' : opened ? m[0] : m[0].slice(0, m[0].length - (m[5]?.length ?? 0));
      if (m !== null && m[2] !== undefined && (!opened || m[5] !== undefined)) {
        const literal = m[4];
        const value = literal !== undefined ? goLiteralValue(literal) : goSliceText(m[2], m[3] ?? '');
        if (value !== null) {
          emit(i, i + span.length, `${goQuote(value)}${newlines(span)}`);
          continue;
        }
      }
      i++;
      continue;
    }
    if (/[A-Za-z_]/.test(c) && !/[\w.]/.test(text[i - 1] ?? '')) {
      const word = /^[A-Za-z_]\w*/.exec(text.slice(i, i + 64))![0];
      const end = i + word.length;
      const value = valueOf(word);
      if (value !== undefined) {
        const before = prevCode(i);
        const after = nextCode(end);
        // An operand of `+`, or an argument, element or field value on its own (`f(name)`, `{Text: name}`).
        const operand = before === '+' || after === '+';
        const argument = (before === '(' || before === ',' || before === '{' || before === ':') && /^[),}]$/.test(after);
        const used = (operand || argument) && !/^(?::=|=|\(|\.|\[)$/.test(after);
        if (used) {
          emit(i, end, goQuote(value));
          continue;
        }
      }
      i = end;
      continue;
    }
    i++;
  }
  if (plain < text.length) out.push(text.slice(plain));
  let joined = out.join('');
  for (let k = 0; k < 8 && /"\s*\+\s*"/.test(joined); k++) joined = joined.replace(/"((?:[^"\\\n]|\\.)*)"\s*\+\s*"((?:[^"\\\n]|\\.)*)"/g, '"$1$2"');
  return joined;
}
