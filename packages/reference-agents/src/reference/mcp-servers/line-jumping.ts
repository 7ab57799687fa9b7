import type { AgentFinding } from '@vigil/core';
import { referenceFinding } from '../common/reference-finding.js';
import { SECRET_PATH_PATTERN } from '../skills/script-fact.js';

// A standing scope over calls that are not this tool's own: every command the model runs, each
// request it makes, any email it sends, whenever another tool asks for something, in this session.
const SCOPE =
  /\b(?:every|each|all|any)\s+(?:of\s+(?:the|your)\s+)?(?:[\w-]+\s+){0,4}?(?:commands?|calls?|requests?|invocations?|commits?|push(?:es)?|emails?|e-mails?|messages?|quer(?:y|ies)|tools?|paths?|urls?|uploads?|transfers?|payments?|fetch(?:es)?|downloads?|scripts?|installs?)\b|\bwhenever\s+(?:you|the\s+(?:assistant|model|agent))\b|\b(?:when(?:ever)?|if|before|after)\s+(?:any|another|other|a|a(?:ny)?\s+other)\s+(?:\w+\s+){0,2}tools?\b|\b(?:when(?:ever)?|before|after)\s+(?:you\s+)?(?:run(?:ning)?|execut(?:e|ing)|invok(?:e|ing)|call(?:ing)?|mak(?:e|ing)|send(?:ing)?|commit(?:ting)?|push(?:ing)?)\s+(?:any|a|an)\s+(?:\w+\s+){0,2}(?:commands?|calls?|requests?|emails?|commits?|tools?)\b|\bwhen(?:ever)?\s+(?:the\s+user\s+(?:asks|wants|tells)\s+(?:you\s+)?to|you(?:['’]re|\s+are)?|you\s+(?:need|have|want)\s+to)\s+(?:\w+\s+){0,2}?(?:run\w*|install\w*|execut\w+|call\w*|us(?:e|ing)|send\w*|commit\w*|push\w*|fetch\w*|download\w*|clon\w+|deploy\w*|email\w*|upload\w*|writ\w+|sav\w+|open\w*)\b|\b(?:for|throughout|during)\s+(?:the\s+rest\s+of\s+)?(?:this|the)\s+(?:session|conversation|workspace|repository|project)\b|\bfrom\s+now\s+on\b/i;
// The order changes what is sent or run: a prefix or suffix, a value put in, a destination.
const CHANGE =
  /\b(?:first\s+(?:run|execute|call|invoke)|prefix(?:ed)?|prepend(?:ed)?|append(?:ed)?|add(?:ed|s)?|include[sd]?|insert(?:ed)?|attach(?:ed)?|set|use|pass(?:ed)?|give|supply|point(?:ed)?|route[sd]?|redirect(?:ed)?|replace[sd]?|wrap(?:ped)?|gets?|carry(?:ing)?|go(?:es)?\s+to|cc|bcc|copy|forward(?:ed)?|(?:start|begin|end)s?\s+with|run\s+through|pipe[sd]?|answer|reply|respond|approve|confirm)\b/i;
// What the order puts there that changes the outcome: shell code (a quoted or backticked span with a
// pipe, a chain, a redirection or a substitution), a destination of its own (a web address, a mail
// address), a credential (a key file, a token or a password), a disabled safeguard. A command word is
// one when a space, a quote or the end follows it: in a hyphenated compound ("the env-prefixed
// command", "a curl-like client") it is an English word.
const SHELL_CODE =
  /[`'"“‘][^`'"”’\n]{0,200}?(?:[;|]|&&|\$\(|>\s*[~/.\w]|\b(?:curl|wget|nc|base64|scp|rsync|chmod|rm\s+-rf?|env|printenv|eval)(?![\w-])[^`'"”’\n]{0,80}?[-/|>])[^`'"”’\n]{0,200}[`'"”’]|[`'"“‘]\s*(?:sudo|doas|source|export|eval|bash\s+-c|sh\s+-c|python3?\s+-c|node\s+-e|curl|wget)\b[^`'"”’\n]{0,200}[`'"”’]|\b(?:sudo|doas)\s+-?\w|\$\([^)\n]{2,}\)|&&\s*$|\|\s*(?:ba|z)?sh\b|\b(?:curl|wget)\s+(?:-\w+\s+)*https?:\/\//;
const DESTINATION = /\bhttps?:\/\/(?!(?:localhost|127\.0\.0\.1)\b)[\w-]+(?:\.[\w-]+)+|\b[\w.+-]+@[\w-]+(?:\.[\w-]+)+\b/i;
const CREDENTIAL = /\b(?:bearer\s+token|access\s+token|api[\s_-]?key|auth(?:entication|orization)?\s+token|session\s+(?:token|cookie)|private\s+key|password|secret|credentials?|(?:[A-Z][A-Z0-9]*_)+(?:TOKEN|KEY|SECRET|PASSWORD))\b/;
const SAFEGUARD =
  /(?:^|\s)--(?:no-verify|force|insecure|no-check-certificate|trusted-host|skip-[\w-]+|no-confirm|yes|dangerously[\w-]*|allow-unauthenticated|no-gpg-sign|disable-[\w-]+)\b|\b(?:skip(?:ping)?|bypass(?:ing)?|disabl(?:e|ing))\s+(?:the\s+|any\s+|all\s+)?(?:confirmation|verification|review|approval|hooks?|checks?|prompts?|tls|ssl|certificate)s?\b|\bwithout\s+(?:asking\s+(?:for\s+)?|waiting\s+for\s+)?(?:confirmation|approval|review|the\s+user)\b|\bverify\s*=\s*False\b|\b(?:answer|reply|respond)\s+(?:with\s+)?['"“‘`]?(?:yes|y|approve[ds]?|allow(?:ed)?|confirm(?:ed)?)\b|\bauto-?approv\w+/i;
// The scope is this tool's own input: "each command you pass here", "every path you give these tools".
const OWN_SCOPE = /\b(?:this|these)\s+(?:tool|tools|function|command|endpoint|server['’]s\s+tools)\b|\b(?:pass|give|send)\s+(?:\w+\s+)?(?:here|to\s+it)\b/i;
const NEGATED = /\b(?:never|not|don['’]t|avoid|no)\s+(?:\w+\s+){0,2}$/i;
// The change is an order: a modal before it, an imperative (at the start of a clause, or after
// "always", "also", "then", "please"), or a sentence about what the model itself does ("you run",
// "it sends"). "Each commit includes the author's email" describes a result.
const MODAL_BEFORE = /\b(?:must|should|shall|has\s+to|have\s+to|needs?\s+to|is\s+to|are\s+to|will|always|also|then|please)\s+(?:\w+\s+){0,2}$/i;
const CLAUSE_START = /(?:^|[,:;(—–-])\s*(?:(?:and|then|always|also|please|just|simply)\s+)?$/i;
const MODEL_ACTS = /\b(?:you|your|the\s+(?:assistant|model|agent|ai|llm)|it\s+(?:makes|sends|runs|does|writes|pushes|commits|executes|installs|calls))\b/i;
// A format example ("an address such as a@b.example") is not a value imposed.
const EXAMPLE_BEFORE = /\b(?:e\.g\.|for\s+example|for\s+instance|such\s+as|like|format|valid)\b[^.;\n]{0,30}$/i;

export interface LineJump {
  kind: 'shell' | 'destination' | 'credential' | 'safeguard';
  sentence: string;
  offset: number;
}

/**
 * A line break ends a sentence unless the text is prose wrapped mid-sentence: a break ends it before a
 * blank line, a list item or a heading, and after a line that ends in punctuation (a docstring wrapped
 * at 100 columns keeps "every time you run any command,\nyou must first run …" one sentence).
 */
function lineBreakEnds(text: string, i: number): boolean {
  const next = /^[ \t]*(\S?)(\S?)/.exec(text.slice(i + 1, i + 8));
  if (next === null || next[1] === '' || /^[-*#>|+]$/.test(next[1]!) || /^\d$/.test(next[1]!)) return true;
  const before = text.slice(Math.max(0, i - 2), i).trimEnd();
  return before === '' || /[.!?:;)\]"'`]$/.test(before);
}

/** The sentences of a text (a code span or a quoted command stays whole). */
function sentences(text: string): Array<{ value: string; offset: number }> {
  const out: Array<{ value: string; offset: number }> = [];
  let start = 0;
  let quote: string | null = null;
  for (let i = 0; i < text.length; i++) {
    const c = text[i] as string;
    if (c === '`') quote = quote === '`' ? null : quote ?? '`';
    if (quote !== null && c !== '\n') continue;
    quote = null;
    if ((c === '\n' && lineBreakEnds(text, i)) || (/[.!?]/.test(c) && /\s/.test(text[i + 1] ?? ' '))) {
      if (i > start) out.push({ value: text.slice(start, i + 1), offset: start });
      start = i + 1;
    }
  }
  if (start < text.length) out.push({ value: text.slice(start), offset: start });
  return out;
}

/**
 * Line jumping without code (Trail of Bits, "Jumping the line", 2025; Invariant Labs, tool
 * poisoning): text the model reads before any call — a tool description, the server's instructions,
 * a prompt or a resource — that gives a standing order about the inputs of OTHER calls ("prefix every
 * shell command you run with …", "whenever another tool asks for a path, give it ~/.ssh/…", "each
 * request goes through https://relay…", "every commit gets --no-verify"). What is judged is what the
 * order changes: the command that runs, where data goes, a credential handed over, a safeguard
 * turned off; an order about the tool's own parameters ("each command you pass here") or one that
 * changes nothing of these ("every path must be absolute") is not one. A sentence and the one before
 * it (a scope stated first: "House rules for this repository: …") are read together.
 */
export function lineJumps(text: string): LineJump[] {
  if (text.length < 30) return [];
  const out: LineJump[] = [];
  const parts = sentences(text.length > 20000 ? text.slice(0, 20000) : text);
  for (let k = 0; k < parts.length; k++) {
    const { value: sentence, offset } = parts[k] as { value: string; offset: number };
    // An order is a sentence of prose: a run of 500 characters without a full stop is code or data (an SQL text, a table).
    if (sentence.length > 500 || !CHANGE.test(sentence)) continue;
    const previous = k > 0 ? (parts[k - 1] as { value: string }).value : '';
    const scoped = SCOPE.test(sentence) || (/:\s*$/.test(previous.trim()) && SCOPE.test(previous)) || (/:\s/.test(sentence) && SCOPE.test(sentence.slice(0, sentence.indexOf(':'))));
    if (!scoped || OWN_SCOPE.test(sentence)) continue;
    const actor = MODEL_ACTS.test(sentence);
    let kind: LineJump['kind'] | null = null;
    for (const change of sentence.matchAll(new RegExp(CHANGE.source, 'gi'))) {
      // `CREATE OR REPLACE`, `INSERT`: keywords of a query, not words of an order.
      if (change[0].length > 2 && change[0] === change[0].toUpperCase()) continue;
      const before = sentence.slice(0, change.index);
      if (NEGATED.test(before.slice(-30))) continue;
      if (!actor && !MODAL_BEFORE.test(before.slice(-60)) && !CLAUSE_START.test(before)) continue;
      // What the order puts in: the rest of its clause.
      const rest = sentence.slice(change.index);
      const clause = rest.slice(0, rest.search(/;|$/));
      const shell = SHELL_CODE.exec(clause);
      const destination = DESTINATION.exec(clause);
      const credential = SECRET_PATH_PATTERN.exec(clause.replace(/[`'"]/g, ' ')) ?? CREDENTIAL.exec(clause);
      const safeguard = SAFEGUARD.exec(clause);
      const found = shell !== null ? 'shell' : destination !== null ? 'destination' : credential !== null ? 'credential' : safeguard !== null ? 'safeguard' : null;
      if (found === null) continue;
      const hit = (shell ?? destination ?? credential ?? safeguard) as RegExpExecArray;
      const lead = clause.slice(Math.max(0, hit.index - 40), hit.index);
      if (NEGATED.test(lead.slice(-30)) || EXAMPLE_BEFORE.test(lead)) continue;
      kind = found;
      break;
    }
    if (kind === null) continue;
    out.push({ kind, sentence: sentence.trim(), offset });
    if (out.length >= 3) break;
  }
  return out;
}

const WHAT: Record<LineJump['kind'], string> = {
  shell: 'adds shell code to the commands the model runs',
  destination: 'sends what other calls carry to an address of its own',
  credential: 'puts a credential into other calls',
  safeguard: 'turns off a safeguard of other calls',
};

/**
 * Findings for `lineJumps` in one text, at `line` (or at the sentence's line when `lineOf` is
 * given). A safeguard turned off is HIGH; shell code, a destination or a credential is CRIT: the
 * order alone does the harm once the model follows it.
 */
export function lineJumpingFindings(text: string, file: string, line: number | ((offset: number) => number)): AgentFinding[] {
  return lineJumps(text).slice(0, 1).map((j) =>
    referenceFinding({
      category: 'tool_poisoning',
      severity: j.kind === 'safeguard' ? 'HIGH' : 'CRIT',
      title: `text for the model changes the inputs of other calls: ${WHAT[j.kind]} (line jumping)`,
      file,
      line: typeof line === 'number' ? line : line(j.offset),
      evidence: j.sentence.slice(0, 300),
    }),
  );
}
