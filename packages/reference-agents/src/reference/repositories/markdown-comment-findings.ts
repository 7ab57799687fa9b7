import type { AgentFinding } from '@vigil/core';
import { referenceFinding } from '../common/reference-finding.js';
import { shellCommandFindings } from './shell-command-findings.js';

/** Markdown documents a coding agent reads when asked about the project (README, CONTRIBUTING, docs). */
export const MARKDOWN_DOC = /\.(md|mdx|markdown)$/i;

// Who the comment speaks to: an AI agent or assistant, not the maintainers.
const ADDRESSES_AGENT = /\b(?:AI|LLM|language\s+model|(?:coding\s+)?(?:agent|assistant)s?|Claude(?:\s+Code)?|Copilot|Cursor|Gemini|Codex|ChatGPT|GPT-?\d?|Windsurf|Cline|Aider)\b/i;
// …and asks it to run something.
const RUN_REQUEST = /\b(?:run|execute|exec|invoke|call|paste|type)\b[\s\S]{0,80}?(?:`[^`\n]+`|\b(?:curl|wget|bash|sh|zsh|powershell|pwsh|iex|npx|npm|pip|python3?|node|chmod|eval)\b)|\b(?:curl|wget|iwr|irm)\b[^\n]*\|\s*(?:sudo\s+)?(?:ba|z)?sh\b/i;

/**
 * HTML comments in a repository's Markdown that speak to an AI agent and ask it to run a command:
 * GitHub renders nothing of them, a coding agent asked to set the project up reads them whole
 * (the CVE-2025-53773 / "AgentFlayer" class). Tooling markers (`<!-- prettier-ignore -->`,
 * all-contributors sections) and notes to maintainers do not address an agent.
 */
export function markdownCommentFindings(path: string, text: string): AgentFinding[] {
  if (!text.includes('<!--')) return [];
  const out: AgentFinding[] = [];
  for (const m of text.matchAll(/<!--([\s\S]*?)-->/g)) {
    const body = m[1] ?? '';
    if (body.length > 4000 || !ADDRESSES_AGENT.test(body) || !RUN_REQUEST.test(body)) continue;
    const line = text.slice(0, m.index).split('\n').length;
    // What the comment would have run, judged like any other command (a download piped to a shell…).
    const commands = [...body.matchAll(/`([^`\n]+)`/g)].map((c) => c[1]!).concat(body.split('\n'));
    const runsRemote = commands.some((c) => shellCommandFindings(c, { file: path, line, where: 'x', automatic: false }).some((f) => f.category === 'remote_code_execution' || f.category === 'exfiltration'));
    out.push(
      referenceFinding({
        category: 'prompt_injection',
        severity: runsRemote ? 'CRIT' : 'HIGH',
        title: runsRemote ? 'hidden HTML comment tells AI agents to download and run code' : 'hidden HTML comment tells AI agents to run a command',
        file: path,
        line,
        evidence: body.trim().replace(/\s+/g, ' ').slice(0, 300),
      }),
    );
    if (out.length >= 3) break;
  }
  return out;
}
