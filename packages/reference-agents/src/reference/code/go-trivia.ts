/**
 * Go source trivia: comments and rune literals, and (for readers that do not look inside them) string
 * literals. The Go readers that walk source by hand (string folding, bracket matching, `init` bodies)
 * all step over the same things; one definition keeps them agreeing on where a comment or literal ends.
 */

const RUNE = /^'(?:\\(?:[^\n]|[0-7]{3}|x[0-9a-fA-F]{2}|u[0-9a-fA-F]{4}|U[0-9a-fA-F]{8})|[^'\\\n]{1,2})'/;

/**
 * The offset just past the comment or rune literal that starts at `i`, or `i` itself when none starts
 * there. A line comment ends at its newline (the newline is left for the caller's line counting); a
 * comment or literal left open ends at `end`. A lone `'` (not a rune) is stepped over by one character.
 */
export function goCommentOrRuneEnd(text: string, i: number, end = text.length): number {
  const c = text[i];
  if (c === '/' && text[i + 1] === '/') {
    const nl = text.indexOf('\n', i);
    return nl < 0 || nl > end ? end : nl;
  }
  if (c === '/' && text[i + 1] === '*') {
    const close = text.indexOf('*/', i + 2);
    return close < 0 || close + 2 > end ? end : close + 2;
  }
  if (c === "'") {
    const m = RUNE.exec(text.slice(i, i + 12));
    return Math.min(end, i + (m === null ? 1 : m[0].length));
  }
  return i;
}

/**
 * The offset just past the comment, rune, interpreted string (`"…"`) or raw string (`` `…` ``) that
 * starts at `i`, or `i` itself when none starts there. An interpreted string left open ends at its line's
 * end (Go does not let one span lines); anything else left open ends at `end`.
 */
export function goTriviaEnd(text: string, i: number, end = text.length): number {
  const c = text[i];
  if (c === '"') {
    let k = i + 1;
    while (k < end && text[k] !== '"' && text[k] !== '\n') k += text[k] === '\\' ? 2 : 1;
    return Math.min(end, text[k] === '"' ? k + 1 : k);
  }
  if (c === '`') {
    const close = text.indexOf('`', i + 1);
    return close < 0 || close + 1 > end ? end : close + 1;
  }
  return goCommentOrRuneEnd(text, i, end);
}
