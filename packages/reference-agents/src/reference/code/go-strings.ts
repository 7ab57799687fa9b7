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
    if (c === '/' && text[i + 1] === '/') {
      const nl = text.indexOf('\n', i);
      i = nl < 0 ? text.length : nl;
      continue;
    }
    if (c === '/' && text[i + 1] === '*') {
      const close = text.indexOf('*/', i + 2);
      i = close < 0 ? text.length : close + 2;
      continue;
    }
    if (c === "'") {
      // A rune literal: `'x'`, `'\''`, `'\u00e9'`.
      const m = /^'(?:\\(?:[^\n]|[0-7]{3}|x[0-9a-fA-F]{2}|u[0-9a-fA-F]{4}|U[0-9a-fA-F]{8})|[^'\\\n]{1,2})'/.exec(text.slice(i, i + 12));
      i += m === null ? 1 : m[0].length;
      continue;
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
