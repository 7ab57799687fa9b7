import { describe, expect, it } from 'vitest';
import { clearLinks, setLinks } from '../common/linked-constants-store.js';
import { parseJs, scopeOf } from './js-source.js';

// Round s30: the trees of a few texts before the last one are kept, and handed out again only as a new parse would be.
describe('parseJs keeps the trees of the last few texts', () => {
  const a = "const HOST = 'https://example.com';\nexport const url = HOST + '/api';\n";
  const b = "import { url } from './a.js';\nfetch(url);\n";
  const HOST = { type: 'Identifier', name: 'HOST', start: 0, end: 0 };

  it('hands a tree out again when another text was parsed in between, its scope unchanged', () => {
    clearLinks();
    const first = parseJs(a);
    const scope = scopeOf(first);
    expect(scope.fold(HOST)).toBe('https://example.com');
    parseJs(b);
    expect(parseJs(a)).toBe(first);
    expect(scopeOf(first)).toBe(scope);
    // Another language is another reading.
    expect(parseJs(a, true)).not.toBe(first);
  });

  it('parses again once the links changed: the scope of the new tree has the names linked since', () => {
    clearLinks();
    const first = parseJs(b);
    parseJs(a);
    setLinks(b, new Map([['url', 'https://example.com/api']]), new Map());
    const again = parseJs(b);
    expect(again).not.toBe(first);
    expect(again).toEqual(first);
    clearLinks();
  });

  it('parses again when a reader gave the tree’s scope more names (hiddenRecipientFacts does)', () => {
    clearLinks();
    const first = parseJs(b);
    scopeOf(first).setImported(new Map([['url', 'https://example.com/api']]));
    parseJs(a);
    const again = parseJs(b);
    expect(again).not.toBe(first);
    expect(scopeOf(first).fold({ type: 'Identifier', name: 'url', start: 0, end: 0 })).toBe('https://example.com/api');
    expect(scopeOf(again).fold({ type: 'Identifier', name: 'url', start: 0, end: 0 })).toBeNull();
  });
});
