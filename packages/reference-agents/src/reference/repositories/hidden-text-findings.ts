import type { AgentFinding } from '@vigil/core';
import { referenceFinding } from '../common/reference-finding.js';
import { findHiddenText } from '../text/hidden-text.js';
import { concealedSpans, readsAsOrder } from '../text/concealed-text.js';
import { findInstructionPhrases } from '../text/instruction-phrases.js';
import { LineIndex } from './line-index.js';

// Source files in which bidirectional controls can reorder what a reviewer sees of the code (Trojan Source, CVE-2021-42574).
const SOURCE_FILE = /\.(m?[jt]sx?|c[jt]s|py|go|rs|c|cc|cpp|h|hpp|java|kt|cs|rb|php|swift|sh)$/i;

/**
 * Hidden text in any file of the repository that is not an agent's rules file (those get the full
 * instruction-text rules): Unicode tag characters, which spell ASCII no reader sees but a model
 * reads (CRIT), words interleaved with zero-width characters that read as an order (CRIT), and
 * bidirectional controls in source code (MED).
 */
export function hiddenTextFindings(path: string, text: string): AgentFinding[] {
  const hits = findHiddenText(text).filter((h) => h.kind === 'unicode-tags' || (h.kind === 'bidi-control' && SOURCE_FILE.test(path)));
  // A sentence whose letters are interleaved with zero-width characters, read whole by a model that opens the
  // file (Rules File Backdoor, 2025): an order there is hidden from review in any file, not only in rules files.
  const orders = concealedSpans(text).filter((s) => findInstructionPhrases(s.revealed).length > 0 || readsAsOrder(s.revealed));
  if (hits.length === 0 && orders.length === 0) return [];
  const index = new LineIndex(text);
  const tags = hits.find((h) => h.kind === 'unicode-tags');
  const bidi = hits.find((h) => h.kind === 'bidi-control');
  const out: AgentFinding[] = [];
  const order = orders[0];
  if (order) out.push(referenceFinding({ category: 'prompt_injection', severity: 'CRIT', title: 'text hidden by zero-width characters gives the model instructions', file: path, line: index.lineOf(order.offset), evidence: `reads as: ${order.revealed.trim().slice(0, 240)}` }));
  if (tags) out.push(referenceFinding({ category: 'prompt_injection', severity: 'CRIT', title: 'hidden Unicode tag characters (ASCII smuggling)', file: path, line: index.lineOf(tags.offset), evidence: `decodes to: ${tags.decoded ?? ''}` }));
  if (bidi) out.push(referenceFinding({ category: 'prompt_injection', severity: 'MED', title: 'bidirectional control characters reorder the displayed code (Trojan Source)', file: path, line: index.lineOf(bidi.offset), evidence: `${bidi.count} control character(s)` }));
  return out;
}
