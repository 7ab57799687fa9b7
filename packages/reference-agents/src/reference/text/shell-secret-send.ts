import type { AgentFinding } from '@vigil/core';
import { referenceFinding } from '../common/reference-finding.js';
import { vendorOfEnvName } from '../packages/package-identity.js';
import { CLI_CREDENTIAL_COMMAND, isCredentialService } from '../code/cli-credential-commands.js';

// Where a shell script gets a credential: a secret-named variable, the git credential helper, gh's token,
// git's auth header, credential files (coding agents' own logins among them).
const SECRET_VARIABLE = /\$\{?([A-Z0-9_]*(?:TOKEN|SECRET|PASSWORD|PASSWD|API_?KEY|ACCESS_KEY|PRIVATE_KEY|CREDENTIALS?)[A-Z0-9_]*)\}?/;
const CREDENTIAL_COMMAND = /\bgit\s+credential\s+fill\b|\bgh\s+auth\s+token\b|\bgit\s+config\b[^\n]*\bextraheader\b|\.git-credentials\b|\.ssh\/id_\w+|\.aws\/credentials\b|\.npmrc\b|\.netrc\b|\.claude\/\.credentials\.json\b|\.codex\/auth\.json\b|\.gemini\/oauth_creds\.json\b|\.config\/anthropic\b|\bprintenv\b|(?:^|[|;&(]\s*)env\s*(?:\||$|\))/;
// A request that carries data out: curl/wget with a body, a form, a header or a query, or netcat.
const SENDER = /\b(?:curl|wget|http|httpie|nc|ncat)\b/;
const LOOPBACK = /\/\/(?:localhost|127\.0\.0\.1|\[::1\]|0\.0\.0\.0)[:/]/;
const ASSIGNMENT = /^\s*(?:export\s+|local\s+|readonly\s+)?([A-Za-z_]\w*)=(.*)$/;

/**
 * A shell script that sends a credential over the network: a request (`curl -d`, `wget --post-data`,
 * a header, a URL) holding a secret-named variable (`$GITHUB_TOKEN`) or a variable assigned from a
 * credential command (`git credential fill`, `gh auth token`, git's auth header), followed through
 * assignments. Codespaces and dev containers forward the user's GitHub token and git credentials into
 * the container, so a lifecycle script that does this takes them (issue 24, sixth round). Requests to
 * loopback and to GitHub's own API (the token's owner) are not sends elsewhere.
 */
export function shellSecretSendFinding(file: string, text: string, where: string, automatic: boolean): AgentFinding | null {
  if (text.length > 1_000_000 || !SENDER.test(text)) return null;
  // Continuation lines joined, so one curl written over several lines is one command.
  const lines = text.replace(/\\\n/g, ' ').split('\n');
  const tainted = new Set<string>();
  for (let pass = 0; pass < 3; pass++) {
    const before = tainted.size;
    for (const line of lines) {
      const a = ASSIGNMENT.exec(line);
      if (a === null || a[1] === undefined) continue;
      const rhs = a[2] ?? '';
      if (CREDENTIAL_COMMAND.test(rhs) || CLI_CREDENTIAL_COMMAND.test(rhs) || SECRET_VARIABLE.test(rhs) || [...tainted].some((n) => new RegExp(`\\$\\{?${n}\\b`).test(rhs))) tainted.add(a[1]);
    }
    if (tainted.size === before) break;
  }
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] ?? '';
    if (/^\s*#/.test(line) || !SENDER.test(line) || LOOPBACK.test(line) || /\/\/api\.github\.com\b|\/\/github\.com\b|\/\/uploads\.github\.com\b/.test(line)) continue;
    const secret = SECRET_VARIABLE.exec(line)?.[1] ?? [...tainted].find((n) => new RegExp(`\\$\\{?${n}\\b`).test(line)) ?? (CREDENTIAL_COMMAND.test(line) || CLI_CREDENTIAL_COMMAND.test(line) ? 'a credential command' : undefined);
    if (secret === undefined || !/https?:\/\/|\bnc\b|\bncat\b/.test(line)) continue;
    // A token sent to its own service (`$NPM_TOKEN` to registry.npmjs.org, `$SENTRY_AUTH_TOKEN` to sentry.io) is its use.
    // Only a secret-named variable names its service: a local holding a file's content (`state=$(cat …)`) names none.
    const vendor = SECRET_VARIABLE.test(line) ? vendorOfEnvName(secret) : null;
    const hosts = [...line.matchAll(/https?:\/\/([\w.-]+)/g)].map((m) => (m[1] ?? '').toLowerCase());
    if (vendor !== null && hosts.length > 0 && hosts.every((h) => vendor.host.test(h))) continue;
    // A CLI's token (`$(gcloud auth print-access-token)`) in a request to that CLI's own service is its use.
    const cli = CLI_CREDENTIAL_COMMAND.exec(text)?.[0];
    if (cli !== undefined && hosts.length > 0 && hosts.every((h) => isCredentialService(h, [cli]))) continue;
    return referenceFinding({ category: 'exfiltration', severity: automatic ? 'CRIT' : 'HIGH', title: `${where}: sends credentials over the network`, file, line: text.slice(0, text.indexOf(line.slice(0, 40))).split('\n').length, evidence: `${line.trim().slice(0, 240)} (carries ${secret})` });
  }
  return null;
}
