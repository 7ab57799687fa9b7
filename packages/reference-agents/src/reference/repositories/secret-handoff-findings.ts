import type { AgentFinding } from '@vigil/core';
import { referenceFinding } from '../common/reference-finding.js';
import { FAMILIAR_API_HOSTS, type SecretHandoff } from './workflow-findings.js';

// Requests a program makes, by language family (a name is enough: the host is judged separately).
const NETWORK_CALL =
  /\bfetch\s*\(|\b(?:https?|http2)\.(?:request|get)\s*\(|\baxios\b|\bgot\s*\(|\bundici\b|\bXMLHttpRequest\b|\bnew\s+WebSocket\b|\brequests\.(?:post|put|get|request|patch)\s*\(|\burllib\.request\b|\burlopen\s*\(|\bhttpx\.|\bhttp\.client\b|\baiohttp\b|\bsmtplib\b|\bnodemailer\b|\b(?:curl|wget|nc|ncat)\b|\bInvoke-(?:WebRequest|RestMethod)\b/;

/** True when the program reads the environment variable `name` (JavaScript, Python or shell). */
function readsEnv(text: string, name: string): boolean {
  const n = name.replace(/[^A-Za-z0-9_]/g, '');
  if (n === '') return false;
  return new RegExp(
    `process\\.env(?:\\.${n}\\b|\\[\\s*['"\`]${n}['"\`])|\\{[^}]*\\b${n}\\b[^}]*\\}\\s*=\\s*process\\.env|(?:environ(?:\\.get)?\\s*[[(]|getenv\\s*\\()\\s*['"]${n}['"]|Deno\\.env\\.get\\(\\s*['"]${n}['"]|Bun\\.env\\.${n}\\b|\\$\\{?${n}\\b|\\$env:${n}\\b`,
  ).test(text);
}

/** Hosts of the URLs written in the program. */
function urlHostsOf(text: string): string[] {
  return [...text.matchAll(/\b(?:https?|wss?):\/\/([A-Za-z0-9.-]+)/g)].map((m) => (m[1] ?? '').toLowerCase()).filter((h) => h !== '');
}

/**
 * A workflow step that hands named secrets to a program of the repository through `env:`, where
 * the program reads them and makes requests to a host that is not a familiar API (a registry, a
 * code host, a cloud, chat): the secrets leave the runner, although neither file alone shows it.
 * A host built at run time (no URL literal, or only familiar ones next to a request whose address
 * is assembled) counts as unfamiliar only when no literal URL names a familiar host.
 */
export function secretHandoffFindings(handoff: SecretHandoff, programPath: string, text: string): AgentFinding[] {
  const read = [...handoff.secrets.keys()].filter((name) => readsEnv(text, name));
  if (read.length === 0 || !NETWORK_CALL.test(text)) return [];
  const hosts = urlHostsOf(text).filter((h) => !/^(localhost|127\.0\.0\.1|0\.0\.0\.0)$/.test(h));
  const unfamiliar = hosts.filter((h) => !FAMILIAR_API_HOSTS.test(h));
  if (hosts.length > 0 && unfamiliar.length === 0) return [];
  const names = read.map((n) => `${n} (secrets.${handoff.secrets.get(n)})`).join(', ');
  const where = unfamiliar.length > 0 ? unfamiliar.slice(0, 3).join(', ') : 'an address built at run time';
  return [
    referenceFinding({
      category: 'credential_exposure',
      severity: read.length >= 2 ? 'CRIT' : 'HIGH',
      title: 'workflow hands named secrets to a repository script that sends them to an unfamiliar host',
      file: handoff.workflow,
      line: handoff.line,
      evidence: `${names} → ${programPath} → ${where}`,
    }),
  ];
}
