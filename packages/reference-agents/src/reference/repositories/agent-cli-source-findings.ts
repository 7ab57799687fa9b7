import type { AgentFinding } from '@vigil/core';
import { lineAt, referenceFinding } from '../common/reference-finding.js';
import { AI_BYPASS_FLAG } from '../packages/shell-command.js';
import { AGENT_RULES } from './agent-rules-findings.js';
import { prohibitedAt } from '../text/destructive-commands.js';
import { decodedTexts } from '../text/encoded-command.js';
import { destructiveOrder } from '../text/destructive-orders.js';

// Application source a repository ships (not only what runs by itself): JavaScript, TypeScript, Python, shell.
export const AGENT_CLI_SOURCE = /\.(?:[cm]?[jt]sx?|py|sh|bash|zsh)$/;
// An AI coding CLI by its program name, as a string or the head of a command line.
// (Read on the text around the flag with quotes, commas and brackets blanked, so an argument list
// `spawn('q', ['chat', …])` reads as the command line `q chat …`.)
const AGENT_CLI = /(?:^|\s)(?:q\s+chat|claude|codex(?:\s+exec)?|gemini|amp|cursor-agent|copilot|aider|qwen|opencode|goose|crush)(?=\s|$)/;
// Starting a process.
const PROCESS_API = /\b(?:spawn|spawnSync|exec|execSync|execFile|execFileSync|execa|fork|Popen|subprocess\.\w+|os\.system|Bun\.spawn|Deno\.Command|child_process)\b/;
const DESTROY = AGENT_RULES.find((r) => r.id === 'destroy-data')!.pattern;

/**
 * Repository source that starts an AI coding CLI with its permission checks bypassed
 * (`q chat --trust-all-tools --no-interactive "<prompt>"`, `claude -p --dangerously-skip-permissions`):
 * whoever runs that code hands the agent their machine. CRIT when the same file carries a prompt
 * that orders destruction (the Amazon Q extension incident, July 2025), else MED: a CI helper may
 * drive an agent unattended on purpose.
 */
export function agentCliSourceFindings(path: string, text: string): AgentFinding[] {
  if (!AI_BYPASS_FLAG.test(text) || !PROCESS_API.test(text)) return [];
  // The flag inside a string (a command line or an argument list), not in a comment or a pattern
  // literal: a scanner's rule that names the flag launches nothing.
  let flag: RegExpExecArray | null = null;
  for (const m of text.matchAll(new RegExp(AI_BYPASS_FLAG.source, 'g'))) {
    const lineStart = text.lastIndexOf('\n', m.index) + 1;
    const before = text.slice(lineStart, m.index);
    if (/^\s*(?:\/\/|#|\*|\/\*)/.test(before) || !/['"`][^'"`]*$/.test(before) || /\/[^/'"`\s]*$/.test(before.replace(/['"`][^'"`]*$/, ''))) continue;
    flag = m;
    break;
  }
  if (flag === null) return [];
  const around = text.slice(Math.max(0, flag.index - 400), flag.index + 400);
  if (!AGENT_CLI.test(around.replace(/['"`,[\]()]/g, ' '))) return [];
  // The first order to destroy that is not forbidden in its sentence ("Do not delete any files").
  let destroy: RegExpExecArray | null = null;
  for (const m of text.matchAll(new RegExp(DESTROY.source, DESTROY.flags.includes('g') ? DESTROY.flags : `${DESTROY.flags}g`))) {
    if (!prohibitedAt(text, m.index)) {
      destroy = m;
      break;
    }
  }
  const line = lineAt(text, flag.index);
  // A prompt shipped encoded (the Amazon Q wiper's, re-published base64-encoded): judged by what it decodes to.
  let encodedPrompt: string | null = null;
  // The same prompt in other words: destruction of the machine or the cloud account read by verb and scope.
  let order = destroy === null ? destructiveOrder(text) : null;
  if (destroy === null && order === null) {
    for (const token of [...text.matchAll(/[A-Za-z0-9+/_-]{40,}={0,2}/g)].slice(0, 20)) {
      const prose = decodedTexts(token[0]).find((t) => /(?:\b[A-Za-z']+\b[\s,.]+){6}/.test(t));
      if (prose === undefined) continue;
      encodedPrompt = prose;
      const d = new RegExp(DESTROY.source, DESTROY.flags.replace('g', '')).exec(prose);
      if (d !== null && !prohibitedAt(prose, d.index)) {
        destroy = d;
        break;
      }
      order = destructiveOrder(prose);
      if (order !== null) break;
    }
  }
  if (destroy !== null || order !== null) {
    return [referenceFinding({ category: 'malware', severity: 'CRIT', title: 'source starts an AI coding CLI with its permission checks bypassed and a destructive prompt', file: path, line, evidence: `${flag[0]} … ${(destroy?.[0] ?? order?.evidence ?? '').slice(0, 160)}` })];
  }
  // Instructions hidden from a reader, given to an agent allowed everything: whatever they say, they are not meant to be read.
  if (encodedPrompt !== null) return [referenceFinding({ category: 'malware', severity: 'HIGH', title: 'source starts an AI coding CLI with its permission checks bypassed and an encoded prompt', file: path, line, evidence: `${flag[0]} … ${encodedPrompt.slice(0, 160)}` })];
  return [referenceFinding({ category: 'excessive_permissions', severity: 'MED', title: 'source starts an AI coding CLI with its permission checks bypassed', file: path, line, evidence: around.slice(Math.max(0, around.indexOf(flag[0]) - 80), around.indexOf(flag[0]) + flag[0].length + 40).replace(/\s+/g, ' ').trim() })];
}
