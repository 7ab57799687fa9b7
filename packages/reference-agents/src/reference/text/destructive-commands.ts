import type { PhraseRule } from './instruction-phrases.js';

/**
 * Commands that destroy data, history or infrastructure beyond the project's own build output,
 * as an agent would be told to run them: recursive removal of the home directory, the root or an
 * absolute path (not `rm -rf dist`), force-pushes (not `--force-with-lease`), dropping a database,
 * schema or a table that is not a scratch one (SQL's `TRUNCATE TABLE t` or `TRUNCATE t;`, not the English
 * verb), tearing down infrastructure. A package index removed after `apt-get install` in a Dockerfile
 * (`rm -rf /var/lib/apt/lists/*`) is cleanup.
 */
export const DESTRUCTIVE_COMMAND = String.raw`\b(?:sudo\s+)?rm\s+(?:-[a-zA-Z]*[rR][a-zA-Z]*\s+(?:-[a-zA-Z]+\s+)*|--recursive\s+(?:--force\s+)?|--force\s+--recursive\s+)(?:--no-preserve-root\s+)?["']?(?:(?:~|\$HOME|\$\{HOME\})(?:\/\*?)?(?=[\s"'\x60;&|)]|$)|(?:~|\$HOME|\$\{HOME\})\/(?!\.cache\b|\.npm\b|\.yarn\b|\.pnpm|\.gradle\/caches|[\w.-]*(?:cache|tmp|temp)\b)[\w.-]+|\/(?:\*|home|Users|root|etc|var\/lib(?!\/apt\/lists\b)|srv|mnt|boot)?(?=[\s"'\x60;&|)/]|$)|\*(?=[\s"'\x60;&|)]|$))` +
  String.raw`|\bgit\s+push\s+(?:[^\n\x60|;&]*\s)?(?:--force(?!-with-lease|-if-includes)\b|-f\b)|\bgit\s+push\s+[\w-]+\s+\+[\w/-]+` +
  String.raw`|\bDROP\s+(?:DATABASE|SCHEMA)\b|\bDROP\s+TABLE\s+(?:IF\s+EXISTS\s+)?(?![\w."]*(?:test|tmp|temp|scratch))[\w."]+|\bTRUNCATE\s+(?:TABLE\s+(?:ONLY\s+)?(?![\w."]*(?:test|tmp|temp|scratch))[\w."]+|(?![\w."]*(?:test|tmp|temp|scratch))[\w."]+\s*(?:;|\bCASCADE\b|\bRESTART\s+IDENTITY\b))` +
  String.raw`|\bterraform\s+destroy\b|\bpulumi\s+destroy\b|\bkubectl\s+delete\s+(?:namespace|ns|all|pv|pvc|nodes?)\b|\bgcloud\s+projects\s+delete\b|\baz\s+group\s+delete\b|\baws\s+s3\s+rb\s+\S+\s+--force`;

/** Switching off the checks that keep an agent's actions safe: its safety checks, sandbox, approvals, commit hooks. */
export const DISABLE_SAFETY_RULE: PhraseRule = {
  id: 'disable-safety',
  category: 'excessive_permissions',
  severity: 'HIGH',
  title: 'instruction to disable the agent’s safety checks or approvals',
  pattern:
    /\b(?:disable|turn\s+off|switch\s+off|bypass|skip|ignore|deactivate)\s+(?:all\s+(?:of\s+)?|every\s+|any\s+)?(?:the\s+|your\s+|its\s+)?(?:safety|security|permission|sandbox(?:ing)?|guardrail|approval|confirmation)\s*(?:checks?|guards?|guardrails?|filters?|prompts?|rules|restrictions|settings|mode|policies)?\b(?:[^.\n]{0,60}\b(?:approval|confirmation)\s+prompts?)?|\b(?:disable|turn\s+off|switch\s+off|bypass)\s+(?:the\s+)?sandbox\b|\b(?:always|every\s+(?:time|commit))\b[^.\n]{0,40}\s--no-verify\b/i,
};

// A sentence that forbids or warns against what it names is a safety rule, not an order.
const PROHIBITS = /\b(?:never|not|don['’]t|do\s+not|must\s+not|mustn['’]t|should\s+not|shouldn['’]t|avoid|forbid(?:den)?|prohibit(?:ed)?|careful|dangerous|unless|except|instead\s+of|rather\s+than|refuse|disallow(?:ed)?|deny|denied|prevent)\b/i;
// Phrases that make an order stronger, not weaker: "without asking", "no matter what".
const REINFORCES = /\bwithout\s+(?:asking|confirmation|telling|prompting|waiting|review(?:ing)?|checking)\b|\bno\s+matter\s+what\b|\bno\s+questions\b/gi;

// What precedes an order in its clause: nothing, a list or table marker, or a word that makes the verb
// an imperative or a step ("to disable", "you must disable", "then disable").
const ORDER_LEAD = /(?:^|[.!?:;,|>*\-–—(]|\b(?:to|must|should|shall|please|always|then|and|or|you|we|can|could|may|will|first|now|just|simply|also|so|need|needs)\b)\s*$/i;

/**
 * Whether the verb at `offset` states what something does rather than tells the reader to do it: its
 * clause gives it a subject (`` `--yolo` disables the sandbox ``, "these settings disable approvals").
 * A reference about auditing configurations describes them; an instruction puts the verb first.
 */
export function describedAt(text: string, offset: number): boolean {
  let start = offset;
  while (start > 0 && !/[.!?\n|]/.test(text[start - 1]!)) start--;
  const lead = text.slice(start, offset).trim();
  return lead !== '' && !ORDER_LEAD.test(lead);
}

/** Whether the sentence around `offset` forbids what it names (inline code and reinforcing phrases left out). */
export function prohibitedAt(text: string, offset: number): boolean {
  let start = offset;
  while (start > 0 && !/[.!?\n]/.test(text[start - 1]!)) start--;
  // The sentence runs up to the match; backticked commands may hold dots and `--no-…` flags.
  const sentence = text.slice(Math.max(0, start - 0), offset).replace(/`[^`\n]*`?/g, ' ').replace(REINFORCES, ' ');
  return PROHIBITS.test(sentence);
}
