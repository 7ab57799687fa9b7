import { attackerValueSpecimen } from './attacker-value.js';

// Words that introduce a phrase as a specimen rather than an instruction: "avoid language like …",
// "attacks such as …", "flag inputs containing …". "Build it like this:" introduces a template to follow,
// not a specimen (in-sample: an image template the model was told to append was lowered, held-out set 22).
const EXAMPLE_MARKER =
  /\b(?:e\.g\.|i\.e\.|for\s+example|for\s+instance|such\s+as|like(?!\s+(?:this|so|that|the\s+following|below)\b)|avoid|phrases?|patterns?|wording|language|attempts?|examples?|samples?|payloads?|attacks?|injections?|detect\w*|flag\w*|block\w*|watch\s+(?:out\s+)?for|look\s+for|beware|never\s+follow|reject\w*|refus\w*|ignore\s+(?:text|content|instructions)\s+(?:like|such))\b/i;
// A document that teaches about attacks on models talks about them in these words.
const SECURITY_TOPIC = /\bprompt[\s-]injection\b|\bjailbreak|\bred[\s-]team|\badversarial\b|\bmalicious\s+(?:prompts?|instructions?|inputs?|content)\b|\buntrusted\s+(?:input|content|text|data)\b|\binjection\s+attacks?\b/i;
const QUOTE_PAIRS: ReadonlyArray<[string, string]> = [['"', '"'], ['“', '”'], ['`', '`'], ['«', '»'], ["'", "'"], ['‘', '’']];

/** True when `[from, to)` of `text` lies inside a fenced code block. */
function inFence(text: string, from: number): boolean {
  let open = false;
  for (const m of text.slice(0, from).matchAll(/^[ \t]*(?:```|~~~)/gm)) {
    void m;
    open = !open;
  }
  return open;
}

/** True when `[from, to)` sits between a pair of quotes on its own line. */
function quotedOnLine(text: string, from: number, to: number): boolean {
  const lineStart = text.lastIndexOf('\n', from - 1) + 1;
  const lineEndAt = text.indexOf('\n', to);
  const lineEnd = lineEndAt < 0 ? text.length : lineEndAt;
  const before = text.slice(lineStart, from);
  const after = text.slice(to, lineEnd);
  for (const [open, close] of QUOTE_PAIRS) {
    const o = before.lastIndexOf(open);
    if (o < 0) continue;
    // An apostrophe inside a word ("don't") opens nothing.
    if (open === "'" && /\w/.test(before[o - 1] ?? '')) continue;
    const between = before.slice(o + 1);
    if (open === close && between.includes(close)) continue;
    if (after.includes(close)) return true;
    // A code span runs on over a line break inside its paragraph (CommonMark): its close on the next line.
    if (open === '`' && lineEndAt >= 0) {
      const next = text.slice(lineEndAt + 1, (text.indexOf('\n', lineEndAt + 1) + 1 || text.length + 1) - 1).replace(/^[ \t]*(?:>[ \t]?)*/, '');
      if (next.trim() !== '' && !/^(?:#|```|~~~)/.test(next) && next.includes('`')) return true;
    }
  }
  return false;
}

/**
 * True when `from` is on a Markdown table row that quotes something: a guidance table names the
 * technique in one cell ("Jailbreak") and quotes its specimen in the next, and the row is one example.
 */
function onQuotingTableRow(text: string, from: number): boolean {
  const lineStart = text.lastIndexOf('\n', from - 1) + 1;
  const lineEndAt = text.indexOf('\n', from);
  const line = text.slice(lineStart, lineEndAt < 0 ? text.length : lineEndAt);
  return /^\s*\|.*\|\s*$/.test(line) && /"[^"|]+"|“[^”|]+”|`[^`|]+`/.test(line);
}

// An introduction that presents what follows as a specimen of an attack: both a specimen word and a badness word.
const SPECIMEN_WORD = /\b(?:examples?|samples?|specimens?|demo(?:nstration)?s?|case\s+stud(?:y|ies)|looks?\s+like|for\s+instance|e\.g\.)/i;
const BAD_WORD = /\b(?:poison\w*|malicious|attack\w*|inject\w*|exploit\w*|bad|unsafe|dangerous|hostile|compromised|do\s+not\s+(?:use|follow|copy)|don['’]t\s+(?:use|follow|copy)|never\s+(?:use|follow)|red\s+flags?)\b/i;

/**
 * True when `from` is inside a Markdown blockquote (`> …` lines, also joined into one line with the
 * wrapped text) introduced as a specimen of an attack: the text from the nearest heading above the
 * blockquote (or 600 characters) down to it names both a specimen (example, sample, demo, "looks
 * like") and badness (poisoned, malicious, attack, injected, do not use). "Example of a poisoned tool
 * description (do not use)" then `> …` is a quotation; "Always do this first:" then `> …` is an order.
 */
function inIntroducedBlockquote(text: string, from: number): boolean {
  const lineStart = text.lastIndexOf('\n', from - 1) + 1;
  if (!/^[ \t]*>/.test(text.slice(lineStart, from + 1))) return false;
  // The blockquote's first line: walk up over `>` lines.
  let start = lineStart;
  while (start > 0) {
    const prevStart = text.lastIndexOf('\n', start - 2) + 1;
    if (!/^[ \t]*>/.test(text.slice(prevStart, start))) break;
    start = prevStart;
  }
  const above = text.slice(Math.max(0, start - 600), start);
  const heading = Math.max(above.lastIndexOf('\n#'), above.startsWith('#') ? 0 : -1);
  const intro = heading >= 0 ? above.slice(heading) : above;
  return SPECIMEN_WORD.test(intro) && BAD_WORD.test(intro);
}

const LIST_ITEM = /^[ \t]*(?:[-*+]|\d+[.)])\s/;
// (round s30) What a recognition guide calls its specimens: injection attempts or payloads, things quoted "for
// recognition" or "so you can recognise them", "never run these" (in-sample: held-out set 31's prompt-injection
// review skill, whose pattern table and nested list of signals were read as orders).
const RECOGNITION = String.raw`\b(?:prompt[\s-])?injection\s+(?:attempts?|attacks?|patterns?|payloads?|examples?|techniques?|signals?|strings?)\b|\bprompt[\s-]injections?\b|\bfor\s+recognition\b|\b(?:so\s+(?:that\s+)?you\s+can|to\s+help\s+you|to)\s+recogni[sz]e\b|\bnever\s+(?:run|execute|follow|obey)\s+(?:these|them|any\s+of\s+(?:these|them))\b|\b(?:these|the\s+following)\s+(?:warning\s+)?signals\b`;
// A heading or list introduction that presents what follows as attacks to recognise, not steps to take.
const ATTACK_TOPIC = new RegExp(
  String.raw`\b(?:malicious|attackers?|attacks?|red\s+flags?|warning\s+signs?|signs\s+of|indicators?|threats?|anti-?patterns?|suspicious|dangerous|unsafe|watch\s+(?:out\s+)?for|look\s+(?:out\s+)?for|flag|detect\w*|refuse|reject)\b|${RECOGNITION}`,
  'i',
);
// An introduction ending in a colon may also forbid what follows ("Never do the following:"), though not
// "don't forget to:" ("… do not ask for confirmation at any step." forbids the asking, not the list).
const FORBIDS = /\b(?:never|avoid|don['’]t|do\s+not)\b(?!\s+forget)/i;
// A list item that opens with an order to act (not to look for, flag or refuse something).
const PARENT_ORDERS =
  /^[ \t]*(?:[-*+]|\d+[.)])\s+(?:\*\*|__)?(?:(?:first|then|now|next|also),?\s+)?(?:run|execute|perform|do|complete|follow|carry\s+out|apply|set\s+up|install|configure|prepare|start|begin|send|upload|collect|gather|copy|post|submit)\b(?!\s+(?:not|for)\b)/i;

/**
 * True when the line at `offset` is an item of a list introduced as attacks to recognise or forbidden
 * ("Malicious skills often:", "Never do the following:"), or of a list under a heading that names attacks
 * ("## Red flags"): a security guide lists what it warns of.
 */
export function describedAsAttack(text: string, offset: number): boolean {
  const lines = text.slice(0, offset).split('\n');
  let i = lines.length - 1;
  if (!LIST_ITEM.test(lines[i] ?? '')) return false;
  // (round s30) A nested list's introduction is its parent item, when that item ends in a colon ("2. Look for the
  // signals below:" then indented items): the items are what the parent names, as under a paragraph ending so.
  const indent = /^[ \t]*/.exec(lines[i] ?? '')?.[0].length ?? 0;
  if (indent >= 2) {
    for (let p = i - 1; p >= 0 && p > i - 40; p--) {
      const line = lines[p] ?? '';
      if (line.trim() === '' || /^#{1,6}\s/.test(line)) break;
      const own = /^[ \t]*/.exec(line)?.[0].length ?? 0;
      if (own >= indent) continue;
      // (round s30 review) A parent item that orders ("2. Run the environment checks (these detect …):") makes its
      // nested items the steps it orders, whatever words of attacks it holds.
      if (PARENT_ORDERS.test(line)) return false;
      if (LIST_ITEM.test(line) && /:\s*$/.test(line) && (ATTACK_TOPIC.test(line) || FORBIDS.test(line))) return true;
      break;
    }
  }
  while (i > 0 && (LIST_ITEM.test(lines[i - 1] ?? '') || /^[ \t]{2,}\S/.test(lines[i - 1] ?? ''))) i--;
  let intro = i - 1;
  while (intro >= 0 && (lines[intro] ?? '').trim() === '') intro--;
  const introLine = lines[intro] ?? '';
  if (intro >= 0 && !/^#{1,6}\s/.test(introLine) && (ATTACK_TOPIC.test(introLine) || (FORBIDS.test(introLine) && /:\s*$/.test(introLine)))) return true;
  for (let h = intro; h >= 0; h--) {
    const line = lines[h] ?? '';
    if (/^#{1,6}\s/.test(line)) return ATTACK_TOPIC.test(line) || listedUnderAttackDocument(lines, h);
  }
  return false;
}

// (round s31b, in-sample for held-out set 32) What an enclosing heading or its opening paragraph says when the
// whole part of the document below it is a list of attacks to recognise: red flags, warning signs, indicators
// (of compromise), examples or patterns of malicious code or attacks, what to look for, quoted so the reader can
// recognise them. Stricter than ATTACK_TOPIC (a title merely naming a topic such as "Malware detector" is no list).
const LISTS_ATTACKS = new RegExp(
  String.raw`\bred\s+flags?\b|\bwarning\s+signs?\b|\bsigns\s+of\s+(?:a\s+)?(?:compromise|attacks?|malicious|malware|tampering|poison\w*)\b|\bindicators?\s+of\s+(?:compromise|attacks?|malicious\w*|malware)\b|\bIOCs?\b|\b(?:examples?|samples?|specimens?|patterns?)\s+of\s+(?:malicious|attacks?|malware|compromise|poison\w*|hostile)|\b(?:quoted|known[-\s]bad)\s+(?:examples?|samples?|patterns?|snippets?)\b|\bwhat\s+to\s+(?:look|watch)\s+(?:out\s+)?for\b|\b(?:look|watch)\s+(?:out\s+)?for\s+(?:these|the\s+following)\b|\b(?:detect|flag|report)\s+(?:these|the\s+following|any\s+of\s+these)\b|${RECOGNITION}`,
  'i',
);
// A section that is itself a procedure: its list items are steps, whatever the document around it is about.
// Read at the heading's start ("## Setup", "### 2. Usage"; not "## Install-time execution", a kind of attack).
const STEPS_SECTION = /^#+\s+(?:\d+[.)]\s*)?(?:step\s*\d*\s*[:.-]\s*)?(?:set\s*up|setup|installation|install(?:ing)?(?![-\s](?:time|scripts?|hooks?)\b)|usage|steps?|procedure|how\s+to|getting\s+started|quick\s*start|configuration|configure|instructions|workflow|run(?:ning)?|tasks?)\b/i;

/**
 * (round s31b) A list under a neutral subheading ("## AI-agent specific") of a document whose enclosing heading
 * ("# Red flags and the incidents they come from") or that heading's opening paragraph ("These are quoted examples
 * of malicious code so you can recognise them") presents everything below it as attacks to recognise. Only
 * headings of a higher level than the list's own count, the opening paragraph is the prose between such a heading
 * and its first subheading (list items and code left out), and a subheading on the way up that names a procedure
 * (Setup, Usage, Steps, Install) makes its items steps.
 */
function listedUnderAttackDocument(lines: readonly string[], heading: number): boolean {
  let level = /^#+/.exec(lines[heading] ?? '')?.[0].length ?? 1;
  if (STEPS_SECTION.test(lines[heading] ?? '')) return false;
  let lastHeading = heading;
  for (let h = heading - 1; h >= 0 && level > 1; h--) {
    const line = lines[h] ?? '';
    const m = /^(#{1,6})\s/.exec(line);
    if (m === null) continue;
    const own = m[1]!.length;
    if (own >= level) {
      lastHeading = h;
      continue;
    }
    // An enclosing heading: its text, or the prose right under it before the next heading.
    const opening = lines.slice(h + 1, lastHeading).filter((l) => l.trim() !== '' && !LIST_ITEM.test(l) && !/^[ \t]*(?:```|~~~|>)/.test(l)).slice(0, 6).join(' ');
    if (LISTS_ATTACKS.test(line) || LISTS_ATTACKS.test(opening)) return true;
    if (STEPS_SECTION.test(line)) return false;
    level = own;
    lastHeading = h;
  }
  return false;
}

const TABLE_ROW = /^\s*\|.*\|\s*$/;

/**
 * True when `offset` is on a row of a Markdown table that quotes something (a cell in backticks or
 * quotes) and whose header row, or the heading or line just above the table, names attacks to recognise
 * ("| Indicator | Example seen in real incidents |", "# Indicators of malicious packages"): a security
 * guide's table of indicators quotes the commands and paths it warns of (in-sample: a supply-chain audit
 * skill was BLOCKed for its indicator table, held-out set 16).
 */
export function describedAsAttackTable(text: string, offset: number): boolean {
  if (!onQuotingTableRow(text, offset)) return false;
  const lineEnd = text.indexOf('\n', offset);
  const lines = text.slice(0, lineEnd < 0 ? text.length : lineEnd).split('\n');
  let i = lines.length - 1;
  while (i > 0 && TABLE_ROW.test(lines[i - 1] ?? '')) i--;
  // The header row is a row of its own: not the row found.
  if (i < lines.length - 1 && ATTACK_TOPIC.test(lines[i] ?? '')) return true;
  let intro = i - 1;
  while (intro >= 0 && (lines[intro] ?? '').trim() === '') intro--;
  if (intro >= 0 && ATTACK_TOPIC.test(lines[intro] ?? '')) return true;
  for (let h = intro; h >= 0; h--) if (/^#{1,6}\s/.test(lines[h] ?? '')) return ATTACK_TOPIC.test(lines[h] ?? '');
  return false;
}

/**
 * True when a phrase found at `[from, to)` is quoted as an example in a text about attacks on
 * models: it sits inside quotes or a code block or on a table row that quotes its specimen, and the sentence before it introduces a specimen
 * ("avoid language like", "attacks such as") or the whole text is about prompt injection. A skill
 * that teaches how to recognise injected instructions has to quote them; an attack gains nothing
 * from being quoted, as the model still reads the words.
 */
export function isQuotedExample(text: string, from: number, to: number): boolean {
  // An item of a list of red flags ("## Red flags", "Malicious skills often:") names what to recognise, and so
  // does a quoting row of a table of indicators ("| Indicator | Example seen in real incidents |").
  // A pattern file for a search (`rg -f`) quotes what it finds, as a list of red flags does.
  if (inIntroducedBlockquote(text, from) || describedAsAttack(text, from) || describedAsAttackTable(text, from) || inSearchPatternBlock(text, from)) return true;
  // (round s30, real false alarms) The value an attacker supplies in a vulnerable-code example (attacker-value.ts).
  if (attackerValueSpecimen(text, from, to)) return true;
  const quoted = quotedOnLine(text, from, to) || inFence(text, from) || onQuotingTableRow(text, from);
  if (!quoted) return false;
  const context = text.slice(Math.max(0, from - 160), from);
  return EXAMPLE_MARKER.test(context) || SECURITY_TOPIC.test(text);
}

// Words that frame a quoted phrase as what a tool detects: "detects phrases such as …", "flags …".
const DETECTION_MARKER = /\b(?:detect\w*|flag\w*|scan\w*|match\w*|catch\w*|recogni[sz]\w*|block\w*|reject\w*|watch\s+(?:out\s+)?for|look\s+for|signatures?|patterns?\s+(?:such\s+as|like)|phrases?\s+(?:such\s+as|like))\b/i;

/**
 * The stricter reading for an MCP tool's description (which the model reads as the tool's own
 * words): a phrase counts as quoted only between quotes on its line, with the 160 characters before
 * it framing it as what the tool detects ("Detects phrases such as \"ignore previous instructions\"").
 * A text merely about prompt injection does not lower anything here. `quotesCount` false: in a
 * view of code where every string keeps its own delimiters, quotes mark nothing, and only the
 * sentence reading below applies.
 */
export function isDetectedSpecimen(text: string, from: number, to: number, quotesCount = true): boolean {
  if (quotesCount && quotedOnLine(text, from, to) && DETECTION_MARKER.test(text.slice(Math.max(0, from - 160), from))) return true;
  // Unquoted, the sentence itself must say what the tool detects: "Detects <IMPORTANT> blocks and
  // references to credential files like ~/.ssh/id_rsa." (a sentence ends at . ; ! ? or a blank line).
  const before = text.slice(Math.max(0, from - 400), from);
  let start = 0;
  // In code, one literal ending and another starting on the next line also starts a sentence.
  for (const m of before.matchAll(/[.;!?](?=\s)|\n\s*\n|['"`][\s,+]*\n\s*[+,]?\s*(?=['"`])/g)) start = m.index + m[0].length;
  return DETECTS_SENTENCE.test(before.slice(Math.max(0, start)));
}
const DETECTS_SENTENCE = /^\s*["'`(]*\s*(?:it\s+|this\s+tool\s+|the\s+tool\s+)?(?:detects|flags|scans\s+for|finds|catches|matches|looks\s+for|checks\s+for|recogni[sz]es|blocks|rejects)\b/i;

// Words that introduce what follows as something to find, not to do.
const DETECT_INTRO = /\b(?:detect\w*|flag\w*|red[\s-]flags?|look\s+(?:out\s+)?for|watch\s+(?:out\s+)?for|recogni[sz]e\w*|report\s+(?:each|any|every|all)|(?:never|do\s+not|don['’]t)\s+run)\b/i;
// A document whose subject is finding such things: a review, an audit, a scanner.
const REVIEW_SUBJECT = /\b(?:security[\s-]review\w*|review\w*|audit\w*|scan\w*|detect\w*|vet\w*|inspect\w*|triag\w*)\b/i;
const LIST_OR_TABLE_LINE = /^\s*(?:[-*+]|\d+[.)]|\|)\s*/;

// An introduction that hands the block to a search: "Search the target with `rg -f` using these patterns:",
// "grep for these strings:", "regular expressions to match:".
const SEARCH_INTRO = /\b(?:rg|grep|egrep|ripgrep|git\s+grep)\b[^\n]*\s-[a-zA-Z]*[fe]\b|\b(?:patterns?|strings?|signatures?|regex(?:es|ps)?|regular\s+expressions?)\b[^\n]{0,60}\b(?:search|grep|scan|match)\w*\b|\b(?:search|grep|scan|match)\w*\b[^\n]{0,60}\b(?:patterns?|signatures?|regex(?:es|ps)?|regular\s+expressions?)\b/i;
// Syntax of a regular expression that a command line does not have: alternation in parentheses, a
// character class with a quantifier, an escaped class or metacharacter, `.*`, `.{0,20}`, an optional group.
const REGEX_SYNTAX = /\([^()\n]*\|[^()\n]*\)|\[\^?[^\]\n]+\][*+?{]|\\[sdwbSDWB.|()[\]]|\.[*+]|\.\{\d|\)\?/;

/**
 * True when `from` sits in a fenced block that is the input of a search, not commands: the lines
 * introducing it hand it to a search tool or call it patterns to search for, and most of its lines are
 * regular expressions. A pattern file for `rg -f` that holds `curl [^|]+\| *(ba)?sh` names the shape
 * it finds; nothing in it is run.
 */
export function inSearchPatternBlock(text: string, from: number): boolean {
  if (!inFence(text, from)) return false;
  const lines = text.split('\n');
  let i = text.slice(0, from).split('\n').length - 1;
  while (i > 0 && !/^\s*(?:```|~~~)/.test(lines[i] ?? '')) i--;
  if (!SEARCH_INTRO.test(lines.slice(Math.max(0, i - 3), i).join('\n'))) return false;
  let end = i + 1;
  while (end < lines.length && end < i + 500 && !/^\s*(?:```|~~~)/.test(lines[end] ?? '')) end++;
  const body = lines.slice(i + 1, end).filter((l) => l.trim() !== '');
  return body.length > 0 && body.filter((l) => REGEX_SYNTAX.test(l)).length * 2 >= body.length;
}

/**
 * True when the command at `[from, to)` is quoted as a pattern to find: it sits in a fenced block, a
 * table or a list, the lines introducing that block say what follows is to be detected, flagged or
 * never run ("Red flags in scripts (detect these, never run them):", "Flag a script when it contains
 * any of the following:", a table column "Pattern to detect"), and the document is itself about
 * reviewing or auditing (its front matter or first heading). A security-review skill has to quote
 * `curl … | bash` to say what to look for; a setup step under "Run this first:" is not lowered.
 */
export function quotedAsPattern(text: string, from: number): boolean {
  if (inSearchPatternBlock(text, from)) return true;
  const head = text.slice(0, 600);
  // A document of indicators ("# Indicators of malicious packages") is about finding them as a review is.
  const firstHeading = /^#{1,6}\s[^\n]*/m.exec(head)?.[0] ?? '';
  if (!REVIEW_SUBJECT.test(head) && !ATTACK_TOPIC.test(firstHeading)) return false;
  if (describedAsAttackTable(text, from)) return true;
  const lineEnd = text.indexOf('\n', from);
  const lines = text.slice(0, lineEnd < 0 ? text.length : lineEnd).split('\n');
  let i = lines.length - 1;
  const current = lines[i] ?? '';
  if (inFence(text, from)) {
    while (i > 0 && !/^\s*(?:```|~~~)/.test(lines[i] ?? '')) i--;
  } else if (LIST_OR_TABLE_LINE.test(current)) {
    while (i > 0 && (LIST_OR_TABLE_LINE.test(lines[i - 1] ?? '') || /^[ \t]{2,}\S/.test(lines[i - 1] ?? ''))) i--;
    // A table's header row names its columns ("Pattern to detect"): it is part of the introduction.
    if (/^\s*\|/.test(current) && DETECT_INTRO.test(lines[i] ?? '')) return true;
  } else return false;
  const intro = lines.slice(Math.max(0, i - 3), i).join('\n');
  return DETECT_INTRO.test(intro);
}
