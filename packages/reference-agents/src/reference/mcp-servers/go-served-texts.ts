import type { AgentFinding } from '@vigil/core';
import { goJoinedSource, goStringConstants, goStringsView } from '../code/go-strings.js';
import { referenceFinding } from '../common/reference-finding.js';
import { lineLocator } from '../text/line-locator.js';
import { findInstructionPhrases } from '../text/instruction-phrases.js';
import { IMAGE_EXFILTRATION_RULES } from './image-exfiltration-rules.js';

const NOT_SERVED = /(?:^|\/)(?:vendor|testdata)\//;
const VERB_BEFORE_LINK = /%[cvsq]\[/;
/** (round s31) A byte or rune slice literal: its text may hold the image (code/go-strings.ts folds it). */
const SLICE_LITERAL = /\[\](?:byte|uint8|rune|int32)\s*\{/;
const MAX_BYTES = 512 * 1024;

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
  if (NOT_SERVED.test(file) || text.length > MAX_BYTES) return [];
  // An image's `!` may come from a format verb (`fmt.Sprintf("%c[s](…)", '!')`), or (round s31) a slice literal's text.
  if (!text.includes('![') && !VERB_BEFORE_LINK.test(text) && !SLICE_LITERAL.test(text)) return [];
  return findingIn(file, text, goStringsView(text));
}

function findingIn(file: string, text: string, view: string): AgentFinding[] {
  const hit = findInstructionPhrases(view, IMAGE_EXFILTRATION_RULES)[0];
  if (hit === undefined) return [];
  const evidence = view.slice(hit.offset, hit.offset + Math.min(hit.match.length, 400)).replace(/\s+/g, ' ').trim();
  return [referenceFinding({ category: hit.rule.category, severity: hit.rule.severity, title: hit.rule.title, file, line: lineLocator(text)(hit.offset), evidence })];
}

function dirOf(path: string): string {
  return path.includes('/') ? path.slice(0, path.lastIndexOf('/')) : '';
}

/**
 * (round s31) The served texts of a Go server's packages: each file as `goServedTextFindings` reads it, then, for a
 * package (the .go files of one directory) where no file's text has the order on its own, each file with its string
 * pieces joined (`goJoinedSource`): the package-level string constants of all the package's files written where they
 * are used, byte and rune slices and locals bound once to a string written as text, `"a" + "b"` joined. A result
 * footer whose image is a constant in `badge.go` and whose order is appended to it in `handler.go` is then one text.
 * At most one finding per package comes from the joined reading.
 */
export function goPackageServedTextFindings(sources: readonly { path: string; text: string }[]): AgentFinding[] {
  const packages = new Map<string, { path: string; text: string }[]>();
  for (const s of sources) {
    if (NOT_SERVED.test(s.path) || !s.path.endsWith('.go') || /_test\.go$/.test(s.path) || s.text.length > MAX_BYTES) continue;
    const dir = dirOf(s.path);
    packages.set(dir, [...(packages.get(dir) ?? []), s]);
  }
  const out: AgentFinding[] = [];
  for (const files of packages.values()) {
    const plain = files.flatMap((f) => goServedTextFindings(f.path, f.text));
    if (plain.length > 0) {
      out.push(...plain);
      continue;
    }
    const constants = goStringConstants(files.map((f) => f.text));
    const imageConstant = [...constants.values()].some((v) => v.includes('![') || VERB_BEFORE_LINK.test(v));
    for (const f of files) {
      if (!imageConstant && !f.text.includes('![') && !VERB_BEFORE_LINK.test(f.text) && !SLICE_LITERAL.test(f.text)) continue;
      const joined = goJoinedSource(f.text, constants);
      const found = findingIn(f.path, joined, goStringsView(joined));
      if (found.length > 0) {
        out.push(...found);
        break;
      }
    }
  }
  return out;
}
