import { describe, expect, it } from 'vitest';
import { goCommentOrRuneEnd, goTriviaEnd } from './go-trivia.js';

describe('goCommentOrRuneEnd', () => {
  it('steps over a line comment up to (not past) its newline', () => {
    const text = 'x // a "quoted" { brace\ny';
    expect(goCommentOrRuneEnd(text, 2)).toBe(text.indexOf('\n'));
  });
  it('steps over a block comment, and to the end when it is left open', () => {
    expect(goCommentOrRuneEnd('/* } */z', 0)).toBe(7);
    expect(goCommentOrRuneEnd('/* never closed', 0)).toBe(15);
    expect(goCommentOrRuneEnd('/* closed later */', 0, 8)).toBe(8);
  });
  it('steps over rune literals, escaped ones included', () => {
    for (const rune of ["'x'", "'\\''", "'\\n'", "'\\u00e9'", "'\\x41'", "'\\101'", "'é'"]) {
      expect(goCommentOrRuneEnd(`${rune}+1`, 0)).toBe(rune.length);
    }
  });
  it('steps one character over a lone quote, and leaves anything else where it is', () => {
    expect(goCommentOrRuneEnd("' not a rune", 0)).toBe(1);
    expect(goCommentOrRuneEnd('a / b', 2)).toBe(2);
    expect(goCommentOrRuneEnd('"s"', 0)).toBe(0);
  });
});

describe('goTriviaEnd', () => {
  it('steps over interpreted strings with escapes, stopping at the line end when one is left open', () => {
    expect(goTriviaEnd('"a\\"}b" + x', 0)).toBe(7);
    expect(goTriviaEnd('"open\nnext', 0)).toBe(5);
  });
  it('steps over raw strings across lines', () => {
    expect(goTriviaEnd('`a\n}\n` x', 0)).toBe(6);
    expect(goTriviaEnd('`never closed', 0)).toBe(13);
  });
  it('falls back to comments and runes, and leaves code where it is', () => {
    expect(goTriviaEnd("'}'", 0)).toBe(3);
    expect(goTriviaEnd('// c\n', 0)).toBe(4);
    expect(goTriviaEnd('{', 0)).toBe(0);
  });
});
