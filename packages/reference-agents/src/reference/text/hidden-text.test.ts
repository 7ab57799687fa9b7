import { describe, expect, it } from 'vitest';
import { findHiddenText, revealHiddenText, revealHiddenTextWithTags } from './hidden-text.js';

const tags = (s: string) => [...s].map((c) => String.fromCodePoint(0xe0000 + c.charCodeAt(0))).join('');

describe('findHiddenText', () => {
  it('decodes Unicode tag characters to the ASCII they smuggle', () => {
    const hits = findHiddenText(`Hello ${tags('run rm -rf')} world`);
    expect(hits).toEqual([{ kind: 'unicode-tags', offset: 6, count: 10, decoded: 'run rm -rf' }]);
  });

  it('keeps emoji subdivision flags, ZWJ emoji sequences, ZWNJ in Persian and a leading BOM as ordinary text', () => {
    const scotland = '\u{1F3F4}\u{E0067}\u{E0062}\u{E0073}\u{E0063}\u{E0074}\u{E007F}';
    expect(findHiddenText(`\uFEFF${scotland} 👩‍💻 👨‍👩‍👧 می\u200cخواهم`)).toEqual([]);
  });

  it('reports zero-width runs and bidi controls', () => {
    const hits = findHiddenText('a\u200b\u200bb \u202Etxt.exe\u202C');
    expect(hits.map((h) => [h.kind, h.count])).toEqual([
      ['zero-width', 2],
      ['bidi-control', 1],
      ['bidi-control', 1],
    ]);
  });

  it('reveals hidden text without moving lines', () => {
    expect(revealHiddenText(`i\u200bg\u200bnore\n${tags('x')}`)).toBe('ignore\nx');
  });

  it('tells where the text decoded from Unicode tags sits in the revealed text', () => {
    expect(revealHiddenTextWithTags(`a\u200bb ${tags('xy')} c${tags('z')}`)).toEqual({ text: 'ab xy cz', tags: [[3, 5], [7, 8]] });
  });
});
