import type { ScriptLanguage } from '../skills/script-fact.js';

/**
 * A JavaScript, TypeScript or Python file read lexically: `code` is the file with its comments blanked
 * (same length, newlines kept, so offsets and line numbers hold), `literals` the contents of its string
 * literals, one a line. A host "written out" in a server is one its code holds in a string; a URL in a
 * comment (`// metrics: https://stats.example/`) is prose, and must not excuse a request whose address
 * the code assembles (round s28 review: adding such a comment turned a BLOCK into an ALLOW).
 */
export interface CodeLiterals {
  code: string;
  literals: string;
}

// After one of these (or at the start), a `/` starts a regular expression, not a division.
const BEFORE_REGEX = /[(,=:[!&|?{};+\-*%<>~^]$|(?:^|[^\w$.])(?:return|typeof|case|do|else|in|of|new|delete|void|throw|yield|await)$/;

/** Index past the regular-expression literal whose `/` is at `i`, or -1 when the line ends first. */
function regexEnd(text: string, i: number): number {
  let inClass = false;
  for (let j = i + 1; j < text.length; j++) {
    const c = text[j];
    if (c === '\n') return -1;
    if (c === '\\') j++;
    else if (c === '[') inClass = true;
    else if (c === ']') inClass = false;
    else if (c === '/' && !inClass) return j + 1;
  }
  return -1;
}

/** The last non-blank characters before `i` (a few, for the regex test). */
function before(text: string, i: number): string {
  let j = i - 1;
  while (j >= 0 && (text[j] === ' ' || text[j] === '\t' || text[j] === '\n' || text[j] === '\r')) j--;
  return text.slice(Math.max(0, j - 7), j + 1);
}

export function codeLiterals(text: string, language: ScriptLanguage): CodeLiterals {
  const python = language === 'python';
  // The next character that may open a comment, a string or a regular expression.
  const next = python ? /[#'"]/g : /[/'"`]/g;
  const code: string[] = [];
  const literals: string[] = [];
  let last = 0;
  const blank = (from: number, to: number) => {
    const part = text.slice(from, to);
    code.push(text.slice(last, from), part.includes('\n') ? part.replace(/[^\n]/g, ' ') : ' '.repeat(part.length));
    last = to;
  };
  let i = 0;
  for (;;) {
    next.lastIndex = i;
    const m = next.exec(text);
    if (m === null) break;
    i = m.index;
    const c = m[0];
    if (c === '#' || (c === '/' && text[i + 1] === '/')) {
      const end = text.indexOf('\n', i);
      const to = end < 0 ? text.length : end;
      blank(i, to);
      i = to;
      continue;
    }
    if (c === '/' && text[i + 1] === '*') {
      const end = text.indexOf('*/', i + 2);
      const to = end < 0 ? text.length : end + 2;
      blank(i, to);
      i = to;
      continue;
    }
    // A regular expression's quotes (`/["']/`) open no string, its slashes no comment.
    if (c === '/') {
      const end = BEFORE_REGEX.test(before(text, i)) ? regexEnd(text, i) : -1;
      i = end < 0 ? i + 1 : end;
      continue;
    }
    const triple = python && text[i + 1] === c && text[i + 2] === c;
    const width = triple ? 3 : 1;
    let j = i + width;
    for (; j < text.length; j++) {
      const d = text[j];
      if (d === '\\') j++;
      else if (d === c && (!triple || (text[j + 1] === c && text[j + 2] === c))) break;
      else if (d === '\n' && !triple && c !== '`') break;
    }
    literals.push(text.slice(i + width, Math.min(j, text.length)));
    i = j + width;
  }
  code.push(text.slice(last));
  return { code: code.join(''), literals: literals.join('\n') };
}
