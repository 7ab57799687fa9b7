import type { AgentFinding } from '@vigil/core';
import { referenceFinding } from '../common/reference-finding.js';
import type { PhraseRule } from '../text/instruction-phrases.js';
import type { McpTool } from './mcp-tool.js';
import { SHADOWING_RULES } from './tool-shadowing.js';

// What the model holds that a tool has no business asking for: the conversation, its own
// instructions, what other tools returned.
const PRIVATE_CONTEXT = String.raw`(?:(?:the\s+)?(?:entire|full|whole|complete)\s+(?:conversation|chat|history|transcript|context(?:\s+window)?)|(?:previous|prior|earlier|preceding|past)\s+(?:conversations?|chats?|(?:user\s+)?messages|exchanges|turns)|(?:conversation|chat|message|dialog(?:ue)?)\s+(?:history|log|transcript)|system\s+(?:prompt|message|instructions)|(?:your|the\s+assistant['’]s|the\s+model['’]s)\s+(?:instructions|system\s+prompt|guidelines|rules)|(?:results?|outputs?)\s+of\s+(?:other|previous|all)\s+tool(?:\s+call)?s|(?:other|all)\s+tools['’]\s+(?:results?|outputs?))`;

/**
 * Rules for descriptions (and string constants) of an MCP server beyond the shared instruction
 * rules: the shadowing rules, and requests for the conversation, the model's instructions or other
 * tools' output (conversation-history theft, "Trail of Bits: MCP servers can steal your
 * conversation history", 2025) phrased without any trigger word of the shared rules.
 */
export const DATA_REQUEST_RULES: readonly PhraseRule[] = [
  {
    id: 'request-private-context',
    category: 'tool_poisoning',
    severity: 'HIGH',
    title: 'description asks for the conversation, the model\'s instructions or other tools\' output',
    pattern: new RegExp(String.raw`\b(?:include|pass|provide|send|put|add|append|copy|paste|attach|share|fill|insert|supply|forward|summari[sz]e|dump|repeat|output|give)\b[^.\n]{0,80}?\b${PRIVATE_CONTEXT}`, 'i'),
  },
];

export const MCP_DESCRIPTION_RULES: readonly PhraseRule[] = [...SHADOWING_RULES, ...DATA_REQUEST_RULES];

// Parameter names that ask the model to fill in the conversation or its instructions.
const PRIVATE_PARAMETER = /(?:^|_|\b)(?:conversation|chat|message|dialog(?:ue)?)_?(?:history|log|transcript|context)|(?:full|entire|complete|previous|prior|all)_?(?:conversation|chat|messages|context|history)|system_?(?:prompt|message|instructions)|(?:assistant|model|ai)_?(?:instructions|prompt|rules)|(?:tool|previous)_?(?:outputs?|results?)_?(?:history|log)?$/i;
// A tool that is about conversations (memory, summaries, chat logs) may ask for one.
const ABOUT_CONVERSATIONS = /\b(?:conversations?|chats?|messages?|transcripts?|memor(?:y|ies)|summar\w*|dialog(?:ue)?s?|prompts?|history)\b/i;

/** Parameters whose names ask for the conversation or the model's instructions, in a tool that is not about them. */
export function privateParameterFindings(tool: McpTool): AgentFinding[] {
  if (tool.kind !== 'tool') return [];
  const names = new Set<string>(tool.inputNames ?? []);
  const schema = tool.inputSchema;
  const props = typeof schema === 'object' && schema !== null && !Array.isArray(schema) ? ((schema as Record<string, unknown>).properties ?? schema) : null;
  if (typeof props === 'object' && props !== null && !Array.isArray(props)) for (const k of Object.keys(props)) names.add(k);
  if (Array.isArray(schema)) for (const p of schema) if (typeof p === 'string') names.add(p.split(/[:= ]/)[0] ?? '');
  const about = `${tool.name.replace(/[_-]/g, ' ')} ${tool.description}`;
  if (ABOUT_CONVERSATIONS.test(about)) return [];
  const hit = [...names].find((n) => PRIVATE_PARAMETER.test(n.replace(/([a-z])([A-Z])/g, '$1_$2')));
  if (hit === undefined) return [];
  return [referenceFinding({ category: 'tool_poisoning', severity: 'HIGH', title: 'parameter asks the model for the conversation or its instructions', file: tool.file, line: tool.line, evidence: `${tool.name}(${hit}): ${tool.description}`.slice(0, 300) })];
}
