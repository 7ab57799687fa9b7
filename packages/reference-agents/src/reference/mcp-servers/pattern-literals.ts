import type { ScriptLanguage } from '../skills/script-fact.js';

/** A string literal's span in the source: `[from, to)` is its content, between the quotes. */
interface Literal {
  start: number;
  from: number;
  to: number;
  raw: boolean;
}

/** The string literals of a JavaScript, TypeScript or Python file (comments skipped), lexically. */
function literals(text: string, language: ScriptLanguage): Literal[] {
  const out: Literal[] = [];
  const python = language === 'python';
  let i = 0;
  while (i < text.length && out.length < 20000) {
    const c = text[i] as string;
    if ((python && c === '#') || (!python && c === '/' && text[i + 1] === '/')) {
      const end = text.indexOf('\n', i);
      i = end < 0 ? text.length : end;
      continue;
    }
    if (!python && c === '/' && text[i + 1] === '*') {
      const end = text.indexOf('*/', i + 2);
      i = end < 0 ? text.length : end + 2;
      continue;
    }
    if (c !== '"' && c !== "'" && c !== '`') {
      i++;
      continue;
    }
    const prefix = python ? (/[rRbBuUfF]{1,2}$/.exec(text.slice(Math.max(0, i - 2), i))?.[0] ?? '') : '';
    const raw = /r/i.test(prefix) && !/\w/.test(text[i - prefix.length - 1] ?? '');
    const triple = python && text.startsWith(c.repeat(3), i);
    const close = triple ? c.repeat(3) : c;
    let j = i + close.length;
    while (j < text.length && !text.startsWith(close, j)) {
      if (text[j] === '\\') j++;
      else if (!triple && c !== '`' && text[j] === '\n') break;
      j++;
    }
    out.push({ start: i - (raw ? prefix.length : 0), from: i + close.length, to: Math.min(j, text.length), raw });
    i = j + close.length;
  }
  return out;
}

// Regular-expression syntax: an escaped class or dot, a group with alternatives, a character class, a quantifier after a group.
const REGEX_SYNTAX = /\\[.sdwbSDWB()[\]|?*+]|\([^()]*\|[^()]*\)|\[[^\]]+\][*+?]?|\)[?*+]|\.\*|\(\?[:!=i]/;
// A call that compiles or applies its first argument as a pattern.
const PATTERN_CALL_BEFORE = /(?:\bre\.(?:compile|search|match|fullmatch|findall|finditer|sub|subn|split)|\bregex\.\w+|\bRegExp)\s*\(\s*$/;

/**
 * Text of a collection bound to a name whose every other use iterates it for matching: `for p, label
 * in PATTERNS: re.search(p, …)`, `marker in text for marker in MARKERS`, `for (const rx of RULES)
 * … new RegExp(rx)` / `.includes(rx)`. Returns the `[from, to)` spans of such collections' bodies.
 */
function patternCollections(text: string, language: ScriptLanguage): Array<[number, number]> {
  const spans: Array<[number, number]> = [];
  const binding = language === 'python' ? /^[ \t]*([A-Za-z_]\w*)[ \t]*(?::[^=\n]+)?=[ \t]*([[{(])/gm : /^[ \t]*(?:export\s+)?(?:const|let|var)\s+([A-Za-z_$][\w$]*)\s*(?::[^=\n]+)?=\s*([[{(])/gm;
  for (const m of text.matchAll(binding)) {
    const name = m[1] as string;
    const open = m.index + m[0].length - 1;
    const closeChar = { '[': ']', '{': '}', '(': ')' }[m[2] as '[' | '{' | '('];
    let depth = 0;
    let end = -1;
    for (let k = open; k < text.length && k < open + 200_000; k++) {
      const ch = text[k];
      if (ch === m[2]) depth++;
      else if (ch === closeChar && --depth === 0) {
        end = k;
        break;
      }
    }
    if (end < 0) continue;
    // Every use of the name outside its definition must iterate it, and the loop variable must be matched against text.
    const uses = [...text.matchAll(new RegExp(`(?<![\\w$.])${name.replace(/\$/g, '\\$')}(?![\\w$])`, 'g'))].filter((u) => u.index < m.index || u.index > end);
    if (uses.length === 0) continue;
    const loopVars = new Set<string>();
    let all = true;
    for (const u of uses) {
      const before = text.slice(Math.max(0, u.index - 80), u.index);
      const loop = language === 'python' ? /\bfor\s+([\w\s,()]+?)\s+in\s+$/.exec(before) : /\bfor\s*\(\s*(?:const|let|var)\s+([\w$\s,[\]{}]+?)\s+of\s+$/.exec(before);
      const method = language === 'python' ? null : /^\.(?:some|every|filter|find|map|forEach)\s*\(\s*\(?\s*([\w$]+)/.exec(text.slice(u.index + name.length, u.index + name.length + 60));
      const vars = loop?.[1] ?? method?.[1];
      if (vars === undefined) {
        all = false;
        break;
      }
      for (const v of vars.split(/[\s,()[\]{}]+/)) if (/^[A-Za-z_$][\w$]*$/.test(v)) loopVars.add(v);
    }
    if (!all || loopVars.size === 0) continue;
    // A membership test (`marker in text`) matches; the loop's own header (`for p in FILES`) does not.
    const matched = [...loopVars].some((v) => {
      const e = v.replace(/\$/g, '\\$');
      return new RegExp(`(?:\\bre\\.\\w+|\\bRegExp|\\bregex\\.\\w+)\\s*\\(\\s*${e}\\b|(?<![\\w$.])(?<!\\bfor\\s+(?:[\\w(]+\\s*,\\s*)*)${e}(?:\\.lower\\(\\))?\\s+(?:not\\s+)?in\\s+[\\w.]|\\.(?:includes|indexOf|startsWith|endsWith|search|match|find|startswith|endswith)\\(\\s*${e}\\b|(?<![\\w$.])${e}\\.(?:test|exec|search|match|finditer|findall|fullmatch)\\s*\\(`).test(text);
    });
    if (matched) spans.push([open, end]);
  }
  return spans;
}

/**
 * The file with the contents of its pattern literals blanked (same length, newlines kept), so the
 * text a detector matches is read as a quotation, not as an instruction or a file it opens:
 * Python raw strings written in regular-expression syntax, the first argument of `re.*` / `RegExp`
 * calls, and every string of a collection the code only iterates to match text against. A string
 * the code uses any other way (opens, sends, returns) keeps its text.
 */
export function blankPatternLiterals(text: string, language: ScriptLanguage): string {
  if (language === 'shell') return text;
  const all = literals(text, language);
  const collections = patternCollections(text, language);
  let out = text;
  let changed = false;
  for (const lit of all) {
    const body = text.slice(lit.from, lit.to);
    const pattern = (lit.raw && REGEX_SYNTAX.test(body)) || PATTERN_CALL_BEFORE.test(text.slice(Math.max(0, lit.start - 60), lit.start)) || collections.some(([a, b]) => lit.start > a && lit.to <= b);
    if (!pattern || body.length === 0) continue;
    out = out.slice(0, lit.from) + body.replace(/[^\n]/g, ' ') + out.slice(lit.to);
    changed = true;
  }
  return changed ? out : text;
}
