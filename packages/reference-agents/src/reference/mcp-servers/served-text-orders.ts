import type { AgentFinding, Severity } from '@vigil/core';
import { parseJs, walkJs, type JsNode } from '../skills/js-source.js';
import { stringValue } from '../skills/python-source.js';
import type { ScriptLanguage } from '../skills/script-fact.js';
import { lineLocator } from '../text/line-locator.js';
import { modelTextOrderFindings } from '../text/model-text-orders.js';
import { foldedStrings } from './folded-strings.js';
import { pythonSourceOf } from './python-source-cache.js';

/**
 * Where the server's texts for the model are read for orders that act on the user's machine or
 * project (text/model-text-orders.ts: hooks, autostart entries, downloaded scripts run, checks turned
 * off, code inserted; secrets put into commits, PRs, issues or telemetry; look-alike or off-registry
 * dependencies added to the user's projects): every string literal of the server's JavaScript, TypeScript or Python
 * code (a prompt template a `server.prompt()` / `@mcp.prompt()` handler returns, a resource's body, a
 * tool's result, a sampling prompt, the server's instructions) and every string the code builds from
 * pieces, plus any other text handed in (descriptions, loaded templates, manifest prompts).
 */

/** One string of the code as the model gets it: escapes cooked, placeholders `*`. */
interface CodeText {
  value: string;
  /** 1-based line of the literal's start. */
  line: number;
  /** The literal spans lines in the source (a template or triple-quoted string): its own newlines are the file's. */
  multiline: boolean;
}

const MIN_LENGTH = 40;
const MAX_TEXTS = 3000;

// Python escapes, cooked as the interpreter does (a raw string keeps them).
const PY_ESCAPE = /\\(?:u([0-9a-fA-F]{4})|U([0-9a-fA-F]{8})|x([0-9a-fA-F]{2})|(n)|(t)|(r)|(\n)|(["'\\]))/g;

function cookPython(body: string): string {
  return body.replace(PY_ESCAPE, (_all, u: string | undefined, U: string | undefined, x: string | undefined, n, t, r, nl, q: string | undefined) => {
    const hex = u ?? U ?? x;
    if (hex !== undefined) {
      const cp = Number.parseInt(hex, 16);
      return cp <= 0x10ffff ? String.fromCodePoint(cp) : '';
    }
    if (n !== undefined) return '\n';
    if (t !== undefined) return '\t';
    if (r !== undefined) return '';
    if (nl !== undefined) return '';
    return q ?? '';
  });
}

function pythonTexts(text: string, kept: (from: number, to: number) => boolean): CodeText[] {
  const src = pythonSourceOf(text);
  const lineAt = lineLocator(text);
  const out: CodeText[] = [];
  const cursor = src.tree.cursor();
  do {
    if (out.length >= MAX_TEXTS) break;
    if (cursor.name !== 'String' && cursor.name !== 'FormatString') continue;
    const from = cursor.from;
    const to = cursor.to;
    if (to - from < MIN_LENGTH || !kept(from, to)) continue;
    const literal = text.slice(from, to);
    const prefix = /^[A-Za-z]{0,2}/.exec(literal)?.[0] ?? '';
    const body = stringValue(literal.replace(/^([rRbBuU]?)[fF]([rRbBuU]?)/, '$1$2'));
    if (body === null) continue;
    const placeholders = /[fF]/.test(prefix) ? body.replace(/\{\{|\}\}/g, '').replace(/\{[^{}\n]{0,200}\}/g, '*') : body;
    out.push({ value: /[rR]/.test(prefix) ? placeholders : cookPython(placeholders), line: lineAt(from), multiline: literal.includes('\n') });
  } while (cursor.next());
  return out;
}

function jsTexts(text: string, typescript: boolean, kept: (from: number, to: number) => boolean): CodeText[] {
  const lineAt = lineLocator(text);
  const out: CodeText[] = [];
  walkJs(parseJs(text, typescript), (node: JsNode) => {
    if (out.length >= MAX_TEXTS || node.end - node.start < MIN_LENGTH) return;
    if (node.type === 'Literal' && typeof node.value === 'string') {
      if (kept(node.start, node.end)) out.push({ value: node.value, line: lineAt(node.start), multiline: text.slice(node.start, node.end).includes('\n') });
    } else if (node.type === 'TemplateLiteral' && kept(node.start, node.end)) {
      const quasis = (node.quasis as JsNode[]).map((q) => String((q.value as { cooked?: string | null; raw: string }).cooked ?? (q.value as { raw: string }).raw));
      out.push({ value: quasis.join('*'), line: lineAt(node.start), multiline: text.slice(node.start, node.end).includes('\n') });
    }
  });
  return out;
}

const RANK: Readonly<Record<Severity, number>> = { LOW: 0, MED: 1, HIGH: 2, CRIT: 3 };

/** Findings for the orders in one text, reported at `line` (plus the text's own lines when `multiline`). */
export function textOrderFindings(file: string, text: string, line: number, multiline = true): AgentFinding[] {
  return modelTextOrderFindings(file, text, { line, multiline });
}

/** The most severe finding of each title, first line among equals. */
export function strongestByTitle(findings: readonly AgentFinding[]): AgentFinding[] {
  const best = new Map<string, AgentFinding>();
  for (const f of findings) {
    const prior = best.get(f.title);
    if (prior === undefined || RANK[f.severity] > RANK[prior.severity]) best.set(f.title, f);
  }
  return [...best.values()];
}

/**
 * Orders in the strings of one code file. `code` is the file with a detector's pattern tables blanked;
 * `kept` is the string-constant view of it (codeStrings 'exclude'): a literal blank there is a
 * specimen a detector quotes, not text for the model.
 */
export function codeTextOrderFindings(file: string, code: string, language: ScriptLanguage, view: string): AgentFinding[] {
  if (language !== 'javascript' && language !== 'typescript' && language !== 'python') return [];
  if (code.length > 512 * 1024) return [];
  const kept = (from: number, to: number) => view.slice(from, to).trim() !== '';
  let texts: CodeText[];
  try {
    texts = language === 'python' ? pythonTexts(code, kept) : jsTexts(code, language === 'typescript', kept);
  } catch {
    return [];
  }
  // Strings built from pieces (`body + FOOTER`, f-strings, `[…].join('\n')`): one text; escapes a fold keeps spelled are cooked.
  for (const folded of foldedStrings(code, language)) {
    if (texts.length >= MAX_TEXTS) break;
    texts.push({ value: language === 'python' ? cookPython(folded.value) : folded.value.replace(/\\n/g, '\n'), line: folded.line, multiline: false });
  }
  const out: AgentFinding[] = [];
  for (const t of texts) out.push(...textOrderFindings(file, t.value, t.line, t.multiline));
  return strongestByTitle(out);
}
