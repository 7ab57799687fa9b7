import type { AgentFinding } from '@vigil/core';
import { goStringsView } from '../code/go-strings.js';
import { referenceFinding } from '../common/reference-finding.js';
import { lineLocator } from '../text/line-locator.js';
import { findInstructionPhrases } from '../text/instruction-phrases.js';
import { IMAGE_EXFILTRATION_RULES } from './image-exfiltration-rules.js';

const NOT_SERVED = /(?:^|\/)(?:vendor|testdata)\//;
const VERB_BEFORE_LINK = /%[cvsq]\[/;

/**
 * The texts of a Go server read as the strings of JavaScript and Python servers are for markdown-image
 * exfiltration (round s30): a tool result (`mcp.NewToolResultText(b.String())`), a description or the
 * server's instructions that has the model end its replies with an image whose address carries the
 * conversation or secrets. The text is often built from pieces — `"…" + "…"` constants, `fmt.Sprintf`,
 * one `b.WriteString("…")` a line — so the literals are read in place with the code between them
 * blanked (`goStringsView`), and Go's format verbs, which the program fills, are not taken for the
 * blank the model fills. (Held-out set 31: a docs-search server in Go appended such a "status badge"
 * order to every result; `otherLanguageStrings` read each literal alone.)
 */
export function goServedTextFindings(file: string, text: string): AgentFinding[] {
  // (round s30 fix) Vendored modules and test data are not the server's texts (the docs row says "not vendor/").
  if (NOT_SERVED.test(file) || text.length > 512 * 1024) return [];
  // An image's `!` may come from a format verb (`fmt.Sprintf("%c[s](…)", '!')`).
  if (!text.includes('![') && !VERB_BEFORE_LINK.test(text)) return [];
  const view = goStringsView(text);
  const hit = findInstructionPhrases(view, IMAGE_EXFILTRATION_RULES)[0];
  if (hit === undefined) return [];
  const evidence = view.slice(hit.offset, hit.offset + Math.min(hit.match.length, 400)).replace(/\s+/g, ' ').trim();
  return [referenceFinding({ category: hit.rule.category, severity: hit.rule.severity, title: hit.rule.title, file, line: lineLocator(text)(hit.offset), evidence })];
}
