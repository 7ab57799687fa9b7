import { describe, expect, it } from 'vitest';
import { invisibleCodeFindings } from '../packages/hidden-code-findings.js';
import { javascriptFacts } from './javascript/index.js';
import { decodeInvisibleRun, findInvisiblePayloads, hasInvisibleDecoder } from './invisible-payload.js';
import { pythonFacts } from './python-facts.js';

const selectors = (s: string) => [...Buffer.from(s)].map((b) => String.fromCodePoint(b < 16 ? 0xfe00 + b : 0xe0100 + b - 16)).join('');
const pua = (s: string) => [...Buffer.from(s)].map((b) => String.fromCodePoint(0xe000 + b)).join('');
const tags = (s: string) => [...s].map((c) => String.fromCodePoint(0xe0000 + c.charCodeAt(0))).join('');
const PAYLOAD = "require('child_process').execSync('id')";

describe('invisible payloads', () => {
  it('decodes selectors as bytes (UTF-8), tags as ASCII and Private Use Area characters by their low byte', () => {
    expect(decodeInvisibleRun(selectors('héllo world'))).toEqual({ kind: 'selectors', decoded: 'héllo world' });
    expect(decodeInvisibleRun(tags(PAYLOAD))).toEqual({ kind: 'tags', decoded: PAYLOAD });
    expect(decodeInvisibleRun(pua(PAYLOAD))).toEqual({ kind: 'private-use', decoded: PAYLOAD });
  });

  it('finds a run after visible text and ignores an emoji with its selector', () => {
    const text = `const a = 'ok${selectors(PAYLOAD)}'; const b = '\u2764\ufe0f \u26a0\ufe0f';`;
    expect(findInvisiblePayloads(text).map((p) => [p.kind, p.decoded])).toEqual([['selectors', PAYLOAD]]);
  });

  it('keeps a Private Use Area run only when it decodes to text: icon glyphs in a row do not', () => {
    const glyphs = Array.from({ length: 40 }, (_, i) => String.fromCodePoint(0xf101 + i)).join('');
    expect(findInvisiblePayloads(`const ALL = '${glyphs}';`)).toEqual([]);
    expect(findInvisiblePayloads(`const G = '${pua(PAYLOAD)}';`).map((p) => p.kind)).toEqual(['private-use']);
  });

  it('recognises the decoding arithmetic in JavaScript and Python', () => {
    expect(hasInvisibleDecoder('[...s].map((c) => c.codePointAt(0) - 0xFE00)')).toBe(true);
    expect(hasInvisibleDecoder('bytes(ord(c) - 57344 for c in s)')).toBe(true);
    expect(hasInvisibleDecoder("cp.toString(16); s.codePointAt(0)")).toBe(false);
  });
});

describe('invisibleCodeFindings', () => {
  it('is CRIT for a Private Use Area payload the file decodes and executes, nothing for icon glyphs with a range check', () => {
    const loader = `G = "${pua(PAYLOAD)}"\nexec(bytes(ord(c) - 0xE000 for c in G).decode())\n`;
    expect(invisibleCodeFindings(loader, 'a.py').map((f) => [f.severity, f.line])).toEqual([['CRIT', 1]]);
    const glyphs = Array.from({ length: 40 }, (_, i) => String.fromCodePoint(0xf101 + i)).join('');
    const font = `const ALL = '${glyphs}';\nconst ok = (g) => g.codePointAt(0) >= 0xe000 && g.codePointAt(0) <= 0xf8ff;\nnew Function('return 1')();\n`;
    expect(invisibleCodeFindings(font, 'icons.js')).toEqual([]);
  });

  it('is HIGH for a selector run in a file that neither evaluates nor decodes', () => {
    expect(invisibleCodeFindings(`export const NOTE = "${selectors(PAYLOAD)}";\n`, 'note.js').map((f) => f.severity)).toEqual(['HIGH']);
  });
});

describe('decoded payloads in the code facts', () => {
  it('adds the decoded text of an invisible string literal as a decoded string (JavaScript and Python)', () => {
    const js = javascriptFacts(`const s = '${selectors(PAYLOAD)}';\n`);
    expect(js.strings.find((s) => s.decoded && s.value === PAYLOAD)?.line).toBe(1);
    const py = pythonFacts(`x = 1\nS = "${tags(PAYLOAD)}"\n`);
    expect(py.strings.find((s) => s.decoded && s.value === PAYLOAD)?.line).toBe(2);
  });
});
