import type { Severity } from '@vigil/core';
import { encodedCommandPayload } from '../text/encoded-command.js';

export interface CommandSignal {
  category: string;
  severity: Severity;
  title: string;
}

/** Hosts a legitimate installer downloads from (registries, release hosting). */
export const TRUSTED_DOWNLOAD_HOSTS = /^(registry\.npmjs\.org|registry\.yarnpkg\.com|registry\.npmmirror\.com|npmmirror\.com|cdn\.npmmirror\.com|github\.com|api\.github\.com|objects\.githubusercontent\.com|codeload\.github\.com|raw\.githubusercontent\.com|nodejs\.org|files\.pythonhosted\.org|pypi\.org|download\.pytorch\.org|storage\.googleapis\.com|dl\.google\.com|releases\.hashicorp\.com|download\.docker\.com|cdn\.jsdelivr\.net|unpkg\.com|localhost|127\.0\.0\.1)$/i;

/** Flags an AI coding CLI gets to run without asking (Nx "s1ngularity", Aug 2025). */
export const AI_BYPASS_FLAG = /--dangerously-skip-permissions|--dangerously-bypass-approvals-and-sandbox|--yolo\b|--trust-all-tools|--allow-all-tools|--approval-mode[= ]yolo/;

const PIPE_TO_SHELL = /\b(curl|wget|fetch|iwr|invoke-webrequest|invoke-restmethod|irm)\b[^\n|;&]*\|\s*(sudo\s+)?(ba|z|da|k)?sh\b|\b(curl|wget)\b[^\n]*(;|&&)\s*(sudo\s+)?(ba|z|da)?sh\s+\S|\|\s*iex\b|\b(iex|invoke-expression)\s*\(/i;
const DECODE_TO_SHELL = /base64\s+(-d|--decode)[^\n]*\|\s*(ba|z|da)?sh\b|(^|\s)(ba)?sh\s+-c\s+["']?\$\(\s*echo\s+[A-Za-z0-9+/=]{16,}/i;
const ENCODED_POWERSHELL = /powershell(\.exe)?\b[^\n]*\s-(e|enc|encodedcommand)\s+[A-Za-z0-9+/=]{16,}|powershell(\.exe)?\b[^\n]*-w(indowstyle)?\s+hidden/i;
const LOLBIN = /\b(rundll32|regsvr32|mshta|certutil\s+-urlcache|bitsadmin\s+\/transfer|wscript|cscript)\b/i;
const DOWNLOAD_TOOL = /\b(curl|wget|iwr|invoke-webrequest|bitsadmin|certutil)\b/i;

// Decoded into a file (`base64 -d > /tmp/x.sh`), the file run next (`&& bash /tmp/x.sh`, `; . /tmp/x.sh`,
// `&& chmod +x /tmp/x.sh && /tmp/x.sh`): the pipe form's payload with one step between.
const DECODE_TO_FILE = /base64\s+(?:-d|--decode|-D)\b[^\n|;&>]*>\s*["']?([^\s"';&|]+)/gi;
function decodesToFileThenRuns(command: string): boolean {
  for (const m of command.matchAll(DECODE_TO_FILE)) {
    const file = (m[1] ?? '').replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    if (file === '') continue;
    const rest = command.slice((m.index ?? 0) + m[0].length);
    if (new RegExp(`(?:;|&&|\\|\\||\\n)\\s*(?:sudo\\s+)?(?:(?:ba|z|da)?sh\\s+|python3?\\s+|node\\s+|source\\s+|\\.\\s+)?["']?${file}(?:["'\\s;&|]|$)`).test(rest)) return true;
  }
  return false;
}

/** The hosts of the URLs in a text. */
export function urlHosts(text: string): string[] {
  const out: string[] = [];
  // An IPv6 literal is bracketed (`http://[fd00:ec2::254]/`): its colons are not a port's.
  const re = /\b(?:https?|ftp|wss?):\/\/(\[[0-9a-f:.]+\]|[^/\s"'`:?#)]+)/gi;
  for (let m = re.exec(text); m !== null; m = re.exec(text)) out.push((m[1] ?? '').toLowerCase().replace(/^\[(.*)\]$/, '$1'));
  return out;
}

/** A resolver tool whose argument holds a command substitution followed by more labels (`dig $(whoami).x.example`). */
const DNS_TOOL_SUBSTITUTION = /\b(?:nslookup|dig|drill|host|ping6?|getent\s+hosts)\b[^\n;&|]*?(?:\$\(([^)]*(?:\([^)]*\)[^)]*)*)\)|`([^`]*)`)[\w$(){}-]*\.[A-Za-z$`]/;
/** What a substituted command reads: the host's identity, files, the environment, secrets. */
const HOST_DATA = /\b(whoami|hostname|id|uname|pwd|cat|env|printenv|head|base64|xxd|od|hexdump|echo\s+\$|ls)\b|\$[A-Z_]*(USER|HOME|TOKEN|KEY|SECRET)/;
const SECRET_DATA = /\b(cat|env|printenv)\b|\$[A-Z_]*(TOKEN|KEY|SECRET|PASSWORD)|\.ssh|\.npmrc|\.env\b|credentials/i;

/**
 * What a shell command line (a lifecycle script, or a command given to exec) does that matters.
 * `own` tells hosts the package itself names in its metadata (a driver fetching from its vendor's
 * download site): downloads from them alone are reported low.
 */
/**
 * A read-write descriptor opened on a path (`exec 3<>"$target"`) and then a shell reading its
 * commands from that descriptor (`sh <&3 >&3`) or a loop running what it reads (`while read l <&3; do
 * $l …`): bash's socket redirection whatever the path is spelled as (`/dev/tcp/…` built from pieces).
 */
export const SHELL_ON_DESCRIPTOR = /\b([3-9])<>[^;&|\n]*[;&|\n][\s\S]*?(?:\b(?:ba|z|da|k)?sh\b[^\n;|&]*<&\s*\1\b|\bread\b[^\n;]*<&\s*\1\b)/;

// A raw IP address in a download is a host nobody named; one on this machine or its private network
// (a test server on 127.0.0.1, a build cache on 10.x) is not a download from the internet.
const LOCAL_IP = /^(?:127\.|10\.|192\.168\.|172\.(?:1[6-9]|2\d|3[01])\.|0\.0\.0\.0$)/;
function hasRemoteIp(command: string): boolean {
  for (const m of command.matchAll(/\b\d{1,3}(?:\.\d{1,3}){3}\b/g)) if (!LOCAL_IP.test(m[0])) return true;
  return false;
}

export function commandSignals(command: string, own?: (host: string) => boolean): CommandSignal[] {
  const out: CommandSignal[] = [];
  const hosts = urlHosts(command);
  const vendorOnly = own !== undefined && hosts.length > 0 && hosts.every((h) => own(h) || TRUSTED_DOWNLOAD_HOSTS.test(h)) && !hasRemoteIp(command);
  if (vendorOnly && DOWNLOAD_TOOL.test(command)) {
    out.push({ category: 'remote_code_execution', severity: 'LOW', title: 'Downloads and runs a file from the vendor’s own site (named in its metadata)' });
    command = command.replace(/\b(curl|wget|iwr|invoke-webrequest|invoke-restmethod|irm|fetch)\b/gi, 'download');
  }
  if (PIPE_TO_SHELL.test(command)) out.push({ category: 'remote_code_execution', severity: 'CRIT', title: 'Downloads a script and pipes it to a shell' });
  if (DECODE_TO_SHELL.test(command) || decodesToFileThenRuns(command)) out.push({ category: 'obfuscation', severity: 'CRIT', title: 'Decodes base64 and runs it in a shell' });
  if (ENCODED_POWERSHELL.test(command)) out.push({ category: 'obfuscation', severity: 'CRIT', title: 'Runs an encoded or hidden PowerShell command' });
  // Any other encoded literal handed to an interpreter (`python -c "exec(b64decode('…'))"`, `node -e`, layers of
  // base64, hex, gzip, zlib) is judged by the text it decodes to (encoded-command.ts).
  if (!out.some((o) => o.category === 'obfuscation')) {
    const payload = encodedCommandPayload(command);
    if (payload !== null) out.push({ category: 'obfuscation', severity: 'CRIT', title: 'Runs an encoded command that decodes to a download, a shell or code' });
  }
  if (LOLBIN.test(command)) out.push({ category: 'remote_code_execution', severity: 'CRIT', title: 'Runs a Windows system binary used to load payloads (rundll32, mshta, certutil…)' });
  if (AI_BYPASS_FLAG.test(command)) out.push({ category: 'excessive_permissions', severity: 'CRIT', title: 'Runs an AI coding CLI with its permission checks bypassed' });
  if (/\bnpm\s+publish\b/.test(command) && /(_authToken|NPM_TOKEN|npm\s+whoami|version)/i.test(command)) {
    out.push({ category: 'malware', severity: 'CRIT', title: 'Republishes packages with the npm token it finds' });
  }
  if (DOWNLOAD_TOOL.test(command)) {
    const untrusted = urlHosts(command).filter((h) => !TRUSTED_DOWNLOAD_HOSTS.test(h));
    if (untrusted.length > 0 || hasRemoteIp(command)) {
      out.push({ category: 'remote_code_execution', severity: 'HIGH', title: 'Downloads from a host that is not a package registry' });
    }
  }
  if (/\/dev\/(?:tcp|udp)\/|\bnc(at)?\b[^\n]*\s-e\s|\bbash\s+-i\s*>&|\bsocat\b[^\n]*exec:/i.test(command) || SHELL_ON_DESCRIPTOR.test(command)) out.push({ category: 'remote_code_execution', severity: 'CRIT', title: 'Opens a reverse shell' });
  if (/\b4[0-9AB][1-9A-HJ-NP-Za-km-z]{93}\b/.test(command) || /\bxmrig\b|stratum\+tcp:\/\/|--donate-level|\bminexmr\b|\bsupportxmr\b|\bnanopool\b|--rig-id\b/i.test(command)) out.push({ category: 'malware', severity: 'CRIT', title: 'Runs a cryptocurrency miner' });
  if (DOWNLOAD_TOOL.test(command) && /\s(-o|-O|--output)\s*\S+|>\s*\S+/.test(command) && /chmod\s+(\+x|[0-7]*[157]\b)|\.\/\S+/.test(command)) out.push({ category: 'remote_code_execution', severity: 'CRIT', title: 'Downloads a binary, makes it executable and runs it' });
  // DNS as a channel: the output of a command substituted into a name that is looked up reaches the name's server.
  const dns = DNS_TOOL_SUBSTITUTION.exec(command);
  // A name on the local network (`$(hostname).local`) does not leave it.
  const local = dns !== null && /^[^\s"']*\.(local|localhost|lan|internal|home\.arpa)\b/.test(command.slice(dns.index + dns[0].length - 2));
  if (dns !== null && !local && HOST_DATA.test(dns[1] ?? dns[2] ?? '')) {
    const secret = SECRET_DATA.test(dns[1] ?? dns[2] ?? '');
    out.push({ category: 'exfiltration', severity: secret ? 'CRIT' : 'HIGH', title: 'Puts command output (host identity or secrets) into a DNS name it looks up' });
  }
  if (/\brm\s+-rf?\s+(--no-preserve-root\s+)?(~|\$HOME|\/)(\s|$|\*)/.test(command)) out.push({ category: 'malware', severity: 'CRIT', title: 'Deletes the home or root directory' });
  return out;
}

/** Commands that write the file they are given, and where their target is. */
const SHELL_WRITERS = /^(?:sudo\s+)?(sed|perl|cp|mv|install|ln|tee|patch|cat|echo|printf)\b/;

/**
 * The other installed package a lifecycle command writes into, or null: `sed -i … ../express/lib/x.js`,
 * `cp hook.js ../axios/index.js`, `echo … >> node_modules/lodash/index.js`, `tee -a $(npm root -g)/x/cli.js`.
 * npm runs a lifecycle script in the package's own folder, so `..` is the `node_modules` that holds
 * the others (`../..` for a scoped package). `ownName` is the package's name (its own files are its own).
 */
export function shellPackagePatch(command: string, ownName: string): string | null {
  const own = ownName.toLowerCase();
  const depth = own.startsWith('@') ? 2 : 1;
  const other = (path: string): string | null => {
    const p = path.replace(/^['"]|['"]$/g, '');
    if (/\$\(npm root(?: -g)?\)\//.test(p)) return p;
    const under = /(?:^|\/)node_modules\/((?:@[\w.-]+\/)?[\w.-]+)\/\S/.exec(p);
    if (under !== null) return under[1]!.toLowerCase() === own || under[1]!.startsWith('.') ? null : p;
    const up = /^((?:\.\.\/)+)((?:@[\w.-]+\/)?[\w.-]+)\/\S/.exec(p);
    if (up === null || up[1]!.length / 3 !== depth) return null;
    const name = up[2]!.toLowerCase();
    return name === own || name === own.split('/').pop() || name.startsWith('.') ? null : p;
  };
  // `$(npm root -g)` names where packages live; kept one word so that splitting on spaces does not cut it.
  const roots: string[] = [];
  command = command.replace(/\$\(\s*npm\s+root(?:\s+-g)?\s*\)/g, (m) => `@@npmroot${roots.push(m.replace(/\s+/g, ' ')) - 1}@@`);
  const unroot = (p: string) => p.replace(/@@npmroot(\d+)@@/g, (_, i: string) => roots[Number(i)]!);
  for (const segment of command.split(/;|&&|\|\||\n/)) {
    const targets: string[] = [];
    for (const m of segment.matchAll(/>>?\s*(['"]?[^\s'";|&<>]+)/g)) targets.push(m[1]!);
    for (const part of segment.split('|')) {
      const words = part.trim().split(/\s+/).filter((w) => w !== '');
      const tool = SHELL_WRITERS.exec(part.trim())?.[1];
      if (tool === undefined) continue;
      const args = words.slice(words[0] === 'sudo' ? 2 : 1).filter((w) => !w.startsWith('-') && !/^>/.test(w));
      if (tool === 'tee' || tool === 'patch') targets.push(...args);
      else if ((tool === 'sed' || tool === 'perl') && /\s-[a-zA-Z]*i/.test(part)) targets.push(...args.slice(1));
      else if (tool === 'cp' || tool === 'mv' || tool === 'install' || tool === 'ln') targets.push(...args.slice(-1));
    }
    for (const t of targets) {
      const hit = other(unroot(t));
      if (hit !== null) return hit;
    }
  }
  return null;
}
