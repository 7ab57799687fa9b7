import type { AgentFinding } from '@vigil/core';
import { lineAt, referenceFinding } from '../common/reference-finding.js';

/** Bidirectional overrides and isolates: they make an editor show code in another order than it runs ("Trojan Source"). */
const BIDI_CONTROL = /[\u202A-\u202E\u2066-\u2069]/;
/** Mathematical alphanumeric and fullwidth letters: Python folds them (NFKC) to the ASCII names they imitate, so `𝚎𝚡𝚎𝚌` is `exec`. */
const LOOKALIKE_LETTERS = /[\u{1D400}-\u{1D7FF}\uFF21-\uFF3A\uFF41-\uFF5A]/u;

/** True when Python source uses look-alike letters that the interpreter folds to ASCII names. */
export function hasLookalikeLetters(text: string): boolean {
  return LOOKALIKE_LETTERS.test(text);
}

/** Invisible reordering and look-alike letters in a code file. */
export function unicodeFindings(text: string, file: string, language: 'javascript' | 'python'): AgentFinding[] {
  const out: AgentFinding[] = [];
  const bidi = BIDI_CONTROL.exec(text);
  if (bidi !== null) {
    const line = lineAt(text, bidi.index);
    const codePoint = `U+${bidi[0].codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;
    // On a minified line (over 500 characters) the character is data of a bundled library (RTL handling), not reordered source.
    const start = text.lastIndexOf('\n', bidi.index) + 1;
    const end = text.indexOf('\n', bidi.index);
    const minified = (end === -1 ? text.length : end) - start > 500;
    out.push(referenceFinding({ category: 'obfuscation', severity: minified ? 'MED' : 'HIGH', title: 'Bidirectional control characters in code (displayed order differs from what runs)', file, line, evidence: codePoint }));
  }
  if (language === 'python') {
    // Only outside strings and comments matters; a line whose look-alike letters sit before any quote is code.
    const m = /^[^#'"\n]*[\u{1D400}-\u{1D7FF}\uFF21-\uFF3A\uFF41-\uFF5A]/mu.exec(text);
    if (m !== null) out.push(referenceFinding({ category: 'obfuscation', severity: 'HIGH', title: 'Names written in look-alike Unicode letters (Python reads them as plain names)', file, line: lineAt(text, m.index), evidence: m[0].trim().slice(0, 120) }));
  }
  return out;
}
