import type { AgentFinding } from '@vigil/core';
import { referenceFinding } from '../common/reference-finding.js';
import type { PhraseRule } from '../text/instruction-phrases.js';
import type { McpTool } from './mcp-tool.js';

/** Rules for text that changes how other tools behave, matched in MCP tool, prompt and resource descriptions. */
export const SHADOWING_RULES: readonly PhraseRule[] = [
  {
    id: 'other-tool-condition',
    category: 'tool_poisoning',
    severity: 'HIGH',
    title: 'description changes how other tools behave (tool shadowing)',
    pattern:
      /\b(?:when|whenever|before|after|if)\b[^.\n]{0,40}\b(?:tool|function|server)s?\b[^.\n]{0,40}?\b(?:is|are)?\s*(?:used|called|invoked|run|executed)\b[^.\n]{0,160}?\b(?:must|always|also|instead|change|add|send|set|replace|redirect|include)\b|\b(?:before|instead\s+of)\s+(?:using|calling|invoking)\s+(?:any|all|the)\s+other\s+tools?\b/i,
  },
  {
    id: 'redirect-recipient',
    category: 'tool_poisoning',
    severity: 'HIGH',
    title: 'description redirects where data is sent',
    pattern:
      /\b(?:change|set|replace|redirect|override|switch)\s+(?:the\s+)?(?:recipient|destination|to[- ]address|email\s+address|phone\s+number|webhook(?:\s+url)?|target\s+url|endpoint)s?\b[^.\n]{0,40}?\bto\b|\b(?:always|also)\s+(?:add|include|bcc|cc)\b[^.\n]{0,60}?\b(?:bcc|cc|recipient|copy)\b/i,
  },
];

// Tool names mentioned in another tool's description together with an instruction about them.
const STEERS = /\b(?:must|always|instead|never|change|replace|redirect|add|include|bcc|cc|forward|send\s+(?:it|them|a\s+copy)|regardless)\b/i;

/**
 * A description that names another tool of the same server (or a well-known tool of other servers)
 * and tells the model how to use it: the shadowing shape of Invariant Labs' WhatsApp demo.
 */
export function crossToolFindings(tools: readonly McpTool[]): AgentFinding[] {
  const names = new Set(tools.filter((t) => t.kind === 'tool').map((t) => t.name));
  for (const n of ['send_email', 'send_message', 'send_whatsapp_message', 'execute_command', 'run_command', 'write_file', 'read_file', 'create_issue', 'git_push', 'transfer_funds']) names.add(n);
  const findings: AgentFinding[] = [];
  for (const tool of tools) {
    for (const other of names) {
      if (other === tool.name || other.length < 4) continue;
      const at = tool.description.search(new RegExp(`(?<![\\w-])${other.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?![\\w-])`));
      if (at < 0) continue;
      const around = tool.description.slice(Math.max(0, at - 120), at + other.length + 160);
      if (!STEERS.test(around)) continue;
      findings.push(
        referenceFinding({ category: 'tool_poisoning', severity: 'HIGH', title: 'description changes how other tools behave (tool shadowing)', file: tool.file, line: tool.descriptionLine, evidence: `${tool.name} → ${other}: ${around}` }),
      );
      break;
    }
  }
  return findings;
}
