import { describe, expect, it } from 'vitest';
import { javaScriptParses } from './parse-javascript.js';
import { escapedOriginalOf, unescapePrintable } from './printable-escapes.js';

// Round s30: a module read again (by each reader of the files importing it) is not parsed again.
describe('unescapePrintable of a text read again', () => {
  it('gives the same text without parsing it again, for the same reading only', () => {
    const spelled = 'require("\\x63hild_process").exec("ls");\n';
    const before = javaScriptParses();
    const out = unescapePrintable(spelled, 'lib/a.js');
    expect(out).toBe('require("child_process").exec("ls");\n');
    expect(unescapePrintable(spelled, 'lib/b.js')).toBe(out);
    expect(javaScriptParses() - before).toBe(1);
    expect(escapedOriginalOf(out)).toBe(spelled);
    // As TypeScript it is another reading (parsed once more); as Markdown it is left alone.
    expect(unescapePrintable(spelled, 'src/a.ts')).toBe(out);
    expect(javaScriptParses() - before).toBe(2);
    expect(unescapePrintable(spelled, 'README.md')).toBe(spelled);
  });

  it('leaves escapes inside regular expressions alone on every read', () => {
    const text = 'const printable = /[\\x20-\\x7e]/;\n';
    expect(unescapePrintable(text, 'index.js')).toBe(text);
    expect(unescapePrintable(text, 'index.js')).toBe(text);
  });
});
