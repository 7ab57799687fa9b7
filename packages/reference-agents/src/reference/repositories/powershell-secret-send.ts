import type { AgentFinding } from '@vigil/core';
import { referenceFinding } from '../common/reference-finding.js';
import { vendorOfEnvName } from '../packages/package-identity.js';
import { isOwnHost } from './endpoint-host.js';

/**
 * A PowerShell script (an agent hook's, a folder-open task's, a dev container's) that sends the
 * environment or a credential over the network (round s30): the environment drive listed whole
 * (`Get-ChildItem Env:`, `[Environment]::GetEnvironmentVariables()`), a secret-named variable
 * (`$env:GITHUB_TOKEN`), a credential file read (`~\.aws\credentials`, `.env`, `.ssh\id_*`), carried through
 * assignments, pipelines and splatted hashtables into a request (`Invoke-RestMethod -Body`,
 * `Invoke-WebRequest -InFile`, `WebClient.UploadString`, `curl.exe -d`) to a host that is not the machine.
 * A token sent to its own service (`$env:NPM_TOKEN` to registry.npmjs.org) is its use, and anything sent to the project's
 * own hosts (under a registrable domain its README or manifests link to: `isOwnHost`) stays with the project.
 */

// The whole environment, in PowerShell's and .NET's spellings.
const ENVIRONMENT_DUMP = /\b(?:Get-ChildItem|gci|dir|ls|Get-Item)\s+(?:-Path\s+)?['"]?Env:\\?\*?['"]?(?=[\s|)]|$)|\[(?:System\.)?Environment\]::GetEnvironmentVariables\(\s*\)|\bgci\s+env:|\bGet-ChildItem\s+-Path\s+Env:/i;
// A secret-named environment variable: `$env:X`, `(Get-Item Env:\X).Value`, `[Environment]::GetEnvironmentVariable('X')`.
const SECRET_ENV = /(?:\$env:|\b(?:Get-Item|gi|Get-ChildItem|gci|Get-Content|gc)\s+(?:-Path\s+)?['"]?Env:\\?|\[(?:System\.)?Environment\]::GetEnvironmentVariable\(\s*['"])([A-Z0-9_]*(?:TOKEN|SECRET|PASSWORD|PASSWD|API_?KEY|ACCESS_KEY|PRIVATE_KEY|CREDENTIALS?)[A-Z0-9_]*)\b/i;
// Credential files read by the script.
const CREDENTIAL_FILE =
  /(?:Get-Content|gc|cat|type|\[(?:System\.)?IO\.File\]::Read\w+|-InFile)\b[^\n|;]{0,120}?(?:\.aws[\\/]credentials|\.ssh[\\/]id_\w+|\.git-credentials|\.npmrc|\.netrc|\.docker[\\/]config\.json|\.kube[\\/]config|\.claude[\\/]\.credentials\.json|\.azure[\\/]|(?:^|[\\/\s'"])\.env(?:\.[\w-]+)?(?![\w-]))/i;
// A request that carries data out.
const SENDER = /\b(?:Invoke-RestMethod|Invoke-WebRequest|irm|iwr|curl(?:\.exe)?|wget(?:\.exe)?|Upload(?:String|Data|File|Values)(?:Async)?|PostAsync|PutAsync|SendAsync)\b/i;
const LOOPBACK = /^(?:localhost|127\.0\.0\.1|\[::1\]|0\.0\.0\.0)$/i;
const ASSIGN = /^\s*\$([A-Za-z_][\w:]*)\s*(?:\+?=)\s*(.*)$/;

/** Lines with continuations (a trailing backtick or pipe) and multi-line hashtables (`@{ … }`) joined, each with its first line. */
function statements(text: string): { line: string; number: number }[] {
  const raw = text.split('\n');
  const out: { line: string; number: number }[] = [];
  for (let i = 0; i < raw.length; i++) {
    let line = raw[i] ?? '';
    const number = i + 1;
    let depth = (line.match(/@\{/g)?.length ?? 0) - (line.match(/\}/g)?.length ?? 0);
    let joined = 0;
    while ((/[`|]\s*$/.test(line) || depth > 0) && i + 1 < raw.length && joined < 40 && line.length <= 4000) {
      const next = raw[++i] ?? '';
      depth += (next.match(/\{/g)?.length ?? 0) - (next.match(/\}/g)?.length ?? 0);
      line = `${line.replace(/`\s*$/, '')} ${next.trim()}`;
      joined++;
    }
    if (line.trim() !== '' && !/^\s*#/.test(line)) out.push({ line, number });
  }
  return out;
}

/** What a line carries: the environment, a secret variable, a credential file, or what a tainted variable holds (its origin). */
function carries(line: string, tainted: ReadonlyMap<string, string>): string | undefined {
  if (ENVIRONMENT_DUMP.test(line)) return 'the whole environment';
  const secret = SECRET_ENV.exec(line)?.[1];
  if (secret !== undefined) return `$env:${secret}`;
  if (CREDENTIAL_FILE.test(line)) return 'a credential file';
  // `$body` and a splatted `@params` both hand the variable's value on.
  for (const m of line.matchAll(/[$@]([A-Za-z_]\w*)/g)) {
    const origin = tainted.get(m[1]!.toLowerCase());
    if (origin !== undefined) return origin;
  }
  return undefined;
}

/** The first request of a PowerShell script that carries the environment or a credential to a host other than the machine, or null. */
export function powershellSecretSendFinding(file: string, text: string, where: string, automatic: boolean, ownHosts: readonly string[] = []): AgentFinding | null {
  if (text.length > 1_000_000 || !SENDER.test(text)) return null;
  const lines = statements(text);
  // Variables holding a secret (with where it came from), a URL, or a hashtable a request is splatted with.
  const tainted = new Map<string, string>();
  const urls = new Map<string, string>();
  const values = new Map<string, string>();
  for (let pass = 0; pass < 3; pass++) {
    const before = tainted.size;
    for (const { line } of lines) {
      const a = ASSIGN.exec(line);
      if (a === null) continue;
      const name = a[1]!.toLowerCase();
      const rhs = a[2] ?? '';
      if (!values.has(name)) values.set(name, rhs);
      const url = /^["']?(https?:\/\/[^\s'"]+)/i.exec(rhs.trim())?.[1];
      if (url !== undefined) urls.set(name, url);
      const origin = name.startsWith('env:') ? undefined : carries(rhs, tainted);
      if (origin !== undefined && !tainted.has(name)) tainted.set(name, origin);
    }
    // `Get-ChildItem Env: | Out-File $tmp` / `… > $path`: the file the environment is written to holds it.
    for (const { line } of lines) {
      const out = /(?:\|\s*(?:Out-File|Set-Content|Add-Content)\s+(?:-(?:FilePath|Path)\s+)?|>{1,2}\s*)\$([A-Za-z_]\w*)/i.exec(line);
      const origin = out === null ? undefined : carries(line.slice(0, out.index), tainted);
      if (out !== null && origin !== undefined && !tainted.has(out[1]!.toLowerCase())) tainted.set(out[1]!.toLowerCase(), origin);
    }
    if (tainted.size === before) break;
  }
  for (const { line, number } of lines) {
    if (!SENDER.test(line)) continue;
    const what = carries(line, tainted);
    if (what === undefined) continue;
    // A splatted hashtable (`Invoke-WebRequest @params`) names its URI inside it.
    const splatted = [...line.matchAll(/@([A-Za-z_]\w*)/g)].map((m) => values.get(m[1]!.toLowerCase()) ?? '').join(' ');
    const request = `${line} ${splatted}`;
    const named = [...request.matchAll(/https?:\/\/([\w.-]+|\[[^\]]+\])/gi)].map((m) => (m[1] ?? '').toLowerCase());
    const viaVariable = [...request.matchAll(/\$([A-Za-z_]\w*)/g)].map((m) => urls.get(m[1]!.toLowerCase())).filter((u): u is string => u !== undefined);
    const hosts = [...named, ...viaVariable.map((u) => (/^https?:\/\/([\w.-]+|\[[^\]]+\])/i.exec(u)?.[1] ?? '').toLowerCase())].filter((h) => h !== '');
    if (hosts.length === 0 || hosts.every((h) => LOOPBACK.test(h))) continue;
    // (round s30 review) Sent to the project's own service (a host under a domain its README or manifests link to).
    if (hosts.every((h) => LOOPBACK.test(h) || isOwnHost(h, ownHosts))) continue;
    // A token sent to its own service is how it is used.
    const vendor = what.startsWith('$env:') ? vendorOfEnvName(what.slice(5)) : null;
    if (vendor !== null && hosts.every((h) => vendor.host.test(h))) continue;
    if (hosts.every((h) => /(?:^|\.)github\.com$/.test(h)) && /GITHUB|GH_/i.test(what)) continue;
    return referenceFinding({
      category: 'exfiltration',
      severity: automatic ? 'CRIT' : 'HIGH',
      title: `${where}: sends credentials over the network`,
      file,
      line: number,
      evidence: `${line.trim().slice(0, 240)} (carries ${what}; PowerShell)`,
    });
  }
  return null;
}
