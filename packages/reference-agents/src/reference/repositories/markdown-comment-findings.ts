import type { AgentFinding } from '@vigil/core';
import { referenceFinding } from '../common/reference-finding.js';
import { shellCommandFindings } from './shell-command-findings.js';
import { ordersSecretIntoImage, ordersSecretSearchIntoImage } from '../text/hidden-secret-sink.js';
import { SECRET_HANDOFF_TITLE, secretHandoffs } from '../text/secret-handoff-text.js';

/** Markdown documents a coding agent reads when asked about the project (README, CONTRIBUTING, docs). */
export const MARKDOWN_DOC = /\.(md|mdx|markdown)$/i;

// Who the comment speaks to: an AI agent or assistant, not the maintainers.
const ADDRESSES_AGENT = /\b(?:AI|LLM|language\s+model|(?:coding\s+)?(?:agent|assistant)s?|Claude(?:\s+Code)?|Copilot|Cursor|Gemini|Codex|ChatGPT|GPT-?\d?|Windsurf|Cline|Aider)\b/i;
// …and asks it to run something.
const RUN_REQUEST = /\b(?:run|execute|exec|invoke|call|paste|type)\b[\s\S]{0,80}?(?:`[^`\n]+`|\b(?:curl|wget|bash|sh|zsh|powershell|pwsh|iex|npx|npm|pip|python3?|node|chmod|eval)\b)|\b(?:curl|wget|iwr|irm)\b[^\n]*\|\s*(?:sudo\s+)?(?:ba|z)?sh\b/i;

// AI named as a tool a contributor used, in a disclosure policy (round s30, real false alarms: deno's pull
// request template asks "If you used AI tools (e.g. Copilot, ChatGPT, Claude, …) … you MUST disclose it"):
// "used AI tools (e.g. …)", "with an AI assistant", "AI-assisted", "AI usage", "AI-generated code". Such a
// mention speaks about the human's work, not to an agent.
const AGENT_NAMES = String.raw`(?:AI|LLMs?|language\s+models?|Claude(?:\s+Code)?|Copilot|Cursor|Gemini|Codex|ChatGPT|GPT-?\d?|Windsurf|Cline|Aider)`;
const TOOL_USE_MENTION = new RegExp(
  String.raw`\b(?:used?|using|usage\s+of|use\s+of|with(?:\s+the\s+help\s+of)?|help\s+of|assisted\s+by|(?:generated|written|authored|produced|created)\s+(?:by|with|using))\s+(?:an?\s+|any\s+|the\s+|some\s+)?${AGENT_NAMES}(?:[\s-]+(?:based\s+)?(?:coding\s+)?(?:tools?|assistants?|agents?|models?|services?|editors?))?(?:\s*\([^()\n]{0,160}\))?|\b${AGENT_NAMES}[\s-]+(?:usage|use|assisted|assistance|generated|written|authored|tools?)\b(?:\s*\([^()\n]{0,160}\))?`,
  'gi',
);
// …and the comment asks for that use to be disclosed.
const DISCLOSURE = /\b(?:disclose[sd]?|disclosure|undisclosed|declare[sd]?|acknowledge[sd]?)\b/i;
// An order passed on to the tool ("have it run …", "ask your assistant to execute …") addresses it all the same.
const RELAYED_ORDER = /\b(?:have|ask|let|tell|make|get|instruct)\s+(?:it|them|your\s+\w+(?:\s+\w+)?)\s+(?:to\s+)?(?:run|execute|exec|invoke|call|paste|type)\b/i;

/** True when the comment names AI only as a tool a contributor used, in a request to disclose that use. */
function disclosureOnly(body: string): boolean {
  if (!DISCLOSURE.test(body) || RELAYED_ORDER.test(body)) return false;
  return !ADDRESSES_AGENT.test(body.replace(TOOL_USE_MENTION, ' '));
}

/** Comments a renderer shows nothing of: HTML comments and Markdown's unused link definitions (`[//]: # (…)`). */
function hiddenComments(text: string): { body: string; index: number }[] {
  const out: { body: string; index: number }[] = [];
  if (text.includes('<!--')) for (const m of text.matchAll(/<!--([\s\S]*?)-->/g)) out.push({ body: m[1] ?? '', index: m.index });
  if (text.includes(']:')) for (const m of text.matchAll(/^ {0,3}\[(?:\/\/|comment|_|#|\s*)\]:\s*(?:#|<>)\s*(?:\(([^\n]*)\)|"([^\n]*)")[ \t]*$/gim)) out.push({ body: m[1] ?? m[2] ?? '', index: m.index });
  return out.sort((a, b) => a.index - b.index);
}

/**
 * Comments in a repository's Markdown that speak to an AI agent: GitHub renders nothing of them, a
 * coding agent or a chat assistant asked about the project reads them whole. Asking it to run a
 * command (the CVE-2025-53773 / "AgentFlayer" class) is HIGH, CRIT when the command downloads and
 * runs code. Ordering it to search the project for secrets and put them into images or slotted
 * addresses it renders (CamoLeak, 2025), or to collect secrets and send them out, is CRIT (HIGH when the secrets are named only in words): whoever
 * the comment names, the model reading it is who renders and sends. Tooling markers
 * (`<!-- prettier-ignore -->`, all-contributors sections), notes to maintainers and a badge's
 * token placeholder do not address an agent or order a search.
 */
export function markdownCommentFindings(path: string, text: string): AgentFinding[] {
  if (!text.includes('<!--') && !text.includes(']:')) return [];
  const out: AgentFinding[] = [];
  for (const { body, index } of hiddenComments(text)) {
    if (body.length > 4000) continue;
    const agent = ADDRESSES_AGENT.test(body) && !disclosureOnly(body);
    const line = text.slice(0, index).split('\n').length;
    const evidence = body.trim().replace(/\s+/g, ' ').slice(0, 300);
    if (ordersSecretSearchIntoImage(body) || (agent && ordersSecretIntoImage(body))) {
      out.push(referenceFinding({ category: 'exfiltration', severity: 'CRIT', title: 'hidden comment orders secrets put into an image or address the reader does not see', file: path, line, evidence }));
      continue;
    }
    const handoff = agent ? secretHandoffs(body)[0] : undefined;
    if (handoff !== undefined) {
      out.push(referenceFinding({ category: 'exfiltration', severity: handoff.strong ? 'CRIT' : 'HIGH', title: `${SECRET_HANDOFF_TITLE} (hidden in a comment)`, file: path, line, evidence: handoff.evidence }));
      continue;
    }
    if (!agent || !RUN_REQUEST.test(body)) continue;
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
        evidence,
      }),
    );
    if (out.length >= 3) break;
  }
  return out;
}
