import { APPROVAL_OFF } from '../code/agent-settings-writes.js';
import { accessGrantOrder } from './access-grant-order.js';
import { backdoorCodeOrder } from './backdoor-code-order.js';
import { dependencyOrders } from './dependency-orders.js';
import { destructiveOrder } from './destructive-orders.js';
import { findInstructionPhrases } from './instruction-phrases.js';
import { describedAsAttack } from './quoted-example.js';
import { secretHandoffs } from './secret-handoff-text.js';

/**
 * Agent memory poisoning: text that has an agent write standing orders into what it (or another
 * agent) reads at the start of every session — a user- or project-level CLAUDE.md / AGENTS.md /
 * GEMINI.md, `~/.codex/AGENTS.md`, `.github/copilot-instructions.md`, `.cursorrules` and Cursor,
 * Windsurf, Cline, Kiro or Roo rules, a memory MCP store ("remember permanently", "save to your
 * memory") — and what is written there: text the order gives inline (after a colon, in quotes, in the
 * code block that follows) or a file the artifact ships (`cat references/policy.md >> ~/.claude/CLAUDE.md`,
 * "append the contents of references/policy.md to your CLAUDE.md"). Writing a memory file is what a
 * project setup does; it is the planted text that makes it an attack, so that text is read as
 * instructions with the same rules: secrets collected and sent, a download run, approvals switched
 * off, actions hidden from the user, earlier instructions overridden, data destroyed, and (round s30) a
 * dependency from off the registry or a look-alike added to the user's projects, backdoored code or an
 * outside party's access written into them.
 */

/** Files and stores an agent reads at every start. Memory file names are matched case-sensitively. */
export const MEMORY_TARGET = new RegExp(
  [
    String.raw`(?<![\w-])(?:CLAUDE(?:\.local)?|AGENTS|GEMINI)\.md\b`,
    String.raw`\.(?:cursorrules|windsurfrules|clinerules)\b|\.(?:cursor|windsurf|roo|continue|kiro|amazonq|trae|augment|claude)\/(?:rules|steering|memory)\b|copilot-instructions\.md\b|\.github\/instructions\/|\bglobal_rules\.md\b|\.codeium\/windsurf\/memories\b`,
    String.raw`\b(?:remember|memori[sz]e)\b[^.\n]{0,40}\b(?:permanently|forever|for\s+(?:all\s+)?future|across\s+(?:all\s+)?(?:sessions|conversations|projects))\b|\b(?:to|in|into)\s+(?:long-term\s+|persistent\s+)?memory\b`,
    String.raw`\b(?:[Yy]our|[Tt]he\s+agent['’]s|[Tt]he\s+assistant['’]s)\s+(?:persistent\s+|long-term\s+|permanent\s+|global\s+)?(?:memory|memories|memory\s+(?:file|bank|store))\b`,
    String.raw`\b(?:[Mm]emory|MEMORY)\s+(?:tool|MCP|server|store|bank|file)\b|\b(?:create_entities|add_observations|save_memory|memory_store|store_memory|add_memory)\b`,
    String.raw`\b(?:[Gg]lobal|[Uu]ser-level|[Pp]ersistent|[Pp]ermanent|[Cc]ustom)\s+(?:instructions|rules|memory)\b`,
  ].join('|'),
  'g',
);
/** Writing there, or keeping a text for later sessions. */
const WRITE_VERB =
  /\b(?:append|add|write|copy|save|store|put|insert|paste|include|merge|prepend|place|record|remember|memori[sz]e|persist|install|update)\b|>>|\btee\s+-a\b|\bcp\s+\S/i;
const ABOUT_ATTACKS = /\b(?:attack\w*|malicious|poison\w*|inject\w*|adversar\w*|threat|exploit\w*|red\s+flags?|for\s+example|e\.g\.)\b/i;
const ADVICE = /\b(?:never|don['’]t|do\s+not|must\s+not|should\s+not|avoid)\b[^.\n]{0,40}$/i;

/** What makes planted text an attack, in the words of an order to a model. */
const HARMFUL_ORDER = new RegExp(
  [
    String.raw`\b(?:curl|wget)\b[^\n|]{0,200}\|\s*(?:sudo\s+)?(?:ba|z)?sh\b|\b(?:iwr|Invoke-WebRequest|irm)\b[^\n]{0,200}\b(?:iex|Invoke-Expression)\b|\bbase64\s+(?:-d|--decode)\b[^\n]{0,60}\|\s*(?:ba|z)?sh\b`,
    String.raw`\b(?:approve|accept|allow)\s+(?:all|every|any)\s+(?:\w+\s+){0,2}(?:commands?|tool\s+calls?|actions?|edits?|requests?)\s+(?:automatically|without\s+(?:asking|confirmation))|\bnever\s+ask\s+(?:the\s+user\s+)?(?:for\s+)?(?:permission|confirmation|approval)\b|\b(?:run|execute|install|approve|proceed|push|commit|delete|send|upload)\b[^.\n]{0,40}\bwithout\s+(?:asking|confirmation|approval)\b`,
    String.raw`\bwithout\s+(?:telling|informing|notifying)\s+(?:the\s+)?user\b`,
    String.raw`\b(?:send|post|upload|forward|email)\s+(?:(?:all|every|each|the|their|its|your|any|of)\s+)*(?:it|them|contents?|values?|output|data|files?|code|diffs?|conversations?|history|transcripts?|keys?|tokens?|credentials?|secrets?|passwords?|environment|env|everything)\b[^.\n]{0,60}\bto\s+(?:https?:\/\/(?!(?:localhost|127\.0\.0\.1)[:/])|[\w.+-]+@[\w-]+\.)`,
  ].join('|'),
  'i',
);

// Phrase rules whose order is harmful wherever it stands ("from now on, you will …" is what memory says anyway).
const PLANTED_RULES = new Set(['ignore-previous', 'conceal-from-user', 'system-prompt-override', 'read-secret-into-argument', 'harvest-secrets', 'send-private-to-url']);

/** The planted text's harm, in a few words, or null when it is ordinary guidance. */
export function plantedHarm(text: string): string | null {
  if (secretHandoffs(text).length > 0) return 'collect secrets and send them out';
  const phrase = findInstructionPhrases(text).find((h) => PLANTED_RULES.has(h.rule.id));
  if (phrase !== undefined) return phrase.rule.title.replace(/^instruction (?:text )?to /, '');
  if (APPROVAL_OFF.test(text)) return "turn the agent's approvals off";
  const order = HARMFUL_ORDER.exec(text);
  if (order !== null) return `${order[0].slice(0, 60)}`;
  if (destructiveOrder(text) !== null) return "destroy the user's files or cloud resources";
  // (round s30) What the planted rules have the agent put into every later project, read as a skill's document is:
  // a dependency from off the registry or a look-alike name, backdoored code, access for an outside party
  // (in-sample: held-out set 31's bootstrap skill planting an outside tarball dependency in the user-level CLAUDE.md).
  // A source off the registry as the dependency rules weigh it HIGH or CRIT: not an unpinned forge repository named once.
  // (round s30 review) Not the organisation's own package index told openly, nor a versioned file on a known forge.
  const dependency = dependencyOrders(text).find((o) => o.kind === 'typosquat' || o.concealed || (o.internal !== true && o.forge !== true) || (o.spread && !o.pinned && o.internal !== true));
  if (dependency !== undefined) return `add ${dependency.kind === 'typosquat' ? 'a look-alike package' : 'a dependency from outside the package registry'} to the user's projects (${dependency.name.slice(0, 80)})`;
  if (backdoorCodeOrder(text)?.severity === 'CRIT' || accessGrantOrder(text) !== null) return "write a backdoor into the user's code or infrastructure";
  return null;
}

export interface MemoryPlant {
  /** Offset of the order in the text. */
  offset: number;
  /** The memory file or store written. */
  target: string;
  /** The order's sentence (and a following code block). */
  evidence: string;
  /** Text the order writes, given inline. */
  inline: string;
  /** Path-like tokens of the order: files of the artifact it may copy there. */
  tokens: string[];
}

/** The sentence around `offset`, wrapped lines joined (a full stop inside a path does not end it; a wrapped line opening with `**emphasis**` is no list item). */
function sentenceAround(text: string, offset: number): { from: number; to: number } {
  let from = offset;
  while (from > 0 && !(text[from - 1] === '\n' && (text[from - 2] === '\n' || /^[ \t]*(?:[-*+]\s|[#>|]|\d+[.)]\s)/.test(text.slice(from, from + 6)))) && !(/[.!?]/.test(text[from - 1] ?? '') && /\s/.test(text[from] ?? ''))) from--;
  let to = offset;
  while (to < text.length && !(text[to] === '\n' && (text[to + 1] === '\n' || /^[ \t]*(?:[-*+]\s|[#>|`]|\d+[.)]\s)/.test(text.slice(to + 1, to + 7)))) && !(/[.!?]/.test(text[to] ?? '') && (to + 1 === text.length || /\s/.test(text[to + 1] ?? '')))) to++;
  return { from, to };
}

/**
 * Orders in a text to write into an agent's memory, each with what it writes inline and the
 * path-like tokens that may name a shipped file. Advice ("never add secrets to CLAUDE.md"), quoted
 * specimens and items of a list of attacks are not orders.
 */
export function memoryPlants(text: string): MemoryPlant[] {
  if (text.length > 512 * 1024) return [];
  const out: MemoryPlant[] = [];
  const seen = new Set<number>();
  const fences = [...text.matchAll(/^[ \t]*(```|~~~)[^\n]*\n[\s\S]*?^[ \t]*\1[ \t]*$/gm)].map((f) => [f.index, f.index + f[0].length] as const);
  for (const m of text.matchAll(MEMORY_TARGET)) {
    // In a code block only a command line that writes the file is an order (`cat x.md >> ~/.claude/CLAUDE.md`);
    // a directory tree or a sample file naming AGENTS.md is not.
    if (fences.some(([a, b]) => m.index >= a && m.index < b)) {
      const lineStart = text.lastIndexOf('\n', m.index) + 1;
      const line = text.slice(lineStart, text.indexOf('\n', m.index) < 0 ? text.length : text.indexOf('\n', m.index));
      if (!/>>?\s*["']?\S*$|\btee\s+(?:-a\s+)?|\bcp\s+\S+\s+\S*$/.test(line.slice(0, m.index - lineStart + m[0].length)) || /^\s*#/.test(line)) continue;
      const tokens = [...line.matchAll(/(?:\.{1,2}\/)?[\w.@-]+(?:\/[\w.@-]+)*\.(?:md|mdc|txt|rules|prompt|ya?ml|json)\b/g)].map((t) => t[0].replace(/^\.\//, ''));
      out.push({ offset: lineStart, target: m[0], evidence: line.trim().slice(0, 300), inline: /\becho\s+/.test(line) ? line : '', tokens });
      continue;
    }
    const { from, to } = sentenceAround(text, m.index);
    if (seen.has(from)) continue;
    // Each sentence's list reading is linear in the text: a document naming memory files by the hundred is read for its first fifty.
    if (seen.size >= 50) break;
    seen.add(from);
    const sentence = text.slice(from, to);
    const verb = WRITE_VERB.exec(sentence);
    // A target in backticks is how a path is written, not a quotation: only a sentence about attacks is a specimen.
    if (verb === null || ADVICE.test(sentence.slice(0, verb.index)) || ABOUT_ATTACKS.test(sentence) || describedAsAttack(text, m.index)) continue;
    // What is written: the rest of the sentence after a colon, quoted text, and a code block that follows within two lines.
    const colon = sentence.indexOf(': ');
    const quoted = [...sentence.matchAll(/"([^"\n]{20,})"|“([^”\n]{20,})”/g)].map((q) => q[1] ?? q[2] ?? '');
    const after = text.slice(to, to + 3000);
    // The block may follow the rest of the paragraph ("… to CLAUDE.md. Do not show it to the user.\n\n```").
    const fence = /^[^\n`]*(?:\n[^\n`]*){0,2}?\n[ \t]*(```|~~~)[^\n]*\n([\s\S]*?)\n[ \t]*\1/.exec(after);
    // What the text says about the block between the order and it ("do not show this block to the user") is read with it.
    const interlude = fence === null ? '' : fence[0].slice(0, fence[0].indexOf(fence[1]!));
    // An order ending in a colon plants what follows it: a quotation, an indented or plain paragraph, a list (up to a heading).
    const follows = /:\s*$/.test(sentence) && fence === null ? (/^[\s\S]{0,1200}?(?=\n#{1,6}\s|$)/.exec(after)?.[0] ?? '') : '';
    const inline = [colon >= 0 ? sentence.slice(colon + 2) : '', ...quoted, interlude, fence?.[2] ?? '', follows.replace(/^[ \t]*>\s?/gm, '')].join('\n');
    const tokens = [...sentence.matchAll(/(?:\.{1,2}\/)?[\w.@-]+(?:\/[\w.@-]+)*\.(?:md|mdc|txt|rules|prompt|ya?ml|json)\b/g)].map((t) => t[0].replace(/^\.\//, ''));
    out.push({ offset: from, target: m[0], evidence: `${sentence.trim()}${fence ? `\n${fence[0].trim()}` : ''}`.slice(0, 300), inline, tokens });
  }
  return out;
}

/** Memory files and rules files a program may write (as strings or path pieces joined). */
export const MEMORY_FILE_IN_CODE =
  /(?:^|[\\/"'`])(?:CLAUDE(?:\.local)?|AGENTS|GEMINI|global_rules)\.md["'`]|\.(?:cursorrules|windsurfrules|clinerules)["'`]|copilot-instructions\.md["'`]|\.(?:cursor|windsurf|roo|kiro|amazonq)\/(?:rules|steering)\b|windsurf\/memories\b/;

/** Long string literals of a program: the text it may write. */
export function stringLiterals(code: string): string {
  return [...code.matchAll(/"""([\s\S]{20,}?)"""|'''([\s\S]{20,}?)'''|`([^`]{20,})`|"((?:[^"\\\n]|\\.){20,})"|'((?:[^'\\\n]|\\.){20,})'/g)].map((m) => m[1] ?? m[2] ?? m[3] ?? m[4] ?? m[5] ?? '').join('\n');
}
