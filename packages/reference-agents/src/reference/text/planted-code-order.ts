
/**
 * A rules file's order to put third-party code into what the agent writes, kept from the user: a
 * `<script src>` from an outside host in every page, a dependency renamed by an npm alias
 * (`"@team/forms": "npm:other-package@1"`) or taken from a URL, with "do not mention it" beside it or
 * inside an HTML comment the rendered file does not show ("Rules File Backdoor", Pillar Security,
 * March 2025). The agent ships the attacker's script in the user's pages and the review never hears
 * of it. Visible, unconcealed orders of the same kind are the phrase rule's (HIGH for a remote script).
 */
export interface PlantedCodeOrder {
  offset: number;
  evidence: string;
  /** Why the user does not see it: an order to keep quiet, an HTML comment, or both. */
  hiddenBy: string;
}

// The order: a verb that has the agent add something to its output.
const ADD = /\b(?:add|insert|include|inject|append|embed|put|place|import|install)\b/gi;
// What is added, within a few lines of the verb.
const PLANTED = [
  { name: 'a script from an outside host', pattern: /<script\b[^>]{0,200}?\bsrc\s*=\s*["']?(?:https?:)?\/\/(?!localhost\b|127\.|\[::1\])[\w.-]+/i },
  { name: 'a dependency renamed by an npm alias', pattern: /["']?[@\w./-]+["']?\s*:\s*["']npm:[@\w./-]+/i },
  { name: 'a dependency downloaded from a URL', pattern: /["'][@\w./-]+["']\s*:\s*["']https?:\/\/[^"'\s]+\.(?:tgz|tar\.gz)["']/i },
];
// The order keeps the addition itself from the user: "do not mention it / these additions", "quietly".
const CONCEAL_ADDITION =
  /\b(?:do\s+not|don['’]t|never|without)\s+(?:mention|point\s+out|call\s+out|flag|highlight|bring\s+up|explain|list|disclose|tell\s+(?:the\s+)?(?:user|reviewers?)\s+about)(?:ing)?\s+(?:it|this|these|them|that|those|the\s+(?:addition|change|script|tag|import|package|dependenc(?:y|ies)|snippet)s?)\b|\b(?:silently|quietly|without\s+comment)\b/i;
// A sentence that forbids what it names is a safety rule.
const FORBIDS = /\b(?:never|do\s+not|don['’]t|must\s+not|should\s+not|avoid|no)\b[^.\n]*$/i;
// How far from the verb the added thing, and from the order the concealment, may sit.
const REACH = 300;
const PARAGRAPH = 800;

/** The first concealed order in a rules file to add outside code to the agent's output, or null. */
export function plantedCodeOrder(text: string): PlantedCodeOrder | null {
  if (!/<script\b|npm:|\.tgz\b|\.tar\.gz\b/i.test(text)) return null;
  const comments = [...text.matchAll(/<!--[\s\S]*?-->/g)].map((m) => [m.index, m.index + m[0].length] as const);
  for (const verb of text.matchAll(ADD)) {
    const at = verb.index;
    const sentenceStart = Math.max(text.lastIndexOf('.', at), text.lastIndexOf('\n\n', at), 0);
    if (FORBIDS.test(text.slice(sentenceStart, at))) continue;
    const reach = text.slice(at, at + REACH);
    for (const p of PLANTED) {
      const m = p.pattern.exec(reach);
      if (m === null) continue;
      // A verb in another paragraph than what it would add does not order it.
      if (/\n\s*\n/.test(reach.slice(0, m.index))) continue;
      const inComment = comments.some(([s, e]) => at >= s && at < e);
      const near = text.slice(Math.max(0, at - PARAGRAPH), at + PARAGRAPH);
      const quiet = CONCEAL_ADDITION.exec(near);
      if (!inComment && quiet === null) continue;
      const hiddenBy = [inComment ? 'inside an HTML comment' : '', quiet !== null ? `"${quiet[0]}"` : ''].filter((s) => s !== '').join(' and ');
      return { offset: at, evidence: `${p.name}: ${m[0].trim().slice(0, 120)} (${hiddenBy})`.replace(/\s+/g, ' ').slice(0, 300), hiddenBy };
    }
  }
  return null;
}
