// Words that introduce a phrase as a specimen rather than an instruction: "avoid language like …",
// "attacks such as …", "flag inputs containing …".
const EXAMPLE_MARKER =
  /\b(?:e\.g\.|i\.e\.|for\s+example|for\s+instance|such\s+as|like|avoid|phrases?|patterns?|wording|language|attempts?|examples?|samples?|payloads?|attacks?|injections?|detect\w*|flag\w*|block\w*|watch\s+(?:out\s+)?for|look\s+for|beware|never\s+follow|reject\w*|refus\w*|ignore\s+(?:text|content|instructions)\s+(?:like|such))\b/i;
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

/**
 * True when a phrase found at `[from, to)` is quoted as an example in a text about attacks on
 * models: it sits inside quotes or a code block or on a table row that quotes its specimen, and the sentence before it introduces a specimen
 * ("avoid language like", "attacks such as") or the whole text is about prompt injection. A skill
 * that teaches how to recognise injected instructions has to quote them; an attack gains nothing
 * from being quoted, as the model still reads the words.
 */
export function isQuotedExample(text: string, from: number, to: number): boolean {
  const quoted = quotedOnLine(text, from, to) || inFence(text, from) || onQuotingTableRow(text, from);
  if (!quoted) return false;
  const context = text.slice(Math.max(0, from - 160), from);
  return EXAMPLE_MARKER.test(context) || SECURITY_TOPIC.test(text);
}
