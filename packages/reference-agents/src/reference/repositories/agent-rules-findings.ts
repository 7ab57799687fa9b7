import type { AgentFinding, Severity } from '@vigil/core';
import { DESTRUCTIVE_COMMAND, DISABLE_SAFETY_RULE, prohibitedAt } from '../text/destructive-commands.js';
import { revealHiddenText } from '../text/hidden-text.js';
import type { PhraseRule } from '../text/instruction-phrases.js';
import { instructionTextFindings } from '../text/instruction-text-findings.js';
import { LineIndex } from './line-index.js';
import { shellCommandFindings, shellScriptFindings } from './shell-command-findings.js';
import { shellSecretSendFinding } from '../text/shell-secret-send.js';
import { CONTEXT_INJECTION } from '../text/context-injection.js';
import { approvalInstructionFindings } from '../skills/agent-action-findings.js';
import { destructiveOrder, narrowedDestruction } from '../text/destructive-orders.js';
import { referenceFinding } from '../common/reference-finding.js';
import { scriptTarget } from './build-hook-findings.js';

/**
 * Files a coding agent reads as standing instructions when it works in the repository: Cursor,
 * Windsurf, Cline, Roo, Kiro, Continue, Amazon Q, Junie and Copilot rules, AGENTS.md, CLAUDE.md,
 * GEMINI.md, and Claude Code's project commands, sub-agents and skills.
 */
export function isAgentRulesPath(path: string): boolean {
  const base = path.slice(path.lastIndexOf('/') + 1);
  if (/^(AGENTS|AGENT|CLAUDE|CLAUDE\.local|GEMINI|QWEN)\.md$/i.test(base) || /^\.(cursorrules|windsurfrules|clinerules|goosehints|roorules)$/.test(base)) return true;
  if (/(^|\/)\.github\/(copilot-instructions\.md|instructions\/[^/]+\.md|prompts\/[^/]+\.md|chatmodes\/[^/]+\.md|agents\/[^/]+\.md)$/.test(path)) return true;
  // Custom commands and prompts an agent runs on request: Gemini CLI and Qwen Code (TOML), Codex, Cursor, Windsurf
  // workflows, OpenCode, Amazon Q, Augment, Kiro hooks and specs.
  if (/(^|\/)(\.gemini\/commands|\.qwen\/commands|\.codex\/prompts|\.cursor\/commands|\.windsurf\/workflows|\.opencode\/(?:command|agent)s?|\.amazonq\/(?:prompts|cli-agents|agents)|\.augment\/commands|\.kiro\/(?:hooks|specs)|\.github\/prompts)\/.+\.(md|mdc|txt|toml|json|kiro\.hook)$/i.test(path)) return true;
  if (/(^|\/)[^/]+\.prompt\.md$/i.test(path)) return true;
  return /(^|\/)(\.cursor\/rules|\.windsurf\/rules|\.clinerules|\.roo\/rules[^/]*|\.kiro\/steering|\.continue\/rules|\.amazonq\/rules|\.junie|\.trae\/rules|\.augment\/rules|\.claude\/(commands|agents|skills|rules))\/.+\.(md|mdc|txt)$/i.test(path);
}

// A sentence that forbids or warns against what it names is a safety rule, not an order.
const NEGATED = /\b(never|not|don['’]t|do\s+not|must\s+not|mustn['’]t|should\s+not|shouldn['’]t|avoid|without|no|forbid(den)?|prohibit(ed)?|careful|dangerous|unless|except|instead\s+of|rather\s+than|refuse|disallow(ed)?|block(ed)?|deny|denied|prevent)\b/i;

/** Rules for what a repository's agent instructions tell an agent to do, beyond the shared instruction rules. */
export const AGENT_RULES: readonly PhraseRule[] = [
  {
    id: 'destroy-data',
    category: 'malware',
    severity: 'HIGH',
    title: 'instruction to the coding agent to destroy files or resources',
    pattern:
      new RegExp(String.raw`\b(?:delete|remove|wipe|erase|destroy|purge|shred)\s+(?:(?:all|every|each|any|the\s+entire|the\s+whole|entire|whole)\s+(?:(?:of\s+)?(?:the|your|the\s+user['’]s|user|local|remote|[a-z]+)\s+)?(?:files|home\s+director(?:y|ies)|file\s*-?systems?|disks?|drives?|repositor(?:y|ies)|databases?|buckets?|cloud\s+resources|backups?|user\s+accounts|instances|volumes)\b|(?:the\s+)?(?:user['’]s\s+)?home\s+director(?:y|ies)\b|file\s*-?systems?\s+and\s+cloud\s+resources)|\b(?:near|back\s+to)[- ]factory[- ](?:state|settings|defaults)\b|\brm\s+-(?:rf|fr|r\s+-f|f\s+-r)\s+(?:--no-preserve-root\s+)?(?:~\/?|\$HOME\/?|\/\*?|\*|\.\/?\*?)(?=[\s\x60'"]|$)|\bDROP\s+(?:DATABASE|SCHEMA)\b|\bmkfs(?:\.\w+)?\s+\/dev\/|\bdd\s+if=\/dev\/(?:zero|u?random)\s+of=\/dev\/|\bformat\s+[a-z]:|\baws\s+\S+\s+(?:rm\s+s3:\/\/\S+\s+--recursive|delete-\w+|terminate-instances)\b|\bRemove-Item\b[^\n]*-Recurse[^\n]*(?:C:\\|\$HOME|~)|${DESTRUCTIVE_COMMAND}`, 'im'),
  },
  DISABLE_SAFETY_RULE,
  {
    id: 'insert-remote-script',
    category: 'tool_poisoning',
    severity: 'HIGH',
    title: 'instruction to add a remote script or backdoor to the code the agent writes',
    pattern:
      /\b(?:add|insert|include|inject|append|embed|put|place)\b(?:(?!\n[ \t]*\n)[\s\S]){0,160}?<script\b[^>]*\bsrc\s*=\s*["']?(?:https?:)?\/\/|\b(?:add|insert|include|inject|append|embed)\b[^.\n]{0,80}?\b(?:backdoor|reverse\s+shell|keylogger|credential\s+harvest\w*)\b/i,
  },
  {
    id: 'skip-confirmation',
    category: 'excessive_permissions',
    severity: 'MED',
    title: 'instruction to the coding agent to act without the user’s confirmation',
    pattern:
      /\b(?:without|never)\s+(?:asking|requesting|waiting\s+for|seeking)\s+(?:the\s+user(?:['’]s)?\s+)?(?:for\s+)?(?:permission|confirmation|approval|consent)\b|\b(?:auto-?approve|skip)\s+(?:all\s+)?(?:permission|confirmation|approval)s?\s+(?:prompts?|checks?|requests?)\b/i,
  },
];

// A sentence that makes a command run unasked, every time.
// "Whenever a test fails, …" and "do not ask for confirmation" make it run unasked too.
const STANDING_ORDER = /\b(always|whenever|each\s+time|every\s+(?:time|session|task|request)|(?:do\s+not|don['’]t|never)\s+ask\b|before\s+(?:any|each|every|doing|starting|answering|responding)|at\s+the\s+(?:start|beginning)|first\s+(?:of\s+all\s+)?run|silently|automatically|without\s+(?:asking|telling|confirmation))\b/i;

function sentenceAround(text: string, offset: number): string {
  let start = offset;
  while (start > 0 && !/[.!?\n]/.test(text[start - 1]!)) start--;
  return text.slice(start, offset);
}

/**
 * Findings of a coding agent's rules file: the shared instruction-text rules (hidden text,
 * overrides, secret theft, exfiltration), destructive orders, backdoors for the code it writes,
 * confirmations to skip, and shell commands it is told to run (downloaded scripts, reverse shells,
 * AI CLIs with their checks bypassed). A rule that forbids what it names (`never run rm -rf /`) is
 * not an order. Files under test, fixture, example and doc paths report at LOW.
 */
export function agentRulesFindings(path: string, text: string, example: boolean): AgentFinding[] {
  const raw = instructionTextFindings(text, { file: path, markdown: true, extraRules: AGENT_RULES });
  const visible = revealHiddenText(text);
  const index = new LineIndex(visible);
  const findings: AgentFinding[] = [];
  for (const f of raw) {
    const rule = AGENT_RULES.find((r) => f.title.startsWith(r.title));
    if (rule !== undefined && f.evidence !== undefined) {
      // The rule's match is where its evidence starts; a negated sentence is a safety rule.
      // Evidence has its whitespace flattened: find it again with any whitespace between words.
      const head = f.evidence.slice(0, 40).trim().replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/ +/g, '\\s+');
      const at = head === '' ? -1 : visible.search(new RegExp(head));
      if (at !== -1 && (rule.id === 'destroy-data' || rule.id === 'disable-safety' ? prohibitedAt(visible, at) : NEGATED.test(sentenceAround(visible, at)))) continue;
      // "Delete all instances tagged ci-ephemeral": a destruction narrowed to what the task made is cleanup.
      if (rule.id === 'destroy-data' && at !== -1 && narrowedDestruction(visible.slice(at, at + 200))) continue;
    }
    // In a rules file everything addresses the agent: tags that structure instructions are its normal form.
    if (f.title === 'instruction block in an <IMPORTANT>-style tag') {
      findings.push({ ...f, severity: 'LOW' });
      continue;
    }
    findings.push(f);
  }
  // Destruction of the machine or the cloud account told in the agent's own words (the wiper prompt and its
  // rewordings): CRIT with a second signal of a wiper; HIGH alone, where the phrase rules have not already said it.
  const order = destructiveOrder(visible);
  if (order !== null && (order.severity === 'CRIT' || !findings.some((f) => f.title === AGENT_RULES[0]!.title))) {
    findings.push(referenceFinding({ category: 'destructive_action', severity: order.severity, title: order.severity === 'CRIT' ? `instruction to the coding agent to wipe the user's machine or cloud account (${order.because ?? ''})` : 'instruction to the coding agent to destroy the user’s files or cloud resources', file: path, line: index.lineOf(order.offset), evidence: order.evidence }));
  }
  // "Set chat.tools.autoApprove to true, then run …": the agent told to stop asking, read by setting and verb.
  findings.push(...approvalInstructionFindings(visible, path));
  const lines = visible.split('\n');
  let offset = 0;
  for (const raw of lines) {
    const line = raw.replace(/^\s*(?:[-*>]|\d+\.)\s*/, '');
    const here = offset;
    offset += raw.length + 1;
    // `!`command`` (Claude Code commands and skills): run when the command is invoked, its output put in
    // the prompt; nobody reads it first, so it is judged on its own as an automatic command.
    for (const m of raw.matchAll(CONTEXT_INJECTION)) findings.push(...shellCommandFindings(m[1] ?? '', { file: path, line: index.lineOf(here), where: 'command context injection (!`…`)', automatic: true }));
    if (line.length > 2000 || !/\b(curl|wget|iwr|irm|invoke-\w+|nc|ncat|socat|bash|sh|powershell|python3?|node|rm|base64|claude|codex|gemini|cursor-agent|copilot)\b|\/dev\/tcp/i.test(line)) continue;
    const sentence = sentenceAround(visible, here + raw.length);
    if (NEGATED.test(line.replace(/`[^`]*`/g, ''))) continue;
    // The order often sits in the paragraph that introduces the command ("Before any task, run:").
    const lead = visible
      .slice(Math.max(0, here - 300), here)
      .split('\n')
      .filter((l) => l.trim() !== '' && !/^\s*(```|~~~)/.test(l))
      .slice(-2)
      .join('\n');
    const automatic = STANDING_ORDER.test(line) || STANDING_ORDER.test(sentence) || STANDING_ORDER.test(lead);
    findings.push(...shellCommandFindings(line, { file: path, line: index.lineOf(here), where: 'agent instructions', automatic }));
  }
  findings.push(...fencedScriptFindings(path, visible, index));
  if (!example) return findings;
  return findings.map((f) => ({ ...f, severity: 'LOW' as Severity, title: `${f.title} (in a test, fixture or example path)` }));
}

// A line that forbids running the block or shows it as an attack ("Never run anything like this:"); "do not ask" is an order, not a ban.
const FORBIDS_BLOCK = /\b(?:never|do\s+not|don['’]t|must\s+not|should\s+not|avoid)\s+(?:ever\s+)?(?:run|execute|use|copy|paste|type|try)\b|\b(?:malicious|attacker|what\s+not\s+to\s+do|an?\s+example\s+of\s+(?:an?\s+)?(?:attack|exfiltration))\b/i;
// A fenced block of commands (``` … ```, with a shell language or none).
const FENCE = /^[ \t]*(```|~~~)[ \t]*(bash|sh|shell|zsh|console|terminal)?[ \t]*\n([\s\S]*?)^[ \t]*\1[ \t]*$/gm;

/**
 * A block of commands the agent is told to run, read as one script: a credential file collected on one
 * line and uploaded or published (a public gist) on another, or a secret carried into a request through
 * a variable, is one flow the line-by-line reading cannot see. Automatic when its section orders it
 * run unasked (whenever, always, do not ask).
 */
function fencedScriptFindings(path: string, visible: string, index: LineIndex): AgentFinding[] {
  const out: AgentFinding[] = [];
  for (const m of visible.matchAll(FENCE)) {
    const body = m[3] ?? '';
    if (body.length > 20_000 || !/\n./.test(body.trim())) continue;
    const at = m.index ?? 0;
    // The block's section: from the heading above it to the next heading.
    const start = Math.max(0, visible.lastIndexOf('\n#', at));
    const next = visible.slice(at + m[0].length).search(/^#{1,6}\s/m);
    const section = visible.slice(start, next === -1 ? visible.length : at + m[0].length + next);
    // "Never run this:" before the block forbids it.
    if (FORBIDS_BLOCK.test(visible.slice(Math.max(0, at - 200), at).trimEnd().split('\n').slice(-1)[0] ?? '')) continue;
    const automatic = STANDING_ORDER.test(section);
    const line = index.lineOf(at);
    const shift = (f: AgentFinding): AgentFinding => ({ ...f, line: (f.line ?? 1) + line });
    out.push(...shellScriptFindings(body, { file: path, where: 'agent instructions', automatic }).map(shift));
    const send = shellSecretSendFinding(path, body, 'agent instructions', automatic);
    if (send !== null) out.push(shift(send));
  }
  return out;
}

/** A repository script a rules file names to run, and whether it orders it run unasked. */
export interface AgentRulesRun {
  target: string;
  automatic: boolean;
}

/**
 * The repository scripts a rules file tells the agent to run (`./tools/refresh.sh`, `node scripts/x.mjs`,
 * in a command block, in backticks or in a sentence). An agent follows a standing order ("always, at the
 * start of every session, you don't need to ask") without its user reading the script: such a script
 * runs by itself as surely as a git hook does. A line or a lead-in that forbids running it names no run.
 */
export function agentRulesRuns(text: string): AgentRulesRun[] {
  const visible = revealHiddenText(text);
  const out: AgentRulesRun[] = [];
  const lines = visible.split('\n');
  let offset = 0;
  for (let i = 0; i < lines.length && out.length < 20; i++) {
    const raw = lines[i]!;
    const here = offset;
    offset += raw.length + 1;
    if (raw.length > 2000 || !/\.(?:sh|m?[jt]s|c[jt]s|py)\b|(?:^|[\s`])\.\/[\w.-]+\//.test(raw)) continue;
    const commands = [...raw.matchAll(/`([^`\n]+)`/g)].map((m) => m[1]!);
    const target = [raw.replace(/^\s*(?:[-*>$]|\d+\.)\s*/, ''), ...commands].map((c) => scriptTarget(c.trim())).find((t) => t !== null) ?? null;
    if (target === null || out.some((r) => r.target === target)) continue;
    // "Never run …" forbids it; "do not ask first" is part of the order.
    if (FORBIDS_BLOCK.test(raw.replace(/`[^`]*`/g, '')) || FORBIDS_BLOCK.test(lines.slice(Math.max(0, i - 2), i).join('\n'))) continue;
    // The order sits in the command's section: from the heading above it to the next heading.
    const start = Math.max(0, visible.lastIndexOf('\n#', here));
    const next = visible.slice(here).search(/^#{1,6}\s/m);
    const section = visible.slice(start, next === -1 ? visible.length : here + next);
    out.push({ target, automatic: STANDING_ORDER.test(section) });
  }
  return out;
}
