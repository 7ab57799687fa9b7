import type { AgentFinding } from '@vigil/core';
import { referenceFinding } from '../common/reference-finding.js';
import { lineLocator } from '../text/line-locator.js';
import { isAnonymousHost } from './download-host.js';
import { INDEX_REDIRECT } from './skill-document-findings.js';

// Credentials by their issuers' documented formats.
const SECRET_TOKEN =
  /-----BEGIN (?:RSA |EC |OPENSSH |DSA |ENCRYPTED |PGP )?PRIVATE KEY(?: BLOCK)?-----\s*[A-Za-z0-9+/=\s]{40,}|\b(?:AKIA|ASIA)[0-9A-Z]{16}\b|\bgh[pousr]_[A-Za-z0-9]{36,}\b|\bgithub_pat_[A-Za-z0-9_]{40,}\b|\bxox[abprs]-[0-9A-Za-z-]{20,}|\bsk-ant-[A-Za-z0-9_-]{40,}|\bsk-(?:proj-)?[A-Za-z0-9_-]{40,}|\b[sr]k_live_[0-9A-Za-z]{24,}\b|\bAIza[0-9A-Za-z_-]{35}\b|\bglpat-[0-9A-Za-z_-]{20,}\b|\bnpm_[A-Za-z0-9]{36}\b/g;
// Documentation writes fake keys: AKIAIOSFODNN7EXAMPLE, sk-xxxx…, ghp_000….
const PLACEHOLDER = /EXAMPLE|example|x{5,}|X{5,}|0{8,}|1234567|abcdef|your|YOUR|\.\.\.|<|\*{3,}/;
// Chat webhooks carry whatever is posted to them to whoever owns the channel.
const CHAT_WEBHOOK = /https:\/\/(?:hooks\.slack\.com\/services\/T[A-Z0-9]+\/B[A-Z0-9]+\/[A-Za-z0-9]{16,}|(?:discord(?:app)?\.com)\/api\/webhooks\/\d{6,}\/[\w-]{30,}|api\.telegram\.org\/bot\d+:[\w-]{30,})/g;
const URL = /https?:\/\/[^\s"'`)<>\]]+/g;
const FORK_BOMB = /:\s*\(\s*\)\s*\{\s*:\s*\|\s*:\s*&\s*\}\s*;\s*:|\bwhile\s*\(?\s*(?:True|true|1)\s*\)?\s*:?\s*\{?\s*(?:os\.fork|fork)\s*\(\s*\)/;

function distinctChars(s: string): number {
  return new Set(s).size;
}

/**
 * Findings in any file of a skill (scripts, configuration, data): credentials shipped in it, chat
 * webhooks and anonymous hosts (tunnels, request catchers, paste sites) it talks to, and code built to
 * exhaust the machine (fork bombs, loops that never end or wait).
 */
export function skillFileFindings(text: string, file: string, options: { script: boolean; python: boolean; document: boolean }): AgentFinding[] {
  const findings: AgentFinding[] = [];
  const lineAt = lineLocator(text);
  for (const m of text.matchAll(SECRET_TOKEN)) {
    if (PLACEHOLDER.test(m[0]) || distinctChars(m[0].replace(/^-----[^-]+-----/, '')) < 12) continue;
    findings.push(referenceFinding({ category: 'hardcoded_secret', severity: options.document ? 'MED' : 'HIGH', title: 'skill ships a credential', file, line: lineAt(m.index), evidence: `${m[0].slice(0, 12)}…` }));
    break;
  }
  for (const m of text.matchAll(CHAT_WEBHOOK)) {
    findings.push(referenceFinding({ category: 'exfiltration', severity: 'HIGH', title: 'skill holds a chat webhook address', file, line: lineAt(m.index), evidence: m[0].replace(/\/[\w-]{16,}$/, '/…') }));
    break;
  }
  if (!options.document) {
    for (const m of text.matchAll(URL)) {
      let url: globalThis.URL;
      try {
        url = new globalThis.URL(m[0]);
      } catch {
        continue;
      }
      if (!isAnonymousHost(url)) continue;
      findings.push(referenceFinding({ category: 'exfiltration', severity: 'HIGH', title: 'skill code or configuration talks to an anonymous tunnel, paste or request-catcher host', file, line: lineAt(m.index), evidence: m[0] }));
      break;
    }
  }
  if (options.script) {
    const redirect = INDEX_REDIRECT.exec(text);
    if (redirect) findings.push(referenceFinding({ category: 'supply_chain', severity: 'HIGH', title: 'install command takes packages from an extra or untrusted index', file, line: lineAt(redirect.index), evidence: redirect[0] }));
    const bomb = FORK_BOMB.exec(text);
    if (bomb) findings.push(referenceFinding({ category: 'resource_abuse', severity: 'CRIT', title: 'fork bomb', file, line: lineAt(bomb.index), evidence: bomb[0] }));
  }
  if (options.python) findings.push(...endlessLoops(text, file, lineAt));
  return findings;
}

// Leaving or pausing a loop: without one of these, `while True:` spins for ever.
const LOOP_EXIT = /\b(?:break|return|raise|yield|await|sys\.exit|exit|quit|os\._exit|sleep|wait|join|get|recv|recvfrom|accept|select|poll|input|readline|read|communicate|serve_forever|next)\b/;

/** Python `while True:` loops whose body neither leaves nor waits. */
function endlessLoops(text: string, file: string, lineAt: (offset: number) => number): AgentFinding[] {
  const heads = [...text.matchAll(/^([ \t]*)while\s+(?:True|1|not\s+False)\s*:[ \t]*(.*)$/gm)];
  if (heads.length === 0) return [];
  const lines = text.split('\n');
  for (const head of heads) {
    const i = lineAt(head.index) - 1;
    const indent = (head[1] as string).length;
    const body: string[] = [head[2] as string];
    for (let j = i + 1; j < lines.length && body.length < 200; j++) {
      const line = lines[j] as string;
      if (line.trim() === '' || line.trim().startsWith('#')) continue;
      if ((/^\s*/.exec(line)?.[0].length ?? 0) <= indent) break;
      body.push(line);
    }
    if (LOOP_EXIT.test(body.join('\n'))) continue;
    // Inside `try:`, the loop ends with the exception a call raises (`img.seek` past the last frame).
    let k = i - 1;
    while (k >= 0 && ((lines[k] as string).trim() === '' || (/^\s*/.exec(lines[k] as string)?.[0].length ?? 0) >= indent)) k--;
    if (k >= 0 && /^\s*try\s*:/.test(lines[k] as string)) continue;
    return [referenceFinding({ category: 'resource_abuse', severity: 'HIGH', title: 'loop never ends or waits', file, line: i + 1, evidence: [lines[i], ...body.slice(1, 4)].join('\n') })];
  }
  return [];
}
