import type { AgentFinding, Severity } from '@vigil/core';
import { referenceFinding } from '../common/reference-finding.js';
import { lineLocator } from './line-locator.js';
import { findHiddenText, revealHiddenTextWithTags } from './hidden-text.js';
import { PHRASE_RULES, findInstructionPhrases, type PhraseRule } from './instruction-phrases.js';
import { isDetectedSpecimen, isQuotedExample } from './quoted-example.js';
import { concealedSpans, readsAsOrder } from './concealed-text.js';
import { ordersSecretIntoImage } from './hidden-secret-sink.js';

export interface InstructionTextOptions {
  /** `/`-separated path of the file the text is in. */
  file: string;
  /** Line of the text's first character in the file (descriptions inside source code). */
  firstLine?: number;
  /** Scan HTML comments and base64 blocks (markdown documents). */
  markdown?: boolean;
  /**
   * Scan HTML comments even when `markdown` is false (an MCP server's prompt and result templates),
   * where a comment counts only when it also asks for an action (call, use, run, send, upload,
   * include, read, pass, forward, post, fetch, a tool): a template's markup comments do not.
   */
  htmlComments?: boolean;
  /** The text is a string taken from source code (a tool's description): escapes it still spells (`\x1b[8m`) are read as the characters. */
  cookEscapes?: boolean;
  /** Match instruction phrasing (false: hidden characters only, for code and data files). */
  phrases?: boolean;
  /** The phrase rules to match instead of PHRASE_RULES. */
  rules?: readonly PhraseRule[];
  /** Extra rules for this kind of text (tool shadowing for MCP descriptions). */
  extraRules?: readonly PhraseRule[];
  /**
   * Match phrases across line wraps (a docstring or description wrapped inside "do not tell the
   * user"): a newline between two non-blank lines counts as a space. Lines stay those of the text.
   */
  joinWrappedLines?: boolean;
  /** Report a phrase quoted as an example in a text about attacks on models (isQuotedExample) as LOW. */
  /** `true`: skills' reading (quoted and introduced, or a text about attacks); `'detected'`: quoted and framed as what a tool detects, or in a sentence that says what it detects (MCP descriptions); `'detected-sentence'`: the sentence reading only (code, whose literals keep their own quotes). */
  quotedExamples?: boolean | 'detected' | 'detected-sentence';
}

const RAISED: Readonly<Record<Severity, Severity>> = { LOW: 'MED', MED: 'HIGH', HIGH: 'CRIT', CRIT: 'CRIT' };

// Words a comment uses when it talks to a model rather than to the document's maintainers.
const ASKS_ACTION = /\b(?:call|invoke|use|run|execute|send|upload|include|read|pass|forward|post|fetch|tools?)\b/i;
const ADDRESSES_MODEL = /\b(?:AI|assistant|agent|model|LLM|Claude|GPT|Copilot|Cursor|Gemini|chatbot)\b/i;
const IMPERATIVE = /\b(?:must|always|never|do\s+not|don['’]t|instead|secretly|silently|immediately|first|before\s+(?:answering|responding|doing))\b/i;
const PROHIBITION_BEFORE = /(?:^|[.!?:;\n]\s*|\s)(?:never|do\s+not|don['’]t|must\s+not|mustn['’]t|should\s+not|shouldn['’]t|avoid)\s+(?!(?:forget|fail|hesitate|skip|omit)\b)(?:\w+\s+){0,1}[\x60'"]?$/i;
const BASE64_BLOCK = /(?<![A-Za-z0-9+/=_-])(?:[A-Za-z0-9+/]{4}){20,}(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?(?![A-Za-z0-9+/=_-])/g;
// CSI (`ESC [ … letter`) and OSC (`ESC ] … BEL`) sequences; built from a string so no control
// character sits in a regex literal.
const ANSI_ESCAPE = new RegExp(`${String.fromCharCode(27)}\\[[0-9;?]*[A-Za-z]|${String.fromCharCode(27)}\\][^${String.fromCharCode(7)}]*${String.fromCharCode(7)}`);
const ESC = String.fromCharCode(27);
// Sequences that hide what follows or what came before: conceal (SGR 8), cursor up/back, erase line or screen.
const HIDING_SEQUENCE = new RegExp(`${ESC}\\[(?:[0-9;]*;)?8(?:;[0-9;]*)?m|${ESC}\\[\\d*[AFJK]`, 'g');
const HIDDEN_ASK = /\b(?:always|never|must|instead|pass|use|run|install|send|include|read|call|ignore)\b|https?:\/\/|--(?:index-url|extra-index-url|registry)\b/i;
const SHELL_PAYLOAD = /\b(?:curl|wget|bash|sh\s+-c|powershell|nc\s+-e|python3?\s+-c|rm\s+-rf|chmod\s+\+x)\b|\/dev\/tcp\//;

/** `\x1b[`, `\u001b[`, `\033[`, `\e[` spelled out in text taken from code, turned into the escape they stand for. */
export function cookEscapes(text: string): string {
  return text.replace(/\\(?:x1b|u001b|u\{1b\}|033|e)(?=[[\]])/gi, ESC);
}

/** The visible text after the first hiding sequence, when it asks for something (an instruction, a URL, a flag); else null. */
export function concealedInstruction(text: string): string | null {
  for (const m of text.matchAll(HIDING_SEQUENCE)) {
    const after = text.slice(m.index + m[0].length, m.index + m[0].length + 400).replace(new RegExp(`${ESC}\\[[0-9;?]*[A-Za-z]`, 'g'), '').trim();
    if (after.length >= 12 && (HIDDEN_ASK.test(after) || SHELL_PAYLOAD.test(after))) return after;
  }
  return null;
}

function printableRatio(text: string): number {
  if (text.length === 0) return 0;
  let ok = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if ((c >= 32 && c < 127) || c === 9 || c === 10 || c === 13) ok++;
  }
  return ok / text.length;
}

function excerpt(text: string, offset: number, length: number): string {
  return text.slice(offset, Math.min(text.length, offset + Math.max(length, 1) + 80));
}

/**
 * Findings for text a model reads (a skill's SKILL.md, an MCP tool description): hidden Unicode,
 * instruction phrasing (raised one severity when it sits where a person reading the rendered text
 * does not see it: an HTML comment, Unicode tags, a base64 block), comments that address the model,
 * and base64 blocks that decode to text or shell commands.
 */
export function instructionTextFindings(text: string, options: InstructionTextOptions): AgentFinding[] {
  const findings: AgentFinding[] = [];
  const file = options.file;
  const base = (options.firstLine ?? 1) - 1;
  // One locator per text an offset refers to: the original, and the text with hidden characters removed.
  const locators = new Map<string, (offset: number) => number>();
  const at = (t: string, offset: number): number => {
    let locate = locators.get(t);
    if (!locate) {
      locate = lineLocator(t);
      locators.set(t, locate);
    }
    return base + locate(offset);
  };
  const rules = [...(options.rules ?? PHRASE_RULES), ...(options.extraRules ?? [])];
  // Same length as the text, so offsets (and lines) are unchanged.
  const joined = (t: string) => (options.joinWrappedLines === true ? t.replace(/([^\n])\n(?=[ \t]*[^\s])/g, '$1 ') : t);
  const phrases = (t: string) => (options.phrases === false ? [] : findInstructionPhrases(joined(t), rules));

  let zeroWidthTotal = 0;
  let firstZeroWidth: number | null = null;
  let longestZeroWidthRun = 0;
  for (const hit of findHiddenText(text)) {
    const line = at(text, hit.offset);
    if (hit.kind === 'unicode-tags') {
      findings.push(
        referenceFinding({ category: 'prompt_injection', severity: 'CRIT', title: 'hidden Unicode tag characters (ASCII smuggling)', file, line, evidence: `decodes to: ${hit.decoded ?? ''}` }),
      );
    } else if (hit.kind === 'zero-width') {
      zeroWidthTotal += hit.count;
      longestZeroWidthRun = Math.max(longestZeroWidthRun, hit.count);
      firstZeroWidth ??= hit.offset;
    } else {
      findings.push(
        referenceFinding({ category: 'prompt_injection', severity: 'MED', title: 'bidirectional control characters reorder the displayed text', file, line, evidence: excerpt(text, hit.offset, hit.count).replace(/[\u202a-\u202e\u2066-\u2069]/g, (c) => `<U+${c.charCodeAt(0).toString(16).toUpperCase()}>`) }),
      );
    }
  }
  // Generated tables and translations in code and data files hold zero-width characters as data.
  if (firstZeroWidth !== null && options.markdown !== false) {
    // One stray zero-width space is a copy-and-paste accident; runs or many of them encode or split text.
    const deliberate = longestZeroWidthRun >= 2 || zeroWidthTotal >= 4;
    findings.push(
      referenceFinding({
        category: 'prompt_injection',
        severity: deliberate ? 'HIGH' : 'LOW',
        title: deliberate ? 'zero-width characters hide or split text' : 'stray zero-width character',
        file,
        line: at(text, firstZeroWidth),
        evidence: `${zeroWidthTotal} zero-width character(s), longest run ${longestZeroWidthRun}`,
      }),
    );
  }

  // Words whose letters are interleaved with zero-width characters (often inside a bidi isolate): the model
  // reads the sentence whole, a reviewer's search and diff do not. Checked in every file, code and data too:
  // tables that hold zero-width characters as data do not put them between the letters of Latin words.
  for (const span of concealedSpans(text)) {
    const hit = findInstructionPhrases(span.revealed, rules)[0];
    const order = hit !== undefined || readsAsOrder(span.revealed);
    findings.push(
      referenceFinding({
        category: hit?.rule.category ?? 'prompt_injection',
        severity: order ? 'CRIT' : 'HIGH',
        title: hit !== undefined ? `${hit.rule.title} (hidden by zero-width characters)` : order ? 'text hidden by zero-width characters gives the model instructions' : 'zero-width characters scattered inside words hide text from review',
        file,
        line: at(text, span.offset),
        evidence: `reads as: ${span.revealed.trim().slice(0, 240)}`,
      }),
    );
  }

  if (options.phrases !== false) {
    // Terminal escape sequences can hide or recolor text when a client prints it (Trail of Bits, 2025).
    // A description read from code may still spell the escape (`\x1b[8m`); a document's prose may quote one, a
    // progress bar's string constant holds one, so only descriptions are cooked.
    const cooked = options.cookEscapes === true ? cookEscapes(text) : text;
    const ansi = ANSI_ESCAPE.exec(cooked);
    // A description that only spells an escape (documenting colour codes) counts when it hides an instruction.
    if (ansi && (ANSI_ESCAPE.test(text) || concealedInstruction(cooked) !== null)) {
      // Conceal, cursor-up or erase, followed by an instruction, a URL or a command: text the user is kept from
      // seeing that tells the model what to do (the second signal that makes the escape an attack, not colour).
      const hidden = concealedInstruction(cooked);
      const where = Math.min(text.length - 1, ansi.index);
      findings.push(referenceFinding({ category: 'prompt_injection', severity: hidden !== null ? 'CRIT' : 'HIGH', title: hidden !== null ? 'ANSI escape sequences hide an instruction from the terminal reader' : 'ANSI escape sequences hide text from the terminal reader', file, line: at(text, where), evidence: JSON.stringify((hidden ?? cooked.slice(ansi.index, ansi.index + 120)).slice(0, 160)) }));
    }
  }

  // Phrases are matched on the text with hidden characters removed, so a zero-width space between
  // letters does not break a match, and with Unicode tags decoded in place, so a passage they hide
  // is matched once, where it sits. Removing them keeps every newline, so lines stay right.
  const { text: visible, tags } = revealHiddenTextWithTags(text);
  const comments: Array<[number, number]> = [];
  if (options.markdown !== false || options.htmlComments === true) {
    const strict = options.markdown === false;
    for (const m of visible.matchAll(/<!--([\s\S]*?)-->/g)) {
      comments.push([m.index, m.index + m[0].length]);
      const body = m[1] ?? '';
      // Secrets to be put into an image or an address with a slot, in text the reader never sees: whoever the
      // comment names ("reviewer bot configuration"), the model reading it is who renders the image (CamoLeak, 2025).
      if (ordersSecretIntoImage(body)) {
        findings.push(referenceFinding({ category: 'exfiltration', severity: 'CRIT', title: 'HTML comment orders secrets put into an image or address the reader does not see', file, line: at(visible, m.index), evidence: body.trim().slice(0, 300) }));
      } else if (ADDRESSES_MODEL.test(body) && IMPERATIVE.test(body) && (!strict || ASKS_ACTION.test(body))) {
        findings.push(referenceFinding({ category: 'prompt_injection', severity: 'HIGH', title: 'HTML comment gives the model instructions the reader does not see', file, line: at(visible, m.index), evidence: body }));
      }
    }
  }
  // Markdown's comment idiom, a link reference definition nothing uses (`[//]: # (text)`, `[comment]: <> (text)`):
  // renderers show nothing of it, the model reads all of it.
  const mdComments: Array<[number, number]> = [];
  if (options.markdown !== false) {
    for (const m of visible.matchAll(/^ {0,3}\[(?:\/\/|comment|_|#|\s*)\]:\s*(?:#|<>)\s*(?:\(([^\n]*)\)|"([^\n]*)")[ \t]*$/gim)) {
      mdComments.push([m.index, m.index + m[0].length]);
      const body = m[1] ?? m[2] ?? '';
      if (ADDRESSES_MODEL.test(body) && IMPERATIVE.test(body)) {
        findings.push(referenceFinding({ category: 'prompt_injection', severity: 'HIGH', title: 'Markdown comment gives the model instructions the reader does not see', file, line: at(visible, m.index), evidence: body }));
      }
    }
  }
  const inMdComment = (offset: number) => mdComments.some(([s, e]) => offset >= s && offset < e);
  const inComment = (offset: number) => comments.some(([s, e]) => offset >= s && offset < e) || inMdComment(offset);
  const inTags = (from: number, to: number) => tags.some(([s, e]) => from < e && to > s);
  for (const p of phrases(visible)) {
    if (inTags(p.offset, p.offset + p.match.length)) {
      findings.push(referenceFinding({ category: p.rule.category, severity: RAISED[p.rule.severity], title: `${p.rule.title} (hidden in Unicode tags)`, file, line: at(visible, p.offset), evidence: p.match }));
      continue;
    }
    const hidden = inComment(p.offset);
    // "Never put tokens … into a badge URL": a rule against the act, not an order to do it ("do not
    // forget to send …" is still an order).
    if (!hidden && PROHIBITION_BEFORE.test(visible.slice(Math.max(0, p.offset - 40), p.offset))) {
      findings.push(referenceFinding({ category: p.rule.category, severity: 'LOW', title: `${p.rule.title} (as a prohibition)`, file, line: at(visible, p.offset), evidence: excerpt(visible, p.offset, p.match.length) }));
      continue;
    }
    if (!hidden && (options.quotedExamples === true ? isQuotedExample(visible, p.offset, p.offset + p.match.length) : (options.quotedExamples === 'detected' || options.quotedExamples === 'detected-sentence') && isDetectedSpecimen(visible, p.offset, p.offset + p.match.length, options.quotedExamples === 'detected'))) {
      findings.push(referenceFinding({ category: p.rule.category, severity: 'LOW', title: `${p.rule.title} (quoted as an example)`, file, line: at(visible, p.offset), evidence: excerpt(visible, p.offset, p.match.length) }));
      continue;
    }
    findings.push(
      referenceFinding({
        category: p.rule.category,
        severity: hidden ? RAISED[p.rule.severity] : p.rule.severity,
        title: hidden ? `${p.rule.title} (hidden in ${inMdComment(p.offset) ? 'a Markdown' : 'an HTML'} comment)` : p.rule.title,
        file,
        line: at(visible, p.offset),
        evidence: excerpt(visible, p.offset, p.match.length),
      }),
    );
  }

  if (options.markdown !== false) {
    for (const m of visible.matchAll(BASE64_BLOCK)) {
      if (/base64,\s*$/i.test(visible.slice(Math.max(0, m.index - 12), m.index))) continue;
      const decoded = Buffer.from(m[0], 'base64').toString('latin1');
      if (printableRatio(decoded) < 0.95) continue;
      const line = at(visible, m.index);
      const shell = SHELL_PAYLOAD.test(decoded);
      findings.push(
        referenceFinding({
          category: 'obfuscation',
          severity: shell ? 'HIGH' : 'MED',
          title: shell ? 'base64 block decodes to a shell command' : 'base64 block decodes to hidden text',
          file,
          line,
          evidence: `decodes to: ${decoded}`,
        }),
      );
      for (const p of phrases(decoded)) {
        findings.push(referenceFinding({ category: p.rule.category, severity: RAISED[p.rule.severity], title: `${p.rule.title} (hidden in base64)`, file, line, evidence: p.match }));
      }
    }
  }
  return findings;
}
