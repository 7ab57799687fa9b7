/**
 * (round s30, real false alarms) The value an attacker supplies, shown in a vulnerable-code example: a security
 * reference that explains command or SQL injection, path traversal or unsafe deserialisation has to show the input
 * that exploits the bug (`// Attacker: ?dir=; rm -rf /`, `# user_input = "; rm -rf /" → command injection`,
 * `User.order(params[:sort])  # Can inject: "name; DROP TABLE users--"`, `template_dir: "../../../etc/shadow"`
 * under "## Path Traversal via Config"). The string is a specimen of the attack the section is about, not a
 * command the reader is to run (in-sample: trailofbits/skills' sharp-edges skill was BLOCKed for five of them).
 *
 * In a fenced code block, the string is such a specimen when all of these hold:
 * - it sits in a comment of its line (`#`, `//`, `/*`, `<!--`, `-- ` in SQL), or, in a block of a language that is
 *   not a shell's, inside a string literal (in a shell block, or one with no language, a quoted string may be run);
 * - the block is about a vulnerability: one of its comments marks the code dangerous, vulnerable or unsafe, or
 *   names an attacker or an injection, or the heading above it (or a heading it sits under, below the title)
 *   names a vulnerability (injection, traversal, deserialisation, code execution, "without validation" …);
 * - the value is labelled as what an attacker supplies: the comment on its line, or a comment line above it in the
 *   block, says attacker, malicious, payload, exploit, inject, untrusted or user input; or the value has the shape
 *   of an injection itself (a command separator or a quote before it in the same literal, `../` traversal);
 * - nothing presents the block as steps to run: the paragraph introducing it does not say run, paste, "Fix:",
 *   "Steps:" or "Clean up:", and the prose after it does not order the payload, command or snippet run.
 *
 * In prose, an inline-quoted value whose sentence has an attacker as its subject ("an attacker could pass
 * `; rm -rf /`") is one too, with the same last condition. A destructive command the steps order run, a
 * cleanup block, a fix presented as commands or a payload the text then orders run stay what they were.
 */

const FENCE_LINE = /^[ \t]*(?:```|~~~)([^\n]*)$/gm;
// Languages whose quoted strings a shell may run: the shells, and a block with no language (read as one).
const SHELL_LANGUAGE = /^(?:bash|sh|shell|zsh|fish|ksh|console|shell-session|shellsession|terminal|powershell|ps1|ps|pwsh|cmd|bat|batch|dos)?$/i;
// A comment on a marked line of code: words that say the code is the bad example.
const VULNERABLE_MARK = /\b(?:DANGEROUS|VULNERABLE|UNSAFE|INSECURE|BAD|WRONG|NOT\s+(?:safe|SAFE))\b|\b(?:vulnerab\w*|attackers?|malicious|exploit\w*|injection|injectable|insecure|unsafe|dangerous)\b/i;
// A heading that names a vulnerability.
const VULNERABILITY_HEADING =
  /\b(?:injections?|inject\w*|travers\w*|deseriali[sz]\w*|unseriali[sz]\w*|code\s+execution|RCE|XSS|SSRF|CSRF|XXE|vulnerab\w*|exploit\w*|attacks?|attackers?|unsafe|insecure|dangerous|without\s+validation|unvalidated|unsanitized|unsanitised|unescaped|tainted|untrusted|CVE-\d+)\b/i;
// What labels a value as the attacker's input.
const ATTACKER_LABEL =
  /\b(?:attackers?|attack|malicious|payloads?|exploits?|exploited|inject\w*|untrusted|user[\s_-]?(?:input|controlled|supplied|provided)|crafted|evil|hostile|tainted|adversar\w*)\b/i;
// The shape of an injection just before the value in its literal or comment: a command separator, a closing
// quote, a subshell, or `../` traversal.
const INJECTION_SHAPE = /(?:[;|`'"]|&&|\$\(|\.\.\/?)\s*$/;
// An introduction that presents the block as what to run or apply.
const RUN_INTRO =
  /\b(?:run|execute|paste|type|enter|apply|copy)\b[^.\n]{0,60}?(?::\s*\**\s*$|\b(?:this|these|the\s+following|below|commands?|script|snippet)\b)|\b(?:fix|solution|remediation|workaround|steps?|setup|set\s+up|clean[\s-]?up|usage|install\w*)\b\W{0,4}:[\s*]*$/im;
// An order, at the start of a sentence, to run the value or the block.
const RUN_ORDER =
  /^[\s>*\-+\d.)]*(?:(?:now|then|next|finally|first|please|always|just|simply|also|and)\s*,?\s+|you\s+(?:must|should|need\s+to|have\s+to)\s+|(?:be|make)\s+sure\s+to\s+)*(?:run|execute|exec|eval|launch|paste|send|submit|try|apply|pipe|type|enter)\b[^.!?\n]{0,60}?\b(?:it|this|that|these|them|payloads?|commands?|strings?|values?|inputs?|snippets?|examples?|code|lines?|above)\b/i;
const NEGATED = /\b(?:never|not|don['’]t|avoid)\b/i;
// A sentence whose subject is an attacker, supplying a value.
const ATTACKER_SUBJECT =
  /\b(?:attackers?|adversar(?:y|ies)|malicious\s+(?:users?|actors?|clients?|callers?|inputs?))\b[^.!?\n]{0,40}?\b(?:could|can|may|might|would|will|sends?|sent|suppl(?:y|ies|ied)|pass(?:es|ed)?|provid(?:es?|ed)|submit(?:s|ted)?|inject(?:s|ed)?|sets?|enters?|entered|crafts?|crafted|uses?|controls?)\b/i;
const QUOTES: ReadonlyArray<[string, string]> = [['"', '"'], ['`', '`'], ["'", "'"], ['“', '”']];

interface Fence {
  lang: string;
  /** Offset of the first body line. */
  body: number;
  /** Offset of the closing fence line (the text's end when none). */
  close: number;
  /** Offset of the opening fence line. */
  open: number;
}

/** The fenced block `from` sits in, or null. */
function fenceAt(text: string, from: number): Fence | null {
  let open: { at: number; lang: string; body: number } | null = null;
  FENCE_LINE.lastIndex = 0;
  for (const m of text.matchAll(FENCE_LINE)) {
    if (m.index >= from) {
      if (open === null) return null;
      return { lang: open.lang, body: open.body, close: m.index, open: open.at };
    }
    open = open === null ? { at: m.index, lang: (m[1] ?? '').trim().split(/[\s{]/)[0] ?? '', body: m.index + m[0].length + 1 } : null;
  }
  return open === null ? null : { lang: open.lang, body: open.body, close: text.length, open: open.at };
}

/** Where the comment of a code line starts (its index in the line), or -1. */
function commentStart(line: string, lang: string): number {
  const m = /(?:^|\s)(#(?!\{)|\/\/|\/\*|<!--)/.exec(line);
  const sql = /^(?:sql|psql|mysql|plsql|tsql|sqlite|postgres(?:ql)?)$/i.test(lang) ? /(?:^|\s)--\s/.exec(line) : null;
  const at = [m, sql].filter((x): x is RegExpExecArray => x !== null).map((x) => x.index + (/^\s/.test(x[0]) ? 1 : 0));
  return at.length === 0 ? -1 : Math.min(...at);
}

/** The start of the string literal on `line` that holds `[at, end)`, or -1. */
function literalStart(line: string, at: number, end: number = at + 1): number {
  for (const [open, close] of QUOTES) {
    let i = 0;
    while (i < line.length) {
      const o = line.indexOf(open, i);
      if (o < 0 || o >= at) break;
      const c = line.indexOf(close, o + 1);
      if (c < 0) break;
      if (c >= end) return o;
      i = c + 1;
    }
  }
  return -1;
}

/** The headings `from` sits under (nearest first), outside fenced blocks, the document's title (level 1) left out. */
function headingsAbove(text: string, from: number): string[] {
  const lines = text.slice(0, from).split('\n');
  const out: string[] = [];
  let inFence = false;
  const headings: Array<{ level: number; line: string }> = [];
  for (const line of lines) {
    if (/^[ \t]*(?:```|~~~)/.test(line)) inFence = !inFence;
    else if (!inFence) {
      const h = /^(#{1,6})\s+(.*)$/.exec(line);
      if (h !== null) headings.push({ level: (h[1] as string).length, line: h[2] as string });
    }
  }
  let level = 7;
  for (let i = headings.length - 1; i >= 0; i--) {
    const h = headings[i] as { level: number; line: string };
    if (h.level >= level) continue;
    level = h.level;
    if (h.level > 1) out.push(h.line);
  }
  return out;
}

/** The prose after `end` up to the next heading or fence (400 characters at most), read for an order to run. */
function ordersRunAfter(text: string, end: number): boolean {
  let after = text.slice(end, end + 400);
  const stop = after.search(/\n[ \t]*(?:#{1,6}\s|```|~~~)/);
  if (stop >= 0) after = after.slice(0, stop);
  for (const s of after.split(/(?<=[.!?])\s+|\n/)) if (RUN_ORDER.test(s) && !NEGATED.test(s.slice(0, 40))) return true;
  return false;
}

/**
 * Whether what introduces a fence presents the block as what to run, a fix or steps: the paragraph just before it
 * ("Run this:", "**Fix**: …:", "Clean up:"), or, with no paragraph between, the heading above it ("## Cleanup").
 */
function introducedAsSteps(text: string, fenceOpen: number): boolean {
  const lines = text.slice(Math.max(0, fenceOpen - 600), fenceOpen).split('\n');
  let i = lines.length - 1;
  if (lines[i] === '') i--;
  while (i >= 0 && (lines[i] as string).trim() === '') i--;
  const boundary = (l: string) => /^[ \t]*(?:```|~~~)/.test(l) || /^#{1,6}\s/.test(l);
  if (i < 0 || /^[ \t]*(?:```|~~~)/.test(lines[i] as string)) return false;
  if (/^#{1,6}\s/.test(lines[i] as string)) return STEPS_WORD.test(lines[i] as string) && !VULNERABILITY_HEADING.test(lines[i] as string);
  let j = i;
  while (j > 0 && (lines[j - 1] as string).trim() !== '' && !boundary(lines[j - 1] as string)) j--;
  const paragraph = lines.slice(j, i + 1).join('\n');
  if (STEPS_LABEL.test(paragraph)) return true;
  const m = RUN_INTRO.exec(paragraph);
  return m !== null && !NEGATED.test(paragraph.slice(Math.max(0, m.index - 30), m.index));
}
const STEPS_WORD = /\b(?:fix|fixes|solution|remediation|workaround|steps|setup|set\s+up|clean[\s-]?up|usage|install\w*|quick\s*start|getting\s+started)\b/i;
// A paragraph that opens with a label of what follows: "**Fix**: use …:", "Steps:", "Cleanup: …".
const STEPS_LABEL = /^[\s*_]*(?:fix|solution|remediation|workaround|steps?|setup|clean[\s-]?up|usage|install\w*)[\s*_]*:/i;

/** True when `[from, to)` is the value an attacker supplies in a vulnerable-code example (see the file's comment). */
export function attackerValueSpecimen(text: string, from: number, to: number = from + 1): boolean {
  if (text.length > 512 * 1024) return false;
  const lineStart = text.lastIndexOf('\n', from - 1) + 1;
  const lineEndAt = text.indexOf('\n', from);
  const line = text.slice(lineStart, lineEndAt < 0 ? text.length : lineEndAt);
  const at = from - lineStart;
  const fence = fenceAt(text, from);
  if (fence === null) return proseAttackerValue(text, from, to, line, at);
  // In a comment, or (outside a shell's block) in a string literal.
  const comment = commentStart(line, fence.lang);
  const inComment = comment >= 0 && comment < at;
  const literal = inComment || SHELL_LANGUAGE.test(fence.lang) ? -1 : literalStart(line, at);
  if (!inComment && literal < 0) return false;
  const body = text.slice(fence.body, fence.close);
  const bodyLines = body.split('\n');
  const comments = bodyLines.map((l) => {
    const c = commentStart(l, fence.lang);
    return c < 0 ? '' : l.slice(c);
  });
  // About a vulnerability: a marked comment in the block, or a heading above.
  if (!comments.some((c) => VULNERABLE_MARK.test(c)) && !headingsAbove(text, fence.open).some((h) => VULNERABILITY_HEADING.test(h))) return false;
  // Labelled as the attacker's value: its line's comment, a comment line above it in the block, or its own shape.
  const own = inComment ? line.slice(comment) : `${line.slice(0, literal)} ${comment >= 0 ? line.slice(comment) : ''}`;
  const row = text.slice(fence.body, lineStart).split('\n').length - 1;
  let labelled = ATTACKER_LABEL.test(own);
  for (let r = row - 1; !labelled && r >= 0 && r >= row - 12; r--) {
    const l = (bodyLines[r] ?? '').trim();
    if (l !== '' && commentStart(l, fence.lang) === 0 && ATTACKER_LABEL.test(l)) labelled = true;
  }
  if (!labelled) {
    const lead = line.slice(inComment ? comment : literal + 1, at).replace(/^(?:#|\/\/|\/\*|<!--|--)\s*/, '');
    if (!INJECTION_SHAPE.test(lead)) return false;
  }
  const closeEnd = text.indexOf('\n', fence.close);
  return !introducedAsSteps(text, fence.open) && !ordersRunAfter(text, closeEnd < 0 ? text.length : closeEnd);
}

/** "An attacker could pass `; rm -rf /`": an inline-quoted value whose sentence has an attacker as its subject. */
function proseAttackerValue(text: string, from: number, to: number, line: string, at: number): boolean {
  const quoted = literalStart(line, at, at + Math.min(to - from, line.length - at));
  if (quoted < 0) return false;
  const before = line.slice(0, quoted);
  const sentence = before.slice(Math.max(0, ...[...before.matchAll(/[.!?](?=\s)/g)].map((m) => m.index + 1)));
  if (!ATTACKER_SUBJECT.test(sentence)) return false;
  const lineEnd = text.indexOf('\n', from);
  return !ordersRunAfter(text, lineEnd < 0 ? text.length : lineEnd) && !RUN_ORDER.test(line.slice(at + (to - from)).split(/(?<=[.!?])\s+/).slice(1).join(' '));
}
