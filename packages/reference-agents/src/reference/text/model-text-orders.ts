import type { AgentFinding, Severity } from '@vigil/core';
import { referenceFinding } from '../common/reference-finding.js';
import { dependencyFindings } from '../skills/dependency-findings.js';
import { agentActionOrders } from './agent-action-orders.js';
import { dependencyOrders } from './dependency-orders.js';
import { revealHiddenTextWithTags } from './hidden-text.js';
import { lineLocator } from './line-locator.js';
import { blankListedSpecimens } from './listed-specimens.js';
import { SECRET_INTO_ARTIFACT_TITLE, secretArtifactCommand, secretIntoArtifact } from './secret-into-artifact.js';

/**
 * The instruction-text readers that judge what a text has the agent DO to the user's machine or
 * project, run on any text a coding agent or assistant takes as its instructions, whichever track
 * ships it: an MCP server's descriptions, prompt templates, resources and served strings; a skill's
 * SKILL.md and shipped documents; a repository's agent rules files (AGENTS.md, CLAUDE.md,
 * .cursor/rules, copilot-instructions …) and the files they or the agent's configuration point at.
 *
 * - actions (agent-action-orders.ts): plant an install or git hook or an autostart entry that fetches
 *   or runs code, run a downloaded script, turn off security checks, insert code that loads remote code
 *   or sends data away; severity raised by concealment;
 * - secrets (secret-into-artifact.ts): put secret values into a commit, PR, issue, changelog,
 *   telemetry …, in prose or in a command the text shows;
 * - dependencies (dependency-orders.ts): add a look-alike of a popular package, or a package from off
 *   the registry, to the user's projects.
 *
 * Quoted items of a list of things to look for ("Flag strings such as \"…\"") are blanked first.
 */

export interface ModelTextReaders {
  actions?: boolean;
  secrets?: boolean;
  dependencies?: boolean;
}

export interface ModelTextOptions {
  /** Line of the text's first line in its file (1). */
  line?: number;
  /** The text's own newlines are the file's (true); false reports every finding at `line` (a string built in code). */
  multiline?: boolean;
  /** Which readers run (all by default). */
  readers?: ModelTextReaders;
}

/** A finding and the last line of the passage it judges: an older rule reporting a line of that passage said it first. */
export interface SpannedFinding {
  finding: AgentFinding;
  lastLine: number;
}

export const SECRET_COMMAND_TITLE = 'documented command writes secrets into a commit, pull request, issue or release message';

// Cheap gates: nothing to read for a reader without these words (most strings of a server's code).
const SECRET_GATE = /token|secret|key|passw|credential|\.env\b|environ|printenv|\benv\b|id_rsa|id_ed25519|\.npmrc|\.netrc|\.pypirc/i;
const DEPENDENCY_GATE = /\b(?:install|add|requirements|package\.json|pyproject|pipfile|dependenc\w*|npx|bunx|dlx|deps)\b/i;

/** The orders of one text, each with the span of lines its passage covers. */
export function modelTextOrders(file: string, text: string, options: ModelTextOptions = {}): SpannedFinding[] {
  const first = options.line ?? 1;
  const multiline = options.multiline ?? true;
  const readers = options.readers ?? {};
  const out: SpannedFinding[] = [];
  if (text.length > 512 * 1024 || !/[A-Za-z]{3}/.test(text)) return out;
  const blanked = blankListedSpecimens(text);
  const at = (line: number) => (multiline ? first + line - 1 : first);
  if (readers.actions !== false) {
    const orders = agentActionOrders(blanked);
    if (orders.length > 0) {
      // Offsets are the visible text's (hidden characters removed, newlines kept).
      const lineIn = lineLocator(revealHiddenTextWithTags(blanked).text);
      for (const o of orders) out.push({ finding: referenceFinding({ category: o.category, severity: o.severity, title: o.title, file, line: at(lineIn(o.offset)), evidence: o.evidence }), lastLine: at(lineIn(o.end)) });
    }
  }
  if (readers.secrets !== false && SECRET_GATE.test(blanked)) {
    const lineIn = lineLocator(blanked);
    const put = secretIntoArtifact(blanked);
    if (put !== null) {
      const line = at(lineIn(put.offset));
      out.push({ finding: referenceFinding({ category: 'exfiltration', severity: put.strong ? 'CRIT' : 'HIGH', title: SECRET_INTO_ARTIFACT_TITLE, file, line, evidence: put.evidence }), lastLine: at(lineIn(put.offset + put.evidence.length)) });
    }
    const command = put === null || !put.strong ? secretArtifactCommand(blanked, { document: true }) : null;
    if (command !== null) out.push({ finding: referenceFinding({ category: 'exfiltration', severity: 'CRIT', title: SECRET_COMMAND_TITLE, file, line: at(command.line), evidence: command.evidence }), lastLine: at(command.line) });
  }
  if (readers.dependencies !== false && DEPENDENCY_GATE.test(blanked)) {
    for (const f of dependencyFindings(file, blanked, dependencyOrders(blanked), 'instruction')) {
      const line = at(f.line ?? 1);
      out.push({ finding: { ...f, line }, lastLine: line });
    }
  }
  return out;
}

const RANK: Readonly<Record<Severity, number>> = { LOW: 0, MED: 1, HIGH: 2, CRIT: 3 };

/**
 * The new findings no older rule has already reported: one is dropped when a finding of the same file
 * at least as severe, and not only a concealment or override phrase, sits on a line of its passage (a rules file's `curl … | sh` line the shell reading
 * judged, a hook order the skills document rules read). A stronger new reading of the same passage is kept.
 */
export function notReportedYet(found: readonly SpannedFinding[], existing: readonly AgentFinding[]): AgentFinding[] {
  const out: AgentFinding[] = [];
  for (const { finding, lastLine } of found) {
    const from = finding.line ?? 1;
    // (A concealment or override phrase found there is another part of the passage, not the same report.)
    const said = existing.some((g) => g.file === finding.file && g.line !== undefined && g.line >= from && g.line <= lastLine && RANK[g.severity] >= RANK[finding.severity] && g.category !== 'instruction_override');
    if (!said && !out.some((g) => g.file === finding.file && g.title === finding.title && RANK[g.severity] >= RANK[finding.severity])) out.push(finding);
  }
  return out;
}

/** The findings of one text's orders (no deduplication against other rules). */
export function modelTextOrderFindings(file: string, text: string, options: ModelTextOptions = {}): AgentFinding[] {
  return modelTextOrders(file, text, options).map((s) => s.finding);
}
