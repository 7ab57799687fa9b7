import { lineAt } from '../common/reference-finding.js';
import { jsFacts } from './js-facts.js';
import { pythonFacts } from './python-facts.js';
import { shellFacts } from './shell-facts.js';
import type { ScriptFact, ScriptLanguage } from './script-fact.js';

export type { ScriptFact, ScriptFactKind, ScriptLanguage } from './script-fact.js';

export function languageOf(path: string): ScriptLanguage | null {
  const lower = path.toLowerCase();
  if (/\.(?:js|mjs|cjs|jsx)$/.test(lower)) return 'javascript';
  if (/\.(?:ts|mts|cts|tsx)$/.test(lower)) return 'typescript';
  if (/\.(?:py|pyw)$/.test(lower)) return 'python';
  if (/\.(?:sh|bash|zsh|command)$/.test(lower)) return 'shell';
  return null;
}

// Minified or generated files are scanned by lines only above this size.
const DEEP_ANALYSIS_MAX_BYTES = 512 * 1024;

/** Facts of one script; a file of unknown language or too large for parsing falls back to the shell-line rules. */
export function scriptFacts(path: string, text: string, language: ScriptLanguage | null = languageOf(path)): ScriptFact[] {
  if (language === null) return [];
  const facts = text.length > DEEP_ANALYSIS_MAX_BYTES || language === 'shell' ? shellFacts(text) : language === 'python' ? pythonFacts(text) : jsFacts(text, language === 'typescript');
  for (const m of text.matchAll(HARDCODED_BCC)) facts.push({ kind: 'hardcoded-bcc', line: lineAt(text, m.index), evidence: m[0] });
  return facts;
}

// `bcc: 'someone@host'`, `msg["Bcc"] = "…"`, `bcc="…"`: a fixed hidden recipient in code that sends mail.
const HARDCODED_BCC = /\bbcc['"]?\s*(?:\]\s*)?[:=]\s*\[?\s*['"`][^'"`\s]+@[\w-]+(?:\.[\w-]+)+['"`]/gi;
