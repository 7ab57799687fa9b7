import type { AgentFinding } from '@vigil/core';
import { referenceFinding } from '../common/reference-finding.js';
import { LineIndex } from './line-index.js';

/** Files whose content runs or configures what runs: code, shell, and the JSON/YAML of tasks and hooks. */
export const HIDDEN_CODE_FILE = /\.(m?[jt]sx?|c[jt]s|py|sh|bash|zsh|ps1|rb|php|json|jsonc|ya?ml|toml)$|(^|\/)(Makefile|Dockerfile|\.?[a-z-]*rc)$/i;

// A run of blanks this long pushes what follows past the right edge of any editor window.
const MIN_RUN = 150;
const PADDED = new RegExp(`\\S([ \\t]{${MIN_RUN},})(\\S[^\\n]*)|^([ \\t]{${MIN_RUN * 2},})(\\S[^\\n]*)`, 'gm');
// What the hidden part does when it is a loader rather than stray formatting.
const LOADER = /\b(eval|Function|require|import|exec|execSync|spawn|child_process|fetch|axios|https?\.get|atob|Buffer\.from|fromCharCode|curl|wget|powershell|base64|subprocess|os\.system|__import__|urlopen|process\.env|iex)\b|\|\s*(ba)?sh\b/;

/**
 * Code placed after a long run of spaces or tabs, where a reader of the file never scrolls (the
 * "invisible loader" of fake job-interview repositories, 2023–2025): HIGH when what is hidden loads,
 * decodes, runs or fetches code, LOW otherwise; LOW as well in test, fixture and example paths.
 */
export function hiddenCodeFindings(path: string, text: string, example: boolean): AgentFinding[] {
  if (!/[ \t]{150}/.test(text)) return [];
  const findings: AgentFinding[] = [];
  let index: LineIndex | null = null;
  for (const m of text.matchAll(PADDED)) {
    const hidden = (m[2] ?? m[4] ?? '').trim();
    // Table padding and aligned comments end in text, not code.
    if (hidden.length < 8 || /^(\/\/|#|\*|<!--|\|)/.test(hidden)) continue;
    const loader = LOADER.test(hidden);
    index ??= new LineIndex(text);
    findings.push(
      referenceFinding({
        category: 'obfuscation',
        severity: loader && !example ? 'HIGH' : 'LOW',
        title: loader ? 'code that loads or runs code is hidden after a long run of whitespace' : 'code is hidden after a long run of whitespace',
        file: path,
        line: index.lineOf(m.index),
        evidence: `${(m[1] ?? m[3] ?? '').length} blanks, then: ${hidden.slice(0, 240)}`,
      }),
    );
    if (findings.length >= 3) break;
  }
  return findings;
}
