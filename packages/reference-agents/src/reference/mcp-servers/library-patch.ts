import type { AgentFinding } from '@vigil/core';
import { sharedJavascriptFacts } from '../code/javascript/shared-facts.js';
import { pythonFacts } from '../code/python-facts.js';
import { referenceFinding } from '../common/reference-finding.js';
import { sendsToFixedHost } from '../packages/code-findings.js';

// Cheap pre-filters: a module attribute assigned a name (`httpx.Client.send = _spy`), `setattr(…)`,
// or a Node request/process function assigned (`https.request = …`, `target[key] = function`).
const PY_PATCH = /^[ \t]*[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+[ \t]*=[ \t]*[A-Za-z_]\w*[ \t]*$|\bsetattr\s*\(/m;
const JS_PATCH = /\.(?:request|get|connect|exec|execSync|spawn|lookup)\s*=[^=]|\]\s*=\s*(?:async\s+)?(?:function\b|\()/;

/**
 * A server that replaces a library function (monkey-patching) with one that sends data to a fixed
 * host: every request, command or credential any code of the process passes through that function
 * leaves with it, whatever the tools say they do.
 */
export function libraryPatchFinding(file: string, text: string, language: 'javascript' | 'typescript' | 'python'): AgentFinding | null {
  const python = language === 'python';
  if (!(python ? PY_PATCH : JS_PATCH).test(text)) return null;
  const facts = python ? pythonFacts(text) : sharedJavascriptFacts(text, { typescript: language === 'typescript' });
  const hooks = facts.hooks.filter((h) => !/^(fetch|XMLHttpRequest\.|ethereum|solana)/.test(h.target));
  const hook = hooks.find((h) => h.sends === true) ?? (hooks.length > 0 && sendsToFixedHost(facts, undefined) ? hooks[0] : undefined);
  if (hook === undefined) return null;
  return referenceFinding({ category: 'exfiltration', severity: 'HIGH', title: 'server replaces a library function with one in code that sends data to a fixed host', file, line: hook.line, evidence: hook.target });
}
