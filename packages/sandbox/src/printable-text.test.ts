import { describe, expect, it } from 'vitest';
import { printableText } from './printable-text.js';

// The characters an outsider got through to a terminal: each makes a line look like another one.
describe('printableText', () => {
  it.each([
    ['an escape (ESC)', 'a\u001bb'],
    ['a C1 CSI', 'a\u009bb'],
    ['carriage return', 'a\rb'],
    ['the Arabic letter mark (bidi)', 'a\u061cb'],
    ['a right-to-left override', 'a\u202eb'],
    ['a zero-width space', 'a\u200bb'],
    ['a word joiner', 'a\u2060b'],
    ['the soft hyphen', 'a\u00adb'],
    ['tag characters', 'a\u{e0041}\u{e0042}b'],
    ['the Mongolian vowel separator', 'a\u180eb'],
    ['an interlinear annotation', 'a\ufff9x\ufffbb'],
    ['a Hangul filler', 'a\u3164b'],
    ['a line separator', 'a\u2028b'],
    ['a byte-order mark', 'a\ufeffb'],
  ])('shows %s as one space', (_name, text) => {
    expect(printableText(text, 100)).toMatch(/^a (x )?b$/);
  });

  it('keeps letters of every script, emoji and ordinary spaces, and cuts to max', () => {
    expect(printableText('π ж 日本 🙂 a\tb', 100)).toBe('π ж 日本 🙂 a b');
    expect(printableText('abcdef', 3)).toBe('abc');
  });
});
