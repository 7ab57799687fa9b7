import { describe, expect, it } from 'vitest';
import { lineAt } from '../common/reference-finding.js';
import { lineLocator } from './line-locator.js';

describe('lineLocator', () => {
  it('agrees with lineAt at every offset, newlines included', () => {
    const text = 'a\nbc\n\n\ndef\n';
    const locate = lineLocator(text);
    for (let offset = 0; offset <= text.length + 2; offset++) expect(locate(offset)).toBe(lineAt(text, offset));
  });
});
