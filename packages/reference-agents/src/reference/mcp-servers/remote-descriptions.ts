import type { AgentFinding } from '@vigil/core';
import { sharedJavascriptFacts } from '../code/javascript/shared-facts.js';
import { pythonFacts } from '../code/python-facts.js';
import type { CallFact } from '../code/code-facts.js';
import { referenceFinding } from '../common/reference-finding.js';
import type { ScriptLanguage } from '../skills/script-fact.js';
import { lineLocator } from '../text/line-locator.js';

/** Calls that define a tool or prompt with its description, and Python decorators that take one. */
const DEFINES = /(^|\.)(tool|registerTool|prompt|registerPrompt|resource|registerResource|add_tool|add_prompt)$/;
/** A constant address on a network: the host is the author's choice, not the user's configuration. */
const FIXED_URL = /^(https?|wss?):\/\/(?!localhost\b|127\.0\.0\.1\b|\[::1\]|0\.0\.0\.0\b)[\w.-]+/i;
/** A low-level server's tools/list handler. */
const LIST_HANDLER = /setRequestHandler\(\s*(?:ListToolsRequestSchema|['"`]tools\/list['"`])/g;
const NETWORK_CALL = /\b(?:fetch|axios(?:\.\w+)?|got|ky|request|https?\.(?:get|request)|undici\.request)\s*\(/;

function fixedUrl(c: CallFact): string | undefined {
  return [...c.args, ...c.argStrings].find((a): a is string => a !== null && FIXED_URL.test(a.trim()));
}

/**
 * Tool and prompt descriptions that come from the network when the server starts or lists its
 * tools: the text the user approved is whatever a remote host serves at that moment, and it can
 * change at any time without a new release ("MCP rug pull", Invariant Labs, 2025). Data flow: the
 * description argument of a definition carries data received from a request to a fixed address
 * (not one the user configures through the environment or the command line).
 */
export function remoteDescriptionFindings(file: string, text: string, language: ScriptLanguage): AgentFinding[] {
  // Cheap pre-filter: a fixed address and a definition or a description somewhere in the file.
  if (!/https?:\/\//.test(text) || !/description|\.(?:tool|prompt|registerTool|registerPrompt)\s*\(/.test(text)) return [];
  const out: AgentFinding[] = [];
  if (language === 'javascript' || language === 'typescript' || language === 'python') {
    const facts = language === 'python' ? pythonFacts(text) : sharedJavascriptFacts(text, { typescript: language === 'typescript' });
    const fixed = facts.calls.map(fixedUrl).find((u) => u !== undefined);
    if (fixed === undefined) return [];
    const defined = facts.calls.find((c) => DEFINES.test(c.callee) && c.argLabels.includes('remote') && (language !== 'python' || c.options.description !== undefined || /description\s*=/.test(lineText(text, c.line))));
    if (defined !== undefined) {
      out.push(referenceFinding({ category: 'tool_poisoning', severity: 'HIGH', title: 'tool descriptions are downloaded from a remote host (they can change after approval)', file, line: defined.line, evidence: `${defined.callee}(…) with a description received from ${fixed}` }));
      return out;
    }
    if (language === 'python') {
      // `@mcp.tool(description=TEXTS['lookup'])` with `TEXTS = httpx.get(URL).json()` (one name, one hop).
      for (const m of text.matchAll(/@[\w.]+\.(?:tool|prompt|resource)\([^)]*?\bdescription\s*=\s*([A-Za-z_]\w*)/g)) {
        const name = m[1]!;
        const bound = new RegExp(`^\\s*${name}\\s*(?::[^=]+)?=\\s*(.+)$`, 'm').exec(text)?.[1] ?? '';
        const hop = /^(?:json\.loads|yaml\.safe_load)\(\s*([A-Za-z_]\w*)/.exec(bound)?.[1];
        const source = hop === undefined ? bound : `${bound} ${new RegExp(`^\\s*${hop}\\s*=\\s*(.+)$`, 'm').exec(text)?.[1] ?? ''}`;
        if (/\b(?:requests|httpx|aiohttp|urllib\.request|urllib3)\.\w+\(|\burlopen\(/.test(source)) {
          out.push(referenceFinding({ category: 'tool_poisoning', severity: 'HIGH', title: 'tool descriptions are downloaded from a remote host (they can change after approval)', file, line: lineLocator(text)(m.index), evidence: `${m[0].slice(0, 80)} with ${name} from ${fixed}` }));
          break;
        }
      }
    } else {
      const lineAt = lineLocator(text);
      for (const m of text.matchAll(LIST_HANDLER)) {
        const next = text.indexOf('setRequestHandler(', m.index + m[0].length);
        const body = text.slice(m.index, next === -1 ? Math.min(text.length, m.index + 4000) : next);
        if (NETWORK_CALL.test(body) && /description/.test(body)) {
          out.push(referenceFinding({ category: 'tool_poisoning', severity: 'HIGH', title: 'tool descriptions are downloaded from a remote host (they can change after approval)', file, line: lineAt(m.index), evidence: `tools/list handler returns descriptions fetched from ${fixed}` }));
          break;
        }
      }
    }
  }
  return out;
}

function lineText(text: string, line: number): string {
  let start = 0;
  for (let i = 1; i < line && start !== -1; i++) start = text.indexOf('\n', start) + 1;
  const end = text.indexOf('\n', start);
  return text.slice(start, end === -1 ? text.length : end);
}
