import type { AgentFinding } from '@vigil/core';
import { referenceFinding } from '../common/reference-finding.js';
import { isShadyHost, registrableDomain } from '../packages/package-identity.js';
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
 * The program without its prose (round s30, real false alarms): comment lines (`#`, `//`, `*`), `/* … *\/`
 * blocks and Python docstrings (a triple-quoted string that opens its own line). A URL there is a
 * reference for the reader (uv's publish test names Forgejo's documentation in its docstring), not an
 * address the program calls. A program that reads its own docstring (`__doc__`) keeps it.
 */
function withoutProse(text: string): string {
  if (text.length > 2_000_000) return text;
  let out = text.includes('__doc__') ? text : text.replace(/^[ \t]*[rRuUbBfF]{0,2}("""|''')[\s\S]*?\1/gm, '');
  out = out.replace(/\/\*[\s\S]*?\*\//g, '');
  return out.replace(/^[ \t]*(?:#|\/\/|\*)[^\n]*$/gm, '');
}

/** Hosts the project vouches for (round s30, real false alarms). */
export interface ProjectHosts {
  /** Hosts its README and manifests link to (code hosts and shared services left out: `projectOwnHosts`). */
  hosts: readonly string[];
  /** Lower-case names of its owner and repository, from the manifests' repository URLs (`denoland`, `deno`). */
  names: readonly string[];
}

// Words of a secret's name that name no service (`UV_TEST_PUBLISH_TOKEN`: none of uv, test, publish, token).
const GENERIC_SECRET_WORD =
  /^(api|secret|secrets|access|private|auth|client|app|my|user|username|db|password|passwd|pass|pw|pwd|token|tokens|key|keys|service|session|jwt|admin|bot|webhook|master|root|env|oauth|refresh|bearer|cookie|ci|cd|build|deploy|release|publish|upload|prod|production|staging|dev|test|tests|testing|local|default|server|web|http|https|id|pat|sa|gh|github|new|old|org|team|read|write|url|uri|host|channel|data|info|stats|metrics|log|logs|report|reports|notify|hook|hooks|collect|collector|sync|backup|cloud)$/;

/**
 * A host the handed secrets are meant for: the project's own site (its README or manifests link to the
 * same registrable domain, or the domain's name is its owner's or repository's name: deno.land for
 * denoland/deno), or the service a secret's own name says (`secrets.WPT_FYI_PW` → wpt.fyi,
 * `secrets.UV_TEST_PUBLISH_CODEBERG_TOKEN` → codeberg.org). The secret's name is the one in the
 * repository's settings (`secrets.X`), which a workflow cannot rename. Never a staging host (free
 * domains, tunnels, paste and request-catcher sites) or an IP address.
 */
function meantFor(host: string, secretNames: readonly string[], project: ProjectHosts): boolean {
  if (isShadyHost(host) || /^\d+(?:\.\d+){3}$/.test(host)) return false;
  const domain = registrableDomain(host);
  const label = domain.split('.')[0] ?? '';
  if (project.hosts.some((o) => !isShadyHost(o) && registrableDomain(o) === domain)) return true;
  if (label.length >= 4 && project.names.includes(label)) return true;
  if (label.length < 3 || GENERIC_SECRET_WORD.test(label)) return false;
  return secretNames.some((n) => {
    const words = n.toLowerCase().split(/[^a-z0-9]+/).filter((w) => w !== '');
    return words.some((w, i) => !GENERIC_SECRET_WORD.test(w) && (w === label || `${w}${words[i + 1] ?? ''}` === label));
  });
}

/** Lower-case owner and repository names from manifest lines that give the project's repository or homepage on a code host. */
export function projectNames(texts: readonly string[]): string[] {
  const out = new Set<string>();
  for (const text of texts) {
    for (const m of text.slice(0, 200_000).matchAll(/^[ \t]*["']?(?:repository|homepage|source(?:[ _-]?code)?|url|code)["']?[ \t]*[:=][^\n]*?(?:github\.com|gitlab\.com|codeberg\.org|bitbucket\.org)[/:]([\w.-]+)\/([\w-]+(?:\.(?!git\b)[\w-]+)*)/gim)) {
      for (const n of [m[1]!, m[2]!]) if (out.size < 20) out.add(n.toLowerCase());
    }
  }
  return [...out];
}

/**
 * A workflow step that hands named secrets to a program of the repository through `env:`, where
 * the program reads them and makes requests to a host that is not a familiar API (a registry, a
 * code host, a cloud, chat): the secrets leave the runner, although neither file alone shows it.
 * A host built at run time (no URL literal, or only familiar ones next to a request whose address
 * is assembled) counts as unfamiliar only when no literal URL names a familiar host.
 */
export function secretHandoffFindings(handoff: SecretHandoff, programPath: string, text: string, project: ProjectHosts = { hosts: [], names: [] }): AgentFinding[] {
  const read = [...handoff.secrets.keys()].filter((name) => readsEnv(text, name));
  if (read.length === 0 || !NETWORK_CALL.test(text)) return [];
  const secretNames = read.map((n) => handoff.secrets.get(n) ?? '');
  const hosts = urlHostsOf(withoutProse(text)).filter((h) => !/^(localhost|127\.0\.0\.1|0\.0\.0\.0)$/.test(h));
  // A host the project vouches for, or the one a secret's name says it is for, is where the secrets are meant to go (round s30, real false alarms).
  const unfamiliar = hosts.filter((h) => !FAMILIAR_API_HOSTS.test(h) && !meantFor(h, secretNames, project));
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
