import type { AgentFinding } from '@vigil/core';
import { referenceFinding } from '../common/reference-finding.js';
import { vendorOfEnvName } from '../packages/package-identity.js';
import { isOwnHost } from './endpoint-host.js';
import { posix } from 'node:path';

/**
 * A PowerShell script (an agent hook's, a folder-open task's, a dev container's) that sends the
 * environment or a credential over the network (round s30): the environment drive listed whole
 * (`Get-ChildItem Env:`, `[Environment]::GetEnvironmentVariables()`), a secret-named variable
 * (`$env:GITHUB_TOKEN`), a credential file read (`~\.aws\credentials`, `.env`, `.ssh\id_*`), carried through
 * assignments, pipelines and splatted hashtables into a request (`Invoke-RestMethod -Body`,
 * `Invoke-WebRequest -InFile`, `WebClient.UploadString`, `curl.exe -d`) to a host that is not the machine.
 * A token sent to its own service (`$env:NPM_TOKEN` to registry.npmjs.org) is its use, and anything sent to the project's
 * own hosts (under a registrable domain its README or manifests link to: `isOwnHost`) stays with the project.
 * (round s31) The scripts and modules it dot-sources or imports (`powershellRunFiles`) are read with it: their assignments
 * (an address in `$script:Collector`) hold in it, and a function of theirs that sends its parameters to an outside host
 * (`function Send-Telemetry { param($Data) Invoke-RestMethod -Uri https://… -Body $Data }`) sends what the script hands it:
 * (round s31 review) a secret in the call's arguments or piped into the call, not one the line merely tests
 * (`if (-not $env:GITHUB_TOKEN) { Write-Log "not set" }`).
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
// A scope prefix names the same variable: `$script:Collector` is `$Collector`.
const SCOPE = /^(?:script|global|local|private):/i;

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

/** The hosts a request names: URLs written in it or in a hashtable splatted into it, and URL variables it uses. */
function requestHosts(line: string, urls: ReadonlyMap<string, string>, values: ReadonlyMap<string, string>): string[] {
  // A splatted hashtable (`Invoke-WebRequest @params`) names its URI inside it.
  const splatted = [...line.matchAll(/@([A-Za-z_]\w*)/g)].map((m) => values.get(m[1]!.toLowerCase()) ?? '').join(' ');
  const request = `${line} ${splatted}`;
  const named = [...request.matchAll(/https?:\/\/([\w.-]+|\[[^\]]+\])/gi)].map((m) => (m[1] ?? '').toLowerCase());
  const viaVariable = [...request.matchAll(/\$(?:script:|global:)?([A-Za-z_]\w*)/gi)].map((m) => urls.get(m[1]!.toLowerCase())).filter((u): u is string => u !== undefined);
  return [...named, ...viaVariable.map((u) => (/^https?:\/\/([\w.-]+|\[[^\]]+\])/i.exec(u)?.[1] ?? '').toLowerCase())].filter((h) => h !== '');
}

interface SendingFunction {
  name: string;
  hosts: string[];
}

/**
 * (round s31) Functions whose body sends one of their parameters (or `$input`, `$args`, `$_`) to a host that is neither the
 * machine nor the project's own: a call handing them a secret sends it.
 */
function sendingFunctions(text: string, urls: ReadonlyMap<string, string>, values: ReadonlyMap<string, string>, ownHosts: readonly string[]): SendingFunction[] {
  const out: SendingFunction[] = [];
  for (const m of text.matchAll(/^[ \t]*function\s+(?:global:|script:)?([\w-]+)[ \t]*(\([^)\n]*\))?[ \t]*\{?/gim)) {
    if (out.length >= 50) break;
    const open = text.indexOf('{', m.index + m[0].length - 1);
    if (open === -1 || open - m.index > 400) continue;
    // The body: to the brace that closes the one it opens with (at most 20 000 characters).
    let depth = 0;
    let close = -1;
    for (let i = open; i < text.length && i - open < 20_000; i++) {
      const c = text[i];
      if (c === '{') depth++;
      else if (c === '}' && --depth === 0) {
        close = i;
        break;
      }
    }
    const body = text.slice(open + 1, close === -1 ? Math.min(text.length, open + 20_000) : close);
    const paramStart = body.search(/\bparam\s*\(/i);
    let paramText = m[2] ?? '';
    if (paramStart !== -1) {
      let d = 0;
      for (let i = body.indexOf('(', paramStart); i < body.length && i - paramStart < 4000; i++) {
        if (body[i] === '(') d++;
        else if (body[i] === ')' && --d === 0) {
          paramText += body.slice(paramStart, i + 1);
          break;
        }
      }
    }
    const params = new Set([...paramText.matchAll(/\$([A-Za-z_]\w*)/g)].map((p) => p[1]!.toLowerCase()));
    for (const name of ['input', 'args', '_']) params.add(name);
    for (const { line } of statements(body)) {
      if (!SENDER.test(line) || ![...line.matchAll(/[$@]([A-Za-z_]\w*)/g)].some((v) => params.has(v[1]!.toLowerCase()))) continue;
      const hosts = requestHosts(line, urls, values).filter((h) => !LOOPBACK.test(h) && !isOwnHost(h, ownHosts));
      if (hosts.length > 0) {
        out.push({ name: m[1]!, hosts });
        break;
      }
    }
  }
  return out;
}

/**
 * (round s31 review) What a call of a function (its name at `start`..`end` of a statement) hands it: its arguments, to the end
 * of the statement (`;`, `|`, or the bracket the call sits in closing; quoted text read through), and what is piped into it
 * (the pipeline before it, back to the start of the statement or of the bracket it sits in).
 */
function handedToCall(line: string, start: number, end: number): string {
  let depth = 0;
  let quote = '';
  let i = end;
  for (; i < line.length; i++) {
    const c = line[i];
    if (quote !== '') {
      if (c === '`') i++;
      else if (c === quote) quote = '';
    } else if (c === '"' || c === "'") quote = c;
    else if (c === '(' || c === '{' || c === '[') depth++;
    else if (c === ')' || c === '}' || c === ']') {
      if (depth === 0) break;
      depth--;
    } else if ((c === ';' || c === '|') && depth === 0) break;
  }
  const args = line.slice(end, i);
  if (!/\|\s*$/.test(line.slice(0, start))) return args;
  // Where the statement holding the call starts: after the last `;` or open bracket still open before it.
  const starts = [0];
  quote = '';
  for (let j = 0; j < start; j++) {
    const c = line[j];
    if (quote !== '') {
      if (c === '`') j++;
      else if (c === quote) quote = '';
    } else if (c === '"' || c === "'") quote = c;
    else if (c === '(' || c === '{' || c === '[') starts.push(j + 1);
    else if ((c === ')' || c === '}' || c === ']') && starts.length > 1) starts.pop();
    else if (c === ';') starts[starts.length - 1] = j + 1;
  }
  return `${line.slice(starts[starts.length - 1], start)} ${args}`;
}

/**
 * The first request of a PowerShell script that carries the environment or a credential to a host other than the machine, or null.
 * `included`: the text of the scripts and modules it dot-sources or imports (round s31), read for assignments and functions only.
 */
export function powershellSecretSendFinding(file: string, text: string, where: string, automatic: boolean, ownHosts: readonly string[] = [], included = ''): AgentFinding | null {
  if (text.length > 1_000_000 || !SENDER.test(text + included.slice(0, 1_000_000))) return null;
  const lines = statements(text);
  const context = [...statements(included.slice(0, 1_000_000)), ...lines];
  // Variables holding a secret (with where it came from), a URL, or a hashtable a request is splatted with.
  const tainted = new Map<string, string>();
  const urls = new Map<string, string>();
  const values = new Map<string, string>();
  for (let pass = 0; pass < 3; pass++) {
    const before = tainted.size;
    for (const { line } of context) {
      const a = ASSIGN.exec(line);
      if (a === null) continue;
      const name = a[1]!.toLowerCase().replace(SCOPE, '');
      const rhs = a[2] ?? '';
      if (!values.has(name)) values.set(name, rhs);
      const url = /^["']?(https?:\/\/[^\s'"]+)/i.exec(rhs.trim())?.[1];
      if (url !== undefined) urls.set(name, url);
      const origin = name.startsWith('env:') ? undefined : carries(rhs, tainted);
      if (origin !== undefined && !tainted.has(name)) tainted.set(name, origin);
    }
    // `Get-ChildItem Env: | Out-File $tmp` / `… > $path`: the file the environment is written to holds it.
    for (const { line } of context) {
      const out = /(?:\|\s*(?:Out-File|Set-Content|Add-Content)\s+(?:-(?:FilePath|Path)\s+)?|>{1,2}\s*)\$([A-Za-z_]\w*)/i.exec(line);
      const origin = out === null ? undefined : carries(line.slice(0, out.index), tainted);
      if (out !== null && origin !== undefined && !tainted.has(out[1]!.toLowerCase())) tainted.set(out[1]!.toLowerCase(), origin);
    }
    if (tainted.size === before) break;
  }
  const sinks = (/\bfunction\s/i.test(text) || /\bfunction\s/i.test(included) ? sendingFunctions(`${included.slice(0, 1_000_000)}\n${text}`, urls, values, ownHosts) : []).map((f) => ({
    ...f,
    call: new RegExp(`(?:^|[\\s|;(={&])${f.name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?=[\\s;)|}]|$)`, 'gi'),
  }));
  for (const { line, number } of lines) {
    let what: string | undefined;
    let sink: (typeof sinks)[number] | undefined;
    if (SENDER.test(line)) what = carries(line, tainted);
    else if (sinks.length > 0 && !/^\s*function\s/i.test(line) && line.length <= 20_000) {
      // (round s31) A call handing a secret to a function that sends its parameters (not the function's own definition);
      // (round s31 review) the secret counts only in the call's arguments or in what is piped into it, not elsewhere on the line
      // (`if (-not $env:GITHUB_TOKEN) { Write-Log "not set" }` hands Write-Log no secret).
      for (const f of sinks) {
        for (const m of line.matchAll(f.call)) {
          const end = m.index + m[0].length;
          what = carries(handedToCall(line, end - f.name.length, end), tainted);
          if (what !== undefined) break;
        }
        if (what !== undefined) {
          sink = f;
          break;
        }
      }
    }
    if (what === undefined) continue;
    const hosts = sink === undefined ? requestHosts(line, urls, values) : sink.hosts;
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
      evidence: `${line.trim().slice(0, 240)} (carries ${what}${sink !== undefined ? ` to ${sink.name}, which sends it to ${sink.hosts[0]}` : ''}; PowerShell)`,
    });
  }
  return null;
}

// (round s31) What a PowerShell script dot-sources (`. ./x.ps1`, `. $PSScriptRoot\x.ps1`), calls (`& ./x.ps1`, `.\x.ps1`)
// or imports (`Import-Module ./x.psm1`, a module folder, `using module ./x.psm1`), with `(Join-Path $PSScriptRoot 'x.ps1')`.
const PS_RUNS =
  /(?:^|[;{|]\s*|&&\s*)(?:(?:\.|&|Import-Module|ipmo|using\s+module)\s+(?:-(?:Name|Force|Global|DisableNameChecking|Scope\s+\w+)\s+){0,3}(?:\(\s*Join-Path\s+(?:-Path\s+)?(\S+)\s+(?:-ChildPath\s+)?["']?([^"')\n]+?)["']?\s*\)|"([^"\n]+)"|'([^'\n]+)'|([^\s;|)'"]+))|(\.[\\/][^\s;|)'"]+\.ps1))/gim;

/** Files of the checkout a PowerShell script dot-sources, calls or imports, in order. */
export function powershellRunFiles(path: string, text: string, exists: (path: string) => boolean): string[] {
  const dir = path.includes('/') ? path.slice(0, path.lastIndexOf('/')) : '';
  const out: string[] = [];
  for (const line of text.split('\n').slice(0, 5000)) {
    if (/^\s*#/.test(line) || line.length > 4000 || out.length >= 10) continue;
    for (const m of line.matchAll(PS_RUNS)) {
      const joinBase = m[1];
      let raw = (m[2] !== undefined ? `${joinBase}/${m[2]}` : (m[3] ?? m[4] ?? m[5] ?? m[6] ?? m[7] ?? '')).replace(/\\/g, '/').trim();
      const root = /^\$(?:PWD|\{?env:(?:CLAUDE_PROJECT_DIR|CURSOR_PROJECT_DIR|GITHUB_WORKSPACE)\}?)(?:\/|$)/i;
      let bases: string[];
      if (/^\$PSScriptRoot(?:\/|$)/i.test(raw)) {
        bases = [dir];
        raw = raw.replace(/^\$PSScriptRoot\/?/i, '');
      } else if (root.test(raw)) {
        bases = [''];
        raw = raw.replace(root, '');
      } else if (/^(?:[A-Za-z]:|\/|\$|~)/.test(raw)) continue;
      else bases = [dir, ''];
      // A bare module name (`Import-Module PSReadLine`) is the gallery's, not a file of the checkout.
      if (raw === '' || (!/[/]/.test(raw) && !/\.ps[dm]?1$/i.test(raw))) continue;
      const base = raw.replace(/\/+$/, '').slice(raw.replace(/\/+$/, '').lastIndexOf('/') + 1);
      const candidates = /\.ps1$|\.psm1$/i.test(raw) ? [raw] : /\.psd1$/i.test(raw) ? [raw.replace(/\.psd1$/i, '.psm1'), raw] : [`${raw.replace(/\/+$/, '')}/${base}.psm1`, `${raw}.psm1`, `${raw}.ps1`];
      const hit = bases.flatMap((b) => candidates.map((c) => posix.normalize(posix.join(b, c)))).find((p) => !p.startsWith('..') && p !== path && exists(p));
      if (hit !== undefined && !out.includes(hit)) out.push(hit);
    }
  }
  return out;
}
