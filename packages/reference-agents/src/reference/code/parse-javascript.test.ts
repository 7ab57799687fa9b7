import { describe, expect, it } from 'vitest';
import { javaScriptParses, keepForNextParse, parseJavaScript } from './parse-javascript.js';
import { unescapePrintable } from './printable-escapes.js';

describe('a tree handed on to the next parse', () => {
  it('is returned once, for the same text and language only', () => {
    const text = 'const a = 1;';
    const tree = parseJavaScript(text)!;
    keepForNextParse(text, false, tree);
    expect(parseJavaScript(text)).toBe(tree);
    // Handed out once: the next parse of the same text is a tree of its own.
    const again = parseJavaScript(text)!;
    expect(again).not.toBe(tree);
    expect(again.program).toEqual(tree.program);
    keepForNextParse(text, false, tree);
    expect(parseJavaScript(text, true)).not.toBe(tree);
    // Dropped by the parse of another text: it is not waiting for a later one.
    keepForNextParse(text, false, tree);
    expect(parseJavaScript('let b = 2;')!.program.body).toHaveLength(1);
    expect(parseJavaScript(text)).not.toBe(tree);
  });

  it('is what the escapes reader leaves when it changes nothing, so the facts reader does not parse the file again', () => {
    // Printable escapes only inside a regular expression: the text stays as it is.
    const text = 'const printable = /[\\x20-\\x7e]/;\nmodule.exports = printable;\n';
    const before = javaScriptParses();
    expect(unescapePrintable(text, 'index.js')).toBe(text);
    const tree = parseJavaScript(text)!;
    expect(javaScriptParses() - before).toBe(1);
    expect(tree.program).toEqual(parseJavaScript(text)!.program);
    // A string literal written out: the text changes, and the changed text is parsed anew.
    const spelled = 'require("\\x63hild_process");\n';
    const start = javaScriptParses();
    const out = unescapePrintable(spelled, 'index.js');
    expect(out).toBe('require("child_process");\n');
    parseJavaScript(out);
    expect(javaScriptParses() - start).toBe(2);
  });
});
