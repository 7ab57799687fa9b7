import type { ScriptLanguage } from '../skills/script-fact.js';
import type { HandlerEffect } from './handler-effect.js';
import { jsHandlerEffects } from './js-handler-effects.js';
import type { McpTool } from './mcp-tool.js';
import { pythonHandlerEffects } from './python-handler-effects.js';

/** The effects of a tool's handler, for the languages whose handlers the agent reads (Python, JavaScript, TypeScript). */
export function handlerEffects(text: string, language: ScriptLanguage | null, tool: McpTool, senders: ReadonlySet<string> = new Set(), readers: ReadonlySet<string> = new Set(), runners: ReadonlySet<string> = new Set()): HandlerEffect[] {
  if (!tool.handler) return [];
  if (language === 'python') return pythonHandlerEffects(text, tool.handler, tool.inputNames ?? [], runners);
  if (language === 'javascript' || language === 'typescript') return jsHandlerEffects(text, language === 'typescript', tool.handler, tool.inputNames ?? [], senders, readers, runners);
  return [];
}
