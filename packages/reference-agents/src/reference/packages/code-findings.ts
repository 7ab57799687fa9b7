import { DATA_FILE } from '../skills/shell-facts.js';
import type { AgentFinding, Severity } from '@vigil/core';
import { CLIPBOARD_WRITE, CREDENTIAL_PATH, SENSITIVE_LABELS, isChainSend, type CallFact, type CodeFacts } from '../code/code-facts.js';
import { CLI_CREDENTIAL_COMMAND, isCredentialService } from '../code/cli-credential-commands.js';
import { isNetworkCallee, javascriptFacts } from '../code/javascript/index.js';
import { isPythonNetworkCallee } from '../code/python-facts.js';
import { referenceFinding } from '../common/reference-finding.js';
import { isExecutableMode } from '../skills/written-file.js';
import { AI_BYPASS_FLAG, TRUSTED_DOWNLOAD_HOSTS, commandSignals, urlHosts } from './shell-command.js';
import { isShadyHost, ownHost, vendorOfEnvName, type PackageIdentity } from './package-identity.js';
import { decodedTexts } from '../text/encoded-command.js';
import { receivedDataIsCommand } from './received-command.js';
import { appFilesDeletion, webEntry } from './app-wipe.js';

export interface CodeContext {
  /** `/`-separated path in the artifact. */
  file: string;
  /** The file runs when the package is installed (a lifecycle script's target, setup.py). */
  installTime: boolean;
  /**
   * Parses decoded strings that look like code and analyzes them too (one level deep), so
   * `eval(atob('…'))` is judged by what it runs. Default true.
   */
  decodeCode?: boolean;
  /** Re-parses decoded code (injected to keep this module free of the parsers). */
  reparse?: (code: string, language: CodeFacts['language']) => CodeFacts;
  /** The package's name and the sites its own metadata names (a vendor downloading from its own site). */
  identity?: PackageIdentity;
  /** The file's text names a telemetry opt-out (`DO_NOT_TRACK`, `<TOOL>_TELEMETRY`, "opt out"). */
  telemetrySwitch?: boolean;
  /**
   * The file runs as a coding agent's hook of the checkout (with `installTime`): on the user's own
   * agent events, for the user's workflow. A token sent to its service and a notification to a chat
   * webhook are what such hooks do; they are judged as run-time code, not as an install script.
   */
  agentHook?: boolean;
}

/** Tests, examples, benchmarks and vendored code: shipped, but not what a consumer's program loads. */
export const SIDE_FILE = /(^|\/)(node_modules|tests?|__tests__|testing|spec|bench|benchmarks?|examples?|samples?|demos?|docs?|scripts|vendor(ed)?|third_party)\/|(^|\/)(test_[^/]*|[^/]*_test|conftest)\.py$|\.(test|spec)\.[cm]?js$/;
/** A benchmark, example or demo script named as one (`bench.js`, `benchmark-parse.js`, `example.py`), wherever it sits. */
const SIDE_SCRIPT = /(^|\/)(bench(mark)?s?|perf|examples?|demos?)([._-][\w.-]*)?\.([cm]?[jt]s|py)$/i;
/** Files a process starts by itself: shell startup files, the Windows Startup folder, macOS launch agents, XDG autostart, systemd user units, Run keys. */
export const AUTOSTART = /(^|[\\/])\.(bashrc|zshrc|bash_profile|profile|zprofile|zshenv)$|Start Menu[\\/]Programs[\\/]Startup|[\\/]LaunchAgents([\\/]|$)|\.config[\\/]autostart|\.config[\\/]systemd[\\/]user|CurrentVersion[\\/]Run(Once)?\b|\/etc\/cron|\/etc\/rc\.local|\/etc\/systemd\/system/i;
const INJECTION_CALL = /(^|\.)(WriteProcessMemory|CreateRemoteThread|VirtualAllocEx|NtCreateThreadEx|QueueUserAPC|SetWindowsHookExA?W?|RtlCreateUserThread)$/;
const PRELOAD = /\b(LD_PRELOAD|DYLD_INSERT_LIBRARIES)=/;
const SCREEN_CAPTURE = /^(PIL\.ImageGrab\.grab|ImageGrab\.grab|pyautogui\.screenshot|pyscreenshot\.grab|mss\.mss|mss\.\?\.grab|d3dshot\.create|screenshot-desktop(\.\w+)?|desktopCapturer\.getSources|electron\.desktopCapturer\.getSources)$/;
const CRYPTO_ADDRESS_PATTERN = /\[13\]\[a-km-zA-HJ-NP|\^?\(?bc1|0x\[a-fA-F0-9\]\{40\}|\^?[0O]x\[a-fA-F|\b(bitcoin|ethereum|monero|wallet) address/i;

// Bare `spawn`/`Popen`… that no import resolves are still process runners (their import is out of
// reach: a dynamic require, a star import, a snippet); no other API has these names.
// `@actions/exec` (`exec.exec`, `exec.getExecOutput`) is how a JavaScript action runs a command; in an
// ncc bundle its module is required by number, so the receiver's name is what is left of it.
export const EXEC_CALLEE = /^(child_process\.(exec|execSync|spawn|spawnSync|execFile|execFileSync|fork)|@actions\/exec\.(exec|getExecOutput)|exec\.(exec|getExecOutput)|execa(\.\w+)?|cross-spawn(\.sync)?|shelljs\.exec|os\.(system|popen|spawn\w*|exec\w*|startfile)|subprocess\.(run|call|check_call|check_output|Popen|getoutput|getstatusoutput)|commands\.getoutput|pty\.spawn|spawn|spawnSync|execSync|execFile|execFileSync|Popen|check_output|check_call)$/;
/** A media or binary data file named in code (`logo.png`, `icons.woff2`, `plurals.dat`): what a polyglot carries a payload in. */
const DATA_FILE_NAME = new RegExp(`^${DATA_FILE}$`, 'i');
export const EVAL_CALLEE = /^(eval|Function|vm\.(runInThisContext|runInNewContext|runInContext|compileFunction|Script)|module\._compile|exec|compile|execfile|builtins\.exec|builtins\.eval)$/;
/** Shell commands that delete everything in the current directory: `rm -rf *`, `rm -rf .`, `rm -rf ./*`, `rd /s /q .`, `del /f /s /q *`. */
const WIPES_WORKING_DIRECTORY = /(?:^|[\s;&|])rm\s+(?:-[a-zA-Z]*[rR][a-zA-Z]*\s+)+(?:--\s+)?(?:\.\/?\*?|\*|\.\/\.?\*)(?=\s|$|;|&)|(?:^|[\s;&|])(?:rd|rmdir)\s+(?:\/[sq]\s+){2}(?:\.|\*|\.\\\*)(?=\s|$)|(?:^|[\s;&|])del\s+(?:\/[fsq]\s+)+\*(?:\.\*)?(?=\s|$)/i;
const DROPPER = 'Downloads a program, makes it executable and starts it hidden in the background';
export const WRITE_CALLEE = /^(fs\.(writeFileSync|writeFile|createWriteStream|promises\.writeFile|copyFileSync|renameSync)|fs\.promises\.writeFile|open|urllib\.request\.urlretrieve|shutil\.copyfileobj|pathlib\.Path\.write_bytes|\?\.write_bytes)$/;
const CHMOD_CALLEE = /^(fs\.(chmodSync|chmod|promises\.chmod)|os\.chmod)$/;
export const DESTRUCTIVE_CALLEE = /^(fs\.(rmSync|rmdirSync|unlinkSync|rm|rmdir|unlink|promises\.rm)|rimraf(\.sync)?|shutil\.rmtree|os\.remove|os\.unlink)$/;
const CHAT_WEBHOOK = /discord(?:app)?\.com\/api\/webhooks\/\d+\/[\w-]+|hooks\.slack\.com\/services\/T\w+\/B\w+\/\w+|api\.telegram\.org\/bot\d+:[\w-]+/i;
/** One part of a webhook address that no service issues: one character repeated, four times or more (`T00000000`, `XXXX…`), or a word in capitals asking to fill it in (`YOUR_TOKEN`, `REPLACE_ME`). */
const PLACEHOLDER_PART = /^(?:(.)\1{3,}|[A-Z_]*(?:YOUR|HERE|EXAMPLE|PLACEHOLDER|REPLACE|CHANGE_?ME|TOKEN|WEBHOOK|SECRET)[A-Z_]*)$/;
/**
 * (round s31b) A chat webhook written as a placeholder (documentation, fixtures, config templates): a Slack
 * team or channel id or secret, a Discord webhook id or token, or a Telegram bot id or token that is one
 * character repeated (four times or more) or a capitalised fill-in word. No service issues such an address, so nothing
 * can be posted to it: it is not reported as a hard-coded webhook. (Where a send goes it still counts as a chat webhook:
 * a hook notifying a placeholder is still a notification, secrets posted to one still go to a throwaway host.)
 */
export function isPlaceholderWebhook(url: string): boolean {
  const slack = /hooks\.slack\.com\/services\/T(\w+)\/B(\w+)\/(\w+)/i.exec(url);
  const parts = slack !== null ? slack.slice(1) : (/discord(?:app)?\.com\/api\/webhooks\/(\d+)\/([\w-]+)/i.exec(url) ?? /api\.telegram\.org\/bot(\d+):([\w-]+)/i.exec(url))?.slice(1);
  return parts !== undefined && parts.some((p) => p !== undefined && PLACEHOLDER_PART.test(p));
}
export const BROWSER_STORE = /((^|[\\/])(Login Data|Local State|Cookies|Web Data)$|Local Storage[\\/]leveldb|wallet\.dat|Exodus|\.electrum|Ethereum[\\/]keystore|\.config[\\/]solana[\\/]id\.json|nkbihfbeogaeaoehlefnkodbefgpgknn|bfnaelmomeimhlpmgjnjophhpkkoljpa|hnfanknocfeofbddgcijnmhnfnkdnaad|Atomic[\\/]Local Storage)/i;
 /** Where an npm or PyPI client legitimately sends its registry credentials. */
const CREDENTIAL_DESTINATIONS = /^(registry\.npmjs\.org|registry\.yarnpkg\.com|npm\.pkg\.github\.com|upload\.pypi\.org|pypi\.org|test\.pypi\.org|localhost|127\.0\.0\.1)$/i;
/** Name lookups: what is in the name reaches the domain's DNS server. */
const DNS_LOOKUP = /^(socket\.(gethostbyname|gethostbyname_ex|getaddrinfo|gethostbyaddr)|dns\.resolver\.(query|resolve)|dns\.resolver\.Resolver\.(query|resolve)|aiodns\.DNSResolver\.(query|gethostbyname)|dns\.(lookup|resolve\w*|promises\.(lookup|resolve\w*)|Resolver\.resolve\w*))$/;
/** A DNS query method by its record type, whatever the resolver object is called. */
const DNS_RECORD_METHOD = /(^|\.)resolve(4|6|Txt|Any|Cname|Mx|Ns|Srv|Soa|Ptr|Naptr|Caa)$/;
/** Browser globals a page script replaces to read or redirect what the page sends (judged apart from library hooks). */
const BROWSER_HOOK = /^(fetch|XMLHttpRequest\.|ethereum|solana)/;
/** A shell program started as a process. */
const SHELL_PROGRAM = /^(?:\/(?:usr\/)?bin\/)?(?:ba|z|da|k|c|tc|fi)?sh(?:\s+-i)?$|^(?:cmd|cmd\.exe|powershell|powershell\.exe|pwsh)$/i;
/** Opening a network connection from the code itself. */
const SOCKET_OPEN = /^(net\.(connect|createConnection|Socket)|tls\.connect|socket\.socket|socket\.create_connection|\?\.connect)$/;
/** The instance metadata services of AWS/Azure/OpenStack (169.254.169.254), ECS tasks, GCP and Alibaba Cloud. */
export const METADATA_SERVICE = /(^|[/@.]|\b)(169\.254\.169\.254|169\.254\.170\.2|fd00:ec2::254|metadata\.google\.internal|100\.100\.100\.200)\b/i;
/** Where they serve credentials: role credentials, service-account and managed-identity tokens. */
const METADATA_CREDENTIAL_PATH = /security-credentials|service-accounts\/[^/]*\/(token|identity)|identity\/oauth2\/token|\/latest\/api\/token|AWS_CONTAINER_CREDENTIALS_RELATIVE_URI|ram\/security-credentials/i;
/** A cloud provider's own API hosts: where an SDK legitimately uses the instance's credentials. */
export const CLOUD_API_HOST = /(^|\.)(amazonaws\.com(\.cn)?|aws\.amazon\.com|googleapis\.com|google\.com|azure\.com|azure\.net|windows\.net|microsoftonline\.com|microsoft\.com|aliyuncs\.com|oraclecloud\.com)$/i;
const GEO_IP = /(ipgeolocation|ip-api\.|ipinfo\.|ipapi\.|geoip|freegeoip|ip2location)/i;
const ETH_ADDRESS = /^0x[a-fA-F0-9]{40}$/;
const BTC_ADDRESS = /^(bc1[a-z0-9]{25,59}|[13][a-km-zA-HJ-NP-Z1-9]{25,34})$/;
const SUSPICIOUS_DECODED = /(child_process|require\s*\(|\beval\b|\bexec\b|https?:\/\/|powershell|\/bin\/(ba)?sh|\bcurl\b|\bwget\b|process\.env|os\.environ|subprocess|socket|__import__|\.npmrc|\.ssh|os\.(?:system|popen|dup2)|pty\.spawn|\/dev\/tcp\/|\bbash\s+-i\b|\bnc\s+-e\b)/i;

const DIGEST_CALLEE = /^(crypto\.createHash|hashlib\.(sha256|sha384|sha512|new)|hashlib\.file_digest)$/;
const PINNED_DIGEST = /^(?:[a-f0-9]{64}|[a-f0-9]{96}|[a-f0-9]{128}|(?:sha256|sha384|sha512)-[A-Za-z0-9+/]{43,86}={0,2})$/i;
const CHECKSUM_FILE = /(^|[/.])(checksums?|SHASUMS\d*|sha256sums?|hashes|integrity)(\.(json|txt|sha256))?$|\.sha(256|512)$/i;

/**
 * Evidence that what the file downloads is checked against a digest it carries: a SHA-2 hash is
 * computed and a digest literal or a checksums file of the package is there to compare with.
 */
function verifiesPinnedDigest(facts: CodeFacts): string | null {
  const hash = facts.calls.find((c) => DIGEST_CALLEE.test(c.callee) && (c.callee !== 'crypto.createHash' && c.callee !== 'hashlib.new' ? true : c.args.some((a) => a !== null && /^sha(256|384|512)$/i.test(a))));
  if (hash === undefined) return null;
  const pinned = facts.strings.find((s) => PINNED_DIGEST.test(s.value.trim()) || CHECKSUM_FILE.test(s.value.trim()));
  return pinned === undefined ? null : `${hash.callee}(…) against ${pinned.value.slice(0, 80)}`;
}

/**
 * Where a path built from the file's directory (`$DIR/../../other/x.js`) lands outside the package:
 * the name of the directory it enters there (an installed package beside this one, the project),
 * or null when it stays inside (`scripts/` → `../dist`) or cannot be told.
 */
export function outsidePackage(path: string | undefined, file: string, ownName: string, installTime = true): string | null {
  if (path === undefined) return null;
  // `$CWD` is the package's own directory only while npm runs its install scripts.
  const fromCwd = path.startsWith('$CWD');
  if (!path.startsWith('$DIR') && !(fromCwd && installTime)) return null;
  // The package sits at <project>/node_modules/<name> (or node_modules/@scope/<name>): resolve the
  // path from there and see whether it lands in another package of a node_modules.
  const home = ['<project>', 'node_modules', ...(ownName.startsWith('@') ? ownName.split('/') : [ownName === '' ? '<self>' : ownName])];
  const stack = [...home, ...(fromCwd ? [] : file.split('/').slice(0, -1))];
  for (const seg of path.slice(4).split('/')) {
    if (seg === '' || seg === '.') continue;
    if (seg !== '..') stack.push(seg);
    else if (stack.pop() === undefined) return null;
  }
  if (stack.length >= home.length && home.every((s, i) => stack[i] === s)) return null;
  const at = stack.lastIndexOf('node_modules');
  const first = at === -1 ? undefined : stack[at + 1];
  // Further up is the project (its `.git`, its config), which other rules judge.
  if (first === undefined || /^\.(cache|bin|vite|tmp|pnpm)$/.test(first)) return null;
  // A name found at run time (`for (const name of readdirSync(dir)) … join(dir, name, 'index.js')`): every sibling in turn.
  if (first.includes('?')) return stack.length > at + 2 ? 'the packages beside it (names found at run time)' : null;
  const name = first.startsWith('@') ? (stack[at + 2] === undefined || stack[at + 2]!.includes('?') ? null : `${first}/${stack[at + 2]}`) : first;
  return name === null || name === ownName || name === ownName.split('/').pop() ? null : name;
}

/**
 * A string that is code meant to run inside another package once written there: a module load, a
 * request, a process, an evaluation, or a security check turned off.
 */
export const PLANTED_CODE = /\brequire\s*\(\s*['"`]|^\s*import\s+[\w{*]|\bimport\s+(?:urllib|requests|socket|subprocess|os|base64)\b|\bchild_process\b|\b(?:https?\.(?:get|request)|fetch|urlopen|eval|exec|execSync|spawn|system|popen)\s*\(|\brejectUnauthorized\s*:\s*false|\bverify\s*=\s*False|\{\s*return\s+true\s*;?\s*\}/m;

/** Raises a finding's severity one step for code that runs at install time. */
export const WORKER_BLOB_TITLE = 'Ships a worker script as an encoded blob (the decoded code, read on its own, has no finding, runs no process and evaluates nothing)';

/**
 * (round s30, real false alarms) @sentry/node ships its ANR and local-variables worker scripts
 * base64-encoded and starts them as `new Worker(new URL('data:application/javascript;base64,…'))`:
 * a bundling choice, read in plain sight. True when the file starts a Worker, and the decoded code,
 * analysed on its own, has no finding above LOW, starts no process and evaluates no code: a blob
 * whose code sends data to a fixed host, reads secrets, spawns or evals stays HIGH.
 */
function plainWorkerScript(facts: CodeFacts, decoded: string, ctx: CodeContext): boolean {
  if (ctx.reparse === undefined || !facts.calls.some((c) => /(^|\.)Worker$/.test(c.callee))) return false;
  const inner = ctx.reparse(decoded, facts.language);
  if (inner.calls.some((c) => EXEC_CALLEE.test(c.callee) || EVAL_CALLEE.test(c.callee) || /(^|\.)(Worker|fork)$/.test(c.callee))) return false;
  return codeFindings(inner, { ...ctx, decodeCode: false }).every((f) => f.severity === 'LOW');
}

export const OWN_PROGRAM_DOWNLOAD = 'Downloads the package’s own program from a host its metadata does not name and makes it executable (runs nothing)';

/**
 * (round s30, real false alarms) A binary wrapper fetching its own program (ngrok's installer: the
 * host `bin.equinox.io` is its vendor's CDN, named nowhere in its metadata, the file
 * `/c/…/ngrok-stable-linux-amd64.zip`): the download's file name is the package's own name, the
 * host is https and no tunnel, paste or drop site, and the file runs nothing — it only makes the
 * download executable for the user to run through the package. Returns the string naming the
 * package's file, or null. A dropper runs what it fetched, names an unrelated file, or uses a plain
 * http, IP or shady host: those stay the non-registry download.
 */
export function ownProgramDownload(facts: CodeFacts, url: string, execCount: number, identity: PackageIdentity | undefined): string | null {
  const name = identity?.name ?? '';
  if (execCount > 0 || name.length < 4 || !/^https:\/\//i.test(url.trim()) || urlHosts(url).some((h) => isShadyHost(h))) return null;
  const named = facts.strings.find((s) => {
    const v = s.value.trim().toLowerCase();
    if (v.length > 300 || !v.includes(name)) return false;
    const i = v.indexOf(name);
    // The name as a file name: after a slash or at the start, followed by a separator of platform words.
    return (i === 0 || v[i - 1] === '/') && /^[-_.]/.test(v.slice(i + name.length)) && (v.includes('/') || /\.(zip|tar\.gz|tgz|tar\.xz)$/.test(v));
  });
  return named?.value ?? null;
}

function atInstall(severity: Severity, installTime: boolean): Severity {
  if (!installTime) return severity;
  return severity === 'LOW' ? 'MED' : severity === 'MED' ? 'HIGH' : 'CRIT';
}

export function networkCallee(facts: CodeFacts, callee: string): boolean {
  return facts.language === 'javascript' ? isNetworkCallee(callee) : isPythonNetworkCallee(callee);
}

/** One-way digests (a value hashed is no longer readable as what it was). */
const IDENTITY_DIGEST = /^hashlib\.|(?:^|\.)(?:createHash|sha1|sha224|sha256|sha384|sha512|md5|blake2[bs]|hexdigest|digest)$/;
/** A telemetry switch: the variables and settings CLIs honour to turn telemetry off. */
export const TELEMETRY_OPT_OUT = /DO_NOT_TRACK|TELEMETRY_(?:DISABLED?|OPT_?OUT)|(?:NO|DISABLE)_TELEMETRY|\w+_TELEMETRY\b|telemetry\s*[:=]\s*false|opt[\s_-]?out/i;

/** The call sends over the network: a network API, a write on a network channel, or a blockchain send or node request. */
export function networkCall(facts: CodeFacts, c: CallFact): boolean {
  return networkCallee(facts, c.callee) || c.onChannel || isChainSend(c);
}

function commandText(call: CallFact): string {
  // A literal argument is also among the argument strings: each once, so evidence never repeats.
  return [...new Set([...call.args.filter((a): a is string => a !== null), ...call.argStrings])].join(' ');
}

/** The file names a cloud metadata service and one of its credential paths (instance or workload credentials). */
export function readsInstanceCredentials(facts: CodeFacts): boolean {
  const all = facts.strings.map((s) => s.value);
  return all.some((v) => METADATA_SERVICE.test(v)) && all.some((v) => METADATA_CREDENTIAL_PATH.test(v));
}

/**
 * The file sends data (a network call) and names a URL on a host that is neither the package's own
 * nor a registry or code host: where what it is handed ends up is fixed by the code.
 */
export function sendsToFixedHost(facts: CodeFacts, identity: PackageIdentity | undefined): boolean {
  if (!facts.calls.some((c) => networkCall(facts, c))) return false;
  // The metadata service is on the machine's own link: asking it is a read, not a send; a cloud's own APIs are where its credentials belong.
  const fixed = (x: string) => !ownHost(x, identity) && !TRUSTED_DOWNLOAD_HOSTS.test(x) && !METADATA_SERVICE.test(x) && !CLOUD_API_HOST.test(x) && !/^(localhost|127\.0\.0\.1|::1|0\.0\.0\.0)$/i.test(x);
  // A request's `hostname`/`host` option names its destination as surely as a URL does.
  const optionHosts = facts.calls.filter((c) => networkCallee(facts, c.callee)).flatMap((c) => [c.options.hostname, c.options.host].filter((h): h is string => h !== undefined && /^[a-z0-9-]+(\.[a-z0-9-]+)+$/i.test(h)));
  return optionHosts.some(fixed) || facts.strings.some((s) => /^(https?|wss?):\/\//i.test(s.value.trim()) && urlHosts(s.value).slice(0, 1).some(fixed));
}

/** Findings from the facts of one code file of a package. */
export function codeFindings(facts: CodeFacts, ctx: CodeContext): AgentFinding[] {
  const out: AgentFinding[] = [];
  const push = (category: string, severity: Severity, title: string, line: number | undefined, evidence?: string) =>
    out.push(referenceFinding({ category, severity, title, file: ctx.file, line, evidence }));
  const install = ctx.installTime;
  // A coding agent's hook sends tokens and notifications as run-time code does (credentials to a fixed host stay CRIT).
  const hook = install && ctx.agentHook === true;
  const sendsAtInstall = install && !hook;

  const sendsData = facts.calls.filter((c) => networkCall(facts, c));
  const hasNetwork = sendsData.length > 0 || facts.imports.some((i) => networkCallee(facts, i.module));
  const allStrings = facts.strings.map((s) => s.value);
  const urlStrings = allStrings.filter((s) => /^(https?|wss?|ftp):\/\//i.test(s.trim()));

  // Sensitive data reaching the network (data flow through variables, JSON, templates, request
  // bodies). Where it goes matters: an npm client sends the .npmrc token to the registry.
  const hostArgs = sendsData.flatMap((c) => c.args.filter((a): a is string => a !== null && /^[a-z0-9-]+(\.[a-z0-9-]+)+$/i.test(a) && !/\.(js|json|py|txt|html?)$/i.test(a)));
  const destinations = [...urlStrings.flatMap(urlHosts), ...hostArgs, ...facts.calls.flatMap((c) => [c.options.hostname, c.options.host].filter((h): h is string => h !== undefined && /^[\w.-]+$/.test(h)))];
  const onlyRegistries = destinations.length > 0 && destinations.every((h) => CREDENTIAL_DESTINATIONS.test(h));
  // The host name in a User-Agent header is how a client names itself to the API it calls (`@vercel/oidc
  // node-20 linux (x64) my-laptop`); at install time or towards a shady host it is reported as host identity.
  const shadyDestination = destinations.some((h) => isShadyHost(h)) || urlStrings.some((u) => CHAT_WEBHOOK.test(u));
  // Opt-out telemetry that counts installs by a one-way digest of the host and user names, sent only to
  // the package's own hosts: an identifier of the package's own, not the machine's identity sent away.
  const hashesIdentity = facts.calls.some((c) => c.argLabels.includes('hostinfo') && (IDENTITY_DIGEST.test(c.callee) || (/(^|\.)update$/.test(c.callee) && facts.calls.some((h) => h.line === c.line && /(^|\.)createHash$/.test(h.callee)))));
  const ownTelemetry = hashesIdentity && (ctx.telemetrySwitch === true || TELEMETRY_OPT_OUT.test(facts.strings.map((s) => s.value).join('\n'))) && destinations.length > 0 && destinations.every((h) => ownHost(h, ctx.identity));
  // The commands as written, as joined strings, and as each call's arguments (`execFileSync('gh', ['auth', 'token'])`).
  const commandTexts = [...allStrings, allStrings.join(' '), ...facts.calls.map((c) => [...c.args.map((a) => a ?? ''), ...c.argStrings].join(' '))];
  const cliCommands = [...new Set(commandTexts.map((v) => CLI_CREDENTIAL_COMMAND.exec(v)?.[0]).filter((v): v is string => v !== undefined))];
  const credentialFiles = allStrings.some((v) => CREDENTIAL_PATH.test(v));
  for (const c of sendsData) {
    const inUserAgent = c.argLabels.includes('uahost');
    if (ownTelemetry && c.argLabels.every((l) => l === 'hostinfo' || !SENSITIVE_LABELS.includes(l))) {
      push('exfiltration', 'LOW', 'Sends a hashed host and user identifier to its own telemetry host (opt-out in the code)', c.line, `${c.callee}(…) to ${destinations.slice(0, 2).join(', ')}`);
      continue;
    }
    const sensitive = [...c.argLabels.filter((l) => SENSITIVE_LABELS.includes(l)), ...(inUserAgent && (install || shadyDestination) && !c.argLabels.includes('hostinfo') ? (['hostinfo'] as const) : [])];
    if (sensitive.length === 0) {
      if (inUserAgent) push('exfiltration', 'LOW', 'Names the host in the User-Agent header of its requests', c.line, `${c.callee}(…) sends the host name in its User-Agent header`);
      continue;
    }
    const credentials = sensitive.some((l) => l !== 'hostinfo');
    // A CLI's stored token (`gh auth token`) sent only to that CLI's service is the token's use (r16).
    if (sensitive.length === 1 && sensitive[0] === 'secret' && cliCommands.length > 0 && !credentialFiles && destinations.length > 0 && destinations.every((h) => isCredentialService(h, cliCommands))) {
      push('exfiltration', 'LOW', 'Sends a command-line tool’s stored token to that tool’s own service', c.line, `${cliCommands[0]} to ${destinations.slice(0, 2).join(', ')}`);
      continue;
    }
    if (onlyRegistries) {
      push('exfiltration', 'LOW', 'Sends credentials to a package registry', c.line, `${c.callee}(…) sends ${sensitive.join(', ')} data`);
      continue;
    }
    const known = destinations.length > 0 || install;
    // A hook's notification naming the project or host, posted to a chat webhook only.
    const notification = hook && !credentials && urlStrings.length > 0 && urlStrings.every((u) => CHAT_WEBHOOK.test(u));
    push(
      'exfiltration',
      credentials ? (known ? 'CRIT' : 'HIGH') : notification ? 'LOW' : atInstall(known ? 'HIGH' : 'MED', sendsAtInstall),
      credentials ? 'Credentials or the environment flow to a network call' : 'Host identity (host name, user) flows to a network call',
      c.line,
      `${c.callee}(…) sends ${sensitive.join(', ')} data`,
    );
  }
  // DNS as a channel: secrets or host identity written into a name that is looked up reach whoever
  // serves that domain, through any resolver and most firewalls.
  const leaked = (c: CallFact) => c.argLabels.filter((l) => l === 'envtoken' || SENSITIVE_LABELS.includes(l));
  // A resolver instance (`new dns.promises.Resolver()`, `new Resolver()`) is called by its own name: record-type methods are DNS's alone.
  const importsDns = facts.imports.some((i) => /^(node:)?dns(\/promises)?$/.test(i.module)) || facts.calls.some((c) => c.callee === 'require' && /^(node:)?dns(\/promises)?$/.test(c.args[0] ?? ''));
  const dnsLeak = facts.calls.find((c) => (DNS_LOOKUP.test(c.callee) || (importsDns && DNS_RECORD_METHOD.test(c.callee))) && leaked(c).length > 0);
  if (dnsLeak !== undefined) {
    const credentials = leaked(dnsLeak).some((l) => l !== 'hostinfo');
    push('exfiltration', credentials ? 'CRIT' : atInstall('HIGH', install), 'Puts secrets or host identity into a DNS name it looks up', dnsLeak.line, `${dnsLeak.callee}(…) carries ${leaked(dnsLeak).join(', ')} data`);
  }
  // One named secret variable sent out: SDKs send their own key to their own API, so what matters
  // is where it goes (a host unrelated to the variable's service, a shady host, or install time).
  const tokenSends = sendsData.filter((c) => c.argLabels.includes('envtoken') && !c.argLabels.some((l) => SENSITIVE_LABELS.includes(l)));
  if (tokenSends.length > 0 && !onlyRegistries) {
    const names = [...new Set(facts.secretEnvNames.map((e) => e.name))];
    const related = (h: string) => ownHost(h, ctx.identity) || TRUSTED_DOWNLOAD_HOSTS.test(h) && !/^(raw\.githubusercontent\.com|storage\.googleapis\.com)$/i.test(h);
    const shady = destinations.filter((h) => isShadyHost(h) || CHAT_WEBHOOK.test(h));
    const mismatched = names.filter((n) => {
      const v = vendorOfEnvName(n);
      // A file that talks to many hosts (a bundle, a multi-service client) is not a targeted send.
      return v !== null && destinations.length > 0 && new Set(destinations).size <= 3 && !destinations.some((h) => v.host.test(h.toLowerCase())) && !(ctx.identity?.words.includes(v.vendor) ?? false);
    });
    const c = tokenSends[0]!;
    const evidence = `${c.callee}(…) sends ${names.slice(0, 3).join(', ') || 'a secret variable'} to ${destinations.slice(0, 2).join(', ') || 'the network'}`;
    // A hook's file that names a chat webhook posts its tokens there (the host test above reads host names, not webhook URLs).
    const toWebhook = hook && urlStrings.some((u) => CHAT_WEBHOOK.test(u));
    if (shady.length > 0 || toWebhook || (sendsAtInstall && (mismatched.length > 0 || destinations.some((h) => !related(h))))) push('exfiltration', 'CRIT', 'A secret environment variable is sent to an unrelated or throwaway host', c.line, evidence);
    else if (mismatched.length > 0 || (hook && destinations.some((h) => !related(h)))) push('exfiltration', 'HIGH', 'A secret environment variable is sent to a host of another service', c.line, evidence);
    else if (sendsAtInstall) push('exfiltration', 'HIGH', 'Install-time code sends a secret environment variable', c.line, evidence);
  }
  for (const s of facts.strings) {
    // A hook posting its notifications there is the hook's purpose, unless credentials go out too.
    if (CHAT_WEBHOOK.test(s.value) && !isPlaceholderWebhook(s.value)) push('exfiltration', hook && !sendsData.some((c) => c.argLabels.some((l) => l === 'envtoken' || (SENSITIVE_LABELS.includes(l) && l !== 'hostinfo'))) ? 'LOW' : 'HIGH', 'Hard-coded chat-service webhook (Discord, Slack, Telegram)', s.line, s.value.slice(0, 200));
  }

  // Credential and wallet stores.
  const reads = facts.calls.some((c) => /readFile|readdir|createReadStream|^open$|read_text|glob|walk|listdir|scandir|copyFile|copyfile/.test(c.callee));
  // Path parts given separately (`path.join(appData, 'Local Storage', 'leveldb')`) name a browser store too.
  const parts = new Set(allStrings);
  const browserParts = parts.has('Local Storage') && parts.has('leveldb') ? facts.strings.filter((s) => s.value === 'Local Storage') : [];
  // Module specifiers are not paths (`require('@exodus/bytes')` names a package scope, not the Exodus wallet).
  const specifiers = new Set(facts.imports.map((i) => i.module));
  const pathLike = (v: string) => !specifiers.has(v) && !/^@[\w.-]+\/[\w./-]+$/.test(v);
  const stores = [...facts.strings.filter((s) => (CREDENTIAL_PATH.test(s.value) || BROWSER_STORE.test(s.value)) && pathLike(s.value)), ...browserParts];
  if (stores.length > 0 && reads) {
    const browser = stores.filter((s) => BROWSER_STORE.test(s.value) || s.value === 'Local Storage');
    if (browser.length >= 2 || (browser.length >= 1 && hasNetwork)) {
      push('credential_access', 'HIGH', 'Reads browser profiles or crypto-wallet stores', browser[0]!.line, browser.map((s) => s.value).slice(0, 5).join(', '));
    } else if (hasNetwork) {
      push('credential_access', atInstall('MED', install), 'Reads credential files in code that uses the network', stores[0]!.line, stores.map((s) => s.value).slice(0, 5).join(', '));
    } else {
      push('credential_access', 'LOW', 'Reads credential files', stores[0]!.line, stores[0]!.value.slice(0, 200));
    }
  }
  for (const d of facts.envDumps.slice(0, 1)) push('credential_access', hasNetwork ? atInstall('MED', install) : 'LOW', 'Serializes the whole environment', d.line, d.expression);

  // Dynamic code execution.
  for (const c of facts.calls) {
    if (!EVAL_CALLEE.test(c.callee)) continue;
    if (facts.language === 'javascript' && (c.callee === 'exec' || c.callee === 'compile' || c.callee === 'execfile')) continue;
    if (c.argLabels.includes('remote')) push('remote_code_execution', 'CRIT', 'Executes code received from the network', c.line, `${c.callee}(…)`);
    else if (c.argLabels.includes('decoded') && c.argLabels.includes('filedata')) {
      // A payload shipped as data (base64 in a font, a .dat, an asset's metadata) decoded and run: the code is kept out of the code files.
      // CRIT when the code names a media or binary data file (an image, a font, a .dat): such a file is never source.
      const carrier = facts.strings.find((x) => DATA_FILE_NAME.test(x.value));
      push('obfuscation', carrier !== undefined ? 'CRIT' : 'HIGH', 'Executes code decoded from a file it reads', c.line, `${c.callee}(…)${carrier !== undefined ? ` of ${carrier.value.slice(0, 80)}` : ''}`);
    } else if (c.directDecode) {
      push('obfuscation', atInstall('HIGH', install), 'Executes decoded data (eval/exec of base64, hex or char codes)', c.line, `${c.callee}(${(c.args[0] ?? '…').slice(0, 160)})`);
    } else if (c.argLabels.includes('decoded')) {
      push('obfuscation', atInstall('MED', install), 'Executes data decoded at run time', c.line, `${c.callee}(…)`);
    }
  }

  // Commands that arrive over the network (RATs, reverse shells written in code), or that exist only decoded.
  // Network data that only fills an argument of a fixed program (`moto_server -p <port>` on a port a socket
  // reported, `kill <pid>` a local server returned) is not a command it received (round s28: received-command.ts).
  for (const c of facts.calls) {
    if (EXEC_CALLEE.test(c.callee) && c.argLabels.includes('remote') && receivedDataIsCommand(c, facts.language)) push('remote_code_execution', 'CRIT', 'Runs commands received from the network', c.line, c.callee);
    else if (EXEC_CALLEE.test(c.callee) && (c.argLabels.includes('decoded') || c.directDecode)) push('obfuscation', atInstall('HIGH', install), 'Runs a command decoded at run time', c.line, c.callee);
  }

  // Packages installed into a dot-folder of the home directory at run time (`npm install socket.io-client
  // --prefix ~/.node-cache`): a program of its own kept out of sight and out of the project's lockfile.
  // A package manager runs here only for the code's own use, and changing PATH to that folder makes its programs win.
  const hiddenInstall = facts.calls.find((c) => EXEC_CALLEE.test(c.callee) && c.argLabels.includes('hiddenhome') && /\b(?:npm|pnpm|yarn|bun|npx|pip3?)\s+(?:i|install|add)\b/.test(commandText(c)));
  if (hiddenInstall !== undefined) push('malware', 'HIGH', 'Installs packages into a hidden folder of the home directory', hiddenInstall.line, commandText(hiddenInstall).slice(0, 200));

  // A process, code, network, host-identity or file API called through a constant computed name or
  // reflection: nothing but hiding the call from readers and scanners needs `cp['spawn'](…)`.
  for (const r of facts.reflectiveCalls.slice(0, 3)) push('obfuscation', SIDE_FILE.test(ctx.file) ? 'MED' : atInstall('HIGH', install), 'Calls a sensitive API through a computed name or reflection', r.line, `${r.expression} → ${r.callee} (${r.via})`);

  for (const d of facts.decodedNameCalls.slice(0, 1)) push('obfuscation', SIDE_FILE.test(ctx.file) ? 'MED' : atInstall('HIGH', install), 'Calls a method or loads a module whose name is decoded at run time', d.line, d.expression);

  // Names hidden by string building, decoded strings, mangling.
  for (const h of facts.hiddenNames.slice(0, 3)) push('obfuscation', atInstall('HIGH', install), 'Sensitive name hidden by string building', h.line, `${h.expression} → ${h.name}`);
  for (const s of facts.strings) {
    if (!s.decoded || s.value.length < 6) continue;
    if (SUSPICIOUS_DECODED.test(s.value)) {
      push('obfuscation', atInstall('HIGH', install), 'Decoded string reveals code, a command or a URL', s.line, s.value.slice(0, 300));
      break;
    }
  }
  if (ctx.decodeCode !== false && ctx.reparse !== undefined) {
    const seen = new Set<string>();
    for (const s of [...facts.strings.filter((x) => x.decoded), ...facts.strings.filter((x) => !x.decoded && x.value.length >= 200).map((x) => ({ ...x, value: decodeBlob(x.value) ?? '' }))]) {
      if (s.value.length < 12 || s.value.length > 200_000 || seen.has(s.value) || !SUSPICIOUS_DECODED.test(s.value) || !/[();=]/.test(s.value)) continue;
      seen.add(s.value);
      const inner = codeFindings(ctx.reparse(s.value, facts.language), { ...ctx, decodeCode: false });
      for (const f of inner) out.push({ ...f, title: `${f.title} (in decoded code)`, line: s.line });
      if (seen.size >= 8) break;
    }
  }
  for (const line of facts.stringArrayRotations.slice(0, 1)) push('obfuscation', atInstall('HIGH', install), 'String-array rotation of javascript-obfuscator output', line, 'an endless loop rotating an array (a.push(a.shift())) until a parseInt checksum matches');
  const mangledLine = facts.mangledFirstLine ?? undefined;
  if (facts.mangledIdentifiers >= 10) push('obfuscation', atInstall('HIGH', install), 'Obfuscator-style _0x identifiers', mangledLine, `${facts.mangledIdentifiers} distinct _0x… identifiers`);
  else if (facts.mangledIdentifiers >= 4) push('obfuscation', atInstall('MED', install), 'Obfuscator-style _0x identifiers', mangledLine, `${facts.mangledIdentifiers} distinct _0x… identifiers`);
  for (const s of facts.strings) {
    if (s.decoded || s.value.length < 400) continue;
    const decoded = decodeBlob(s.value);
    if (decoded !== null && SUSPICIOUS_DECODED.test(decoded) && /[;(){}=]/.test(decoded)) {
      // The same file evaluating what it decodes runs that code: the blob is its payload, not a fixture.
      const runs = facts.calls.find((c) => EVAL_CALLEE.test(c.callee) && !(facts.language === 'javascript' && /^(exec|compile|execfile)$/.test(c.callee)) && (c.directDecode === true || c.argLabels.includes('decoded')));
      if (runs !== undefined) push('obfuscation', 'CRIT', 'Runs code hidden in an encoded blob', runs.line, `${runs.callee}(…) of: ${decoded.slice(0, 200)}`);
      else if (install || !plainWorkerScript(facts, decoded, ctx)) push('obfuscation', atInstall('HIGH', install), 'Long encoded blob that decodes to code', s.line, decoded.slice(0, 200));
      else push('obfuscation', 'LOW', WORKER_BLOB_TITLE, s.line, decoded.slice(0, 200));
      break;
    }
  }

  // Process execution.
  const execCalls = facts.calls.filter((c) => EXEC_CALLEE.test(c.callee));
  for (const c of execCalls) {
    const command = commandText(c);
    for (const signal of commandSignals(command, (h) => ownHost(h, ctx.identity))) push(signal.category, signal.severity, signal.title, c.line, command.slice(0, 300));
    if (PRELOAD.test(command) || Object.keys(c.options).some((k) => /^(LD_PRELOAD|DYLD_INSERT_LIBRARIES)$/.test(k))) push('malware', atInstall('HIGH', install), 'Preloads a library into another program (LD_PRELOAD)', c.line, command.slice(0, 200));
    const detached = c.options.detached === 'true' || c.options.start_new_session === 'True' || /DETACHED_PROCESS|CREATE_NO_WINDOW|CREATE_NEW_PROCESS_GROUP/.test(c.options.creationflags ?? '');
    const silent = c.options.stdio === 'ignore' || c.unref || /DEVNULL/.test(`${c.options.stdout ?? ''}${c.options.stderr ?? ''}`) || c.options.windowsHide === 'true';
    // Python's Popen with every stream sent to DEVNULL hides the child as well as detaching does.
    const muted = facts.language === 'python' && /DEVNULL/.test(c.options.stdout ?? '') && /DEVNULL/.test(c.options.stderr ?? '');
    if (detached && silent) push('malware', install ? 'CRIT' : c.topLevel && !SIDE_FILE.test(ctx.file) ? 'HIGH' : 'MED', c.topLevel && !install ? 'Starts a detached, hidden background process when the module loads' : 'Starts a detached, hidden background process', c.line, `${c.callee}(${command.slice(0, 200)})`);
    else if (muted && c.topLevel && !SIDE_FILE.test(ctx.file)) push('malware', atInstall('HIGH', install), 'Starts a hidden background process when the module loads', c.line, `${c.callee}(${command.slice(0, 200)})`);
  }
  if (execCalls.length > 0) {
    // The flag as an argument (`'--yolo'` alone, or in a command line), not an AI CLI's own help text mentioning it.
    const asArgument = (v: string) => AI_BYPASS_FLAG.test(v) && (/^\s*--[\w-]+(?:[= ]\w+)?\s*$/.test(v) || /^\s*(npx\s+)?[@\w/.-]*(claude|gemini|codex|copilot|kiro|q|cursor-agent|aider|amp|opencode|qwen)\b[^\n]*\s--/i.test(v));
    const flag = facts.strings.find((s) => asArgument(s.value)) ?? execCalls.map((c) => ({ value: commandText(c), line: c.line })).find((s) => AI_BYPASS_FLAG.test(s.value));
    if (flag !== undefined && !out.some((f) => f.category === 'excessive_permissions')) push('excessive_permissions', 'CRIT', 'Runs an AI coding CLI with its permission checks bypassed', flag.line, flag.value.slice(0, 300));
  }

  // A whole shell or batch script carried as a string (to be written out and run): read as the commands it holds.
  const script = facts.strings.find((x) => /^\s*(@echo\s+off\b|#!\s*\/)/i.test(x.value) && x.value.includes('\n') && commandSignals(x.value, (h) => ownHost(h, ctx.identity)).some((sig) => sig.severity !== 'LOW'));
  if (script !== undefined) {
    const signal = commandSignals(script.value, (h) => ownHost(h, ctx.identity)).find((sig) => sig.severity !== 'LOW')!;
    push('remote_code_execution', SIDE_FILE.test(ctx.file) ? 'MED' : atInstall('HIGH', install), 'Carries a shell or batch script that downloads or loads payloads', script.line, `${signal.title}: ${script.value.slice(0, 200)}`);
  }

  // Self-propagation: republishing with a harvested token (Shai-Hulud).
  const publish = facts.strings.find((s) => /\bnpm\s+publish\b|^publish$/.test(s.value));
  if (publish !== undefined && !out.some((f) => f.category === 'malware')) {
    const token = allStrings.some((s) => /_authToken|NPM_TOKEN|\/-\/whoami|npm whoami|maintainer:|\/-\/v1\/search/.test(s));
    const rewrites = allStrings.some((s) => /^(postinstall|preinstall)$|"postinstall"|scripts\.postinstall/.test(s)) || facts.calls.some((c) => /writeFile/.test(c.callee) && c.argStrings.some((a) => /package\.json/.test(a)));
    if (token && rewrites) push('malware', 'CRIT', 'Republishes packages with the npm token it finds', publish.line, publish.value);
  }

  // Download and execute.
  const untrustedUrl = urlStrings.find((u) => urlHosts(u).some((h) => !TRUSTED_DOWNLOAD_HOSTS.test(h) && !ownHost(h, ctx.identity))) ?? allStrings.find((s) => /^https?:\/\/\d{1,3}(\.\d{1,3}){3}/.test(s));
  const vendorUrl = urlStrings.find((u) => urlHosts(u).some((h) => ownHost(h, ctx.identity)));
  const writes = facts.calls.filter((c) => WRITE_CALLEE.test(c.callee));
  // A chmod whose literal mode sets no execute bit (a token file's `0o600`, `432` = 0o660) keeps the file data, not a program.
  const chmods = facts.calls.filter((c) => (CHMOD_CALLEE.test(c.callee) && (c.modeText === undefined || !/^\s*(?:['"]0?o?[0-7]{3,4}['"]|0o?[0-7]{3,4}|\d+)\s*$/.test(c.modeText) || isExecutableMode(c.modeText, 'decimal'))) || c.argStrings.some((a) => /chmod\s+\+?[0-7]*x|\b755\b|0o755/.test(a)));
  // A download checked against a digest the package itself ships (a 64-, 96- or 128-hex literal, or a
  // checksums file it names) runs only the bytes the publisher pinned: the chromedriver/edgedriver and
  // esbuild installers. That is not an open channel for whatever a server returns later.
  const verified = verifiesPinnedDigest(facts);
  // Started detached with its output thrown away, a downloaded program is a dropped implant, not a tool the package uses.
  const hiddenRun = execCalls.find((c) => (c.options.detached === 'true' || c.options.start_new_session === 'True') && (c.options.stdio === 'ignore' || c.unref || c.options.windowsHide === 'true'));
  if (verified !== null && (execCalls.length > 0 || chmods.length > 0) && writes.length > 0 && (untrustedUrl !== undefined || facts.calls.some((c) => c.argLabels.includes('remote')))) {
    push('remote_code_execution', 'MED', 'Downloads a binary, checks it against a digest the package ships and makes it executable', (execCalls[0] ?? chmods[0])?.line, `${verified}${untrustedUrl !== undefined ? ` … ${untrustedUrl.slice(0, 160)}` : ''}`);
  } else if (hasNetwork && untrustedUrl !== undefined && writes.length > 0 && (execCalls.length > 0 || chmods.length > 0)) {
    if (hiddenRun !== undefined && chmods.length > 0) push('remote_code_execution', 'CRIT', DROPPER, hiddenRun.line, `${untrustedUrl.slice(0, 160)} then ${chmods[0]!.callee}(…) then ${hiddenRun.callee}(detached)`);
    else if (ownProgramDownload(facts, untrustedUrl, execCalls.length, ctx.identity) !== null) push('remote_code_execution', 'MED', OWN_PROGRAM_DOWNLOAD, chmods[0]?.line, `${untrustedUrl.slice(0, 160)} … ${ownProgramDownload(facts, untrustedUrl, execCalls.length, ctx.identity)!.slice(0, 100)}`);
    else push('remote_code_execution', atInstall('HIGH', install), 'Downloads a file from a non-registry host, writes it and runs it', (execCalls[0] ?? chmods[0])?.line, untrustedUrl.slice(0, 200));
  } else if (hasNetwork && vendorUrl !== undefined && writes.length > 0 && (execCalls.length > 0 || chmods.length > 0)) {
    push('remote_code_execution', 'LOW', 'Downloads and runs a file from the vendor’s own site (named in its metadata)', (execCalls[0] ?? chmods[0])?.line, vendorUrl.slice(0, 200));
  } else if (execCalls.length > 0 || chmods.length > 0) {
    // The same by data flow when the address is not a constant (built from a variable, defanged, configured):
    // what a response carries is written to a file that is then made executable or run. Installers that
    // name only registry, release or vendor hosts are judged by those hosts above.
    // A response piped into a file stream (`res.pipe(createWriteStream(p))`, `pipeline(res.body, createWriteStream(p))`) is written as well.
    const streamsToFile = facts.calls.some((c) => /^fs\.createWriteStream$/.test(c.callee));
    const saved = facts.calls.find((c) => !c.onChannel && ((WRITE_CALLEE.test(c.callee) || /(^|\.)(write|write_bytes)$/.test(c.callee)) || (streamsToFile && /(^|\.)(pipe|pipeline)$/.test(c.callee))) && c.argLabels.includes('remote'));
    const named = urlStrings.flatMap(urlHosts);
    const knownHostsOnly = named.length > 0 && named.every((h) => TRUSTED_DOWNLOAD_HOSTS.test(h) || ownHost(h, ctx.identity));
    if (saved !== undefined && !knownHostsOnly && hiddenRun !== undefined && chmods.length > 0) push('remote_code_execution', 'CRIT', DROPPER, hiddenRun.line, `${saved.callee}(…) then ${chmods[0]!.callee}(…) then ${hiddenRun.callee}(detached)`);
    else if (saved !== undefined && !knownHostsOnly) push('remote_code_execution', atInstall('HIGH', install), 'Writes what it downloads to a file and makes it executable or runs it', (execCalls[0] ?? chmods[0])?.line, `${saved.callee}(…) then ${(execCalls[0] ?? chmods[0])!.callee}(…)`);
  }

  // Browser-side hooking (chalk/debug Sept 2025, lottie-player 2024).
  for (const h of facts.language === 'javascript' ? facts.hooks.filter((x) => BROWSER_HOOK.test(x.target)) : []) {
    if (/^(ethereum|solana)/.test(h.target)) push('malware', 'CRIT', 'Replaces the browser wallet provider’s methods', h.line, h.target);
    else push('malware', 'MED', 'Replaces the browser’s fetch/XMLHttpRequest', h.line, h.target);
  }
  const addresses = new Set(facts.strings.filter((s) => ETH_ADDRESS.test(s.value) || BTC_ADDRESS.test(s.value)).map((s) => s.value));
  if (addresses.size >= 5 && (facts.hooks.length > 0 || allStrings.some((s) => /ethereum|eth_sendTransaction|solana/.test(s)))) {
    push('malware', 'HIGH', 'Many hard-coded crypto addresses next to wallet or request hooks', facts.strings.find((s) => addresses.has(s.value))?.line, `${addresses.size} addresses`);
  }
  const walletRequests = allStrings.filter((s) => /^(eth_requestAccounts|eth_sendTransaction|eth_signTypedData_v4|personal_sign|wallet_switchEthereumChain)$/.test(s));
  const remoteScript = facts.calls.some((c) => c.callee === 'document.createElement' && c.args[0] === 'script') && urlStrings.some((u) => urlHosts(u).some((h) => !TRUSTED_DOWNLOAD_HOSTS.test(h)));
  if (walletRequests.some((s) => s === 'eth_sendTransaction' || s === 'eth_signTypedData_v4') && walletRequests.includes('eth_requestAccounts') && (remoteScript || facts.hooks.length > 0)) {
    push('malware', 'HIGH', 'Injects a remote script that asks the wallet to connect and send transactions', facts.strings.find((s) => s.value === 'eth_sendTransaction' || s.value === 'eth_signTypedData_v4')?.line, walletRequests.join(', '));
  }

  // A module compiled at run time from decoded text (flatmap-stream 2018: `new module.constructor`, `_compile`).
  const compiles = facts.calls.find((c) => (c.callee === 'module.constructor' && c.isNew) || c.callee === 'module._compile');
  if (compiles !== undefined && facts.dynamicRequires.length > 0 && facts.calls.some((c) => c.callee === 'Buffer.from' && (c.args[1] === 'hex' || c.args[1] === 'base64'))) {
    push('obfuscation', atInstall('HIGH', install), 'Compiles a module at run time from decoded text, loading modules by computed names', compiles.line, `${compiles.callee}; require() of computed names at line ${facts.dynamicRequires[0]}`);
  }

  // Persistence: commands appended to shell startup files (Nx s1ngularity 2025 appended `sudo shutdown -h 0`).
  // Path parts given separately (`path.join(home, 'AppData', …, 'Start Menu', 'Programs', 'Startup')`) are joined per line.
  const byLine = new Map<number, string[]>();
  for (const s of facts.strings) byLine.set(s.line, [...(byLine.get(s.line) ?? []), s.value]);
  const joinedPaths = [...byLine].map(([line, parts]) => ({ line, value: parts.join('/') }));
  const rc = facts.strings.find((s) => AUTOSTART.test(s.value)) ?? joinedPaths.find((p) => AUTOSTART.test(p.value));
  // Shell startup files are also named in messages ("add this to ~/.bashrc"): only appending or writing counts there;
  // a Startup folder, launch agent or autostart entry is only ever named to put something in it.
  const shellRc = rc !== undefined && /(^|[\\/])\.(bashrc|zshrc|bash_profile|profile|zprofile|zshenv)$/.test(rc.value);
  // A list of protected paths names them too: a shell startup file counts when the write is near it (5 lines) or names it.
  const writesRc = facts.calls.some((c) => (shellRc ? /appendFile|writeFile|^open$/ : /appendFile|writeFile|copyFile|symlink|^open$|copy2?$|copyfile|write_text|\.write$|createWriteStream/).test(c.callee) && (!shellRc || Math.abs(c.line - rc!.line) <= 5 || c.argStrings.some((a) => a.includes(rc!.value))));
  if (rc !== undefined && writesRc) push('malware', atInstall('HIGH', install), 'Writes to shell startup files or the Startup folder', rc.line, rc.value.slice(0, 200));

  // Sabotage: module-level endless loops (colors 2022), geo-targeted destruction (node-ipc 2022).
  // Benchmarks and examples loop forever on purpose; only code a consumer loads counts.
  // A benchmark or example shipped as a file of its own beside the code (jsonparse's `bench.js`) is one too.
  const sideFile = SIDE_FILE.test(ctx.file) || SIDE_SCRIPT.test(ctx.file);
  for (const line of facts.endlessTopLevelLoops.slice(0, 1)) push('malware', sideFile ? 'LOW' : 'HIGH', 'Endless loop at module load (hangs every program that imports it)', line);
  const destroys = facts.calls.filter((c) => DESTRUCTIVE_CALLEE.test(c.callee) || (WRITE_CALLEE.test(c.callee) && c.argStrings.some((a) => /❤|\u2764/.test(a))));
  const geo = facts.strings.find((s) => GEO_IP.test(s.value));
  if (geo !== undefined && (destroys.length > 0 || writes.length > 0)) push('malware', 'HIGH', 'Overwrites or deletes files depending on the machine’s geolocation', geo.line, geo.value.slice(0, 200));
  for (const c of destroys) {
    if (c.argLabels.length === 0 && c.argStrings.some((a) => a === '/' || a === '~' || /^(C:\\\\?)$/i.test(a))) push('malware', 'CRIT', 'Deletes the home or root directory', c.line, c.callee);
  }
  // A command that empties the working directory (`rm -rf *`, `rd /s /q .`): a package's code has no reason to run it. Beside a
  // web route the package registers, it is a remote kill switch (express-api-sync, Socket, June 2025): one request wipes the app.
  // Round s28: by any means (fs.rmSync/rm with recursive, rimraf, fs-extra, del, a loop over the root's entries,
  // shutil.rmtree, rm -rf of the root), of the working directory, the file's folder or one above it (app-wipe.ts);
  // served by any web entry (a route, a server, a socket handler, a web framework's module, an API route file).
  const wipe = execCalls.find((c) => WIPES_WORKING_DIRECTORY.test(commandText(c)));
  const appWipe = sideFile ? null : appFilesDeletion(facts, execCalls);
  const entry = appWipe === null ? null : webEntry(facts, ctx.file, appWipe.call.line);
  if (appWipe !== null && entry !== null) push('malware', 'CRIT', 'Deletes the application’s files when a web request asks (remote kill switch)', appWipe.call.line, `${entry} … ${appWipe.call.callee}(${appWipe.target.slice(0, 160)})`);
  else if (wipe !== undefined && !sideFile) push('malware', atInstall('HIGH', install), 'Runs a command that deletes every file in the working directory', wipe.line, commandText(wipe).slice(0, 200));
  const shell = reverseShellCall(facts);
  if (shell !== null) push('remote_code_execution', 'CRIT', 'Opens a reverse shell', shell.line, `${shell.callee}(${shell.args[0] ?? ''}) wired to a socket`);
  // Code an install script writes into a file (another package's source, a hook) runs later, where it
  // lands: a reverse shell in that text is the script's payload, not an inert string (issue 24, sixth round).
  for (const c of facts.calls) {
    if (!/appendFile|writeFile|createWriteStream|write_text|\.write$|^open$/.test(c.callee)) continue;
    const code = c.argStrings.find((a) => a.length >= 40 && a.length <= 200_000 && /\brequire\s*\(|\bimport\b/.test(a) && /\b(net|tls|socket)\b/.test(a));
    if (code === undefined) continue;
    const inner = reverseShellCall(javascriptFacts(code));
    if (inner !== null) push('remote_code_execution', 'CRIT', 'Writes a reverse shell into a file', c.line, `${c.callee}(${c.argPath ?? c.args[0] ?? ''}): ${inner.callee}(${inner.args[0] ?? ''}) wired to a socket`);
  }

  // Cloud instance credentials: the metadata service hands a machine's role credentials to any local
  // process; reading them is what SDKs do, sending what was read to a host that is not the cloud's own is theft.
  if (allStrings.some((v) => METADATA_SERVICE.test(v)) && allStrings.some((v) => METADATA_CREDENTIAL_PATH.test(v))) {
    const hostsOf = (c: CallFact) => [...c.argStrings.flatMap(urlHosts), ...[c.options.hostname, c.options.host].filter((h): h is string => h !== undefined)];
    const elsewhere = (h: string) => !METADATA_SERVICE.test(h) && !CLOUD_API_HOST.test(h) && !ownHost(h, ctx.identity);
    const fileElsewhere = destinations.some(elsewhere);
    const leak = sendsData.find((c) => {
      if (!c.argLabels.some((l) => l === 'remote' || l === 'secret') || c.argStrings.some((a) => METADATA_SERVICE.test(a))) return false;
      const hosts = hostsOf(c);
      return hosts.length > 0 ? hosts.some(elsewhere) : fileElsewhere;
    });
    if (leak !== undefined) push('exfiltration', 'CRIT', 'Reads cloud instance credentials from the metadata service and sends them to another host', leak.line, `${leak.callee}(…) → ${hostsOf(leak)[0] ?? destinations.find(elsewhere) ?? '?'}`);
  }

  // Logic bombs: destruction, overwriting or process calls that run only on a date or by chance
  // (a cache's expiry compares with a file's age, not with a constant date; see clockOrChanceGate).
  const bomb = facts.calls.find((c) => c.gate !== undefined && (DESTRUCTIVE_CALLEE.test(c.callee) || WRITE_CALLEE.test(c.callee) || /(^|\.)(truncateSync|truncate|appendFileSync)$/.test(c.callee) || EXEC_CALLEE.test(c.callee) || /^process\.(kill|exit)$/.test(c.callee)));
  if (bomb !== undefined) {
    const ruin = DESTRUCTIVE_CALLEE.test(bomb.callee) || EXEC_CALLEE.test(bomb.callee) || /truncate/.test(bomb.callee);
    // Removing a tree or running a command on a schedule nobody asked for is sabotage outright.
    const wide = bomb.options.recursive === 'true' || /rmtree|rimraf/.test(bomb.callee) || EXEC_CALLEE.test(bomb.callee);
    push('malware', sideFile ? 'LOW' : atInstall(wide ? 'CRIT' : ruin ? 'HIGH' : 'MED', install), bomb.gate === 'date' ? 'Deletes, overwrites or runs commands only after a set date (time bomb)' : 'Deletes, overwrites or runs commands at random (sabotage by chance)', bomb.line, bomb.callee);
  }
  runtimePayloadFindings(facts, ctx, { push, execCalls, writes, hasNetwork, destinations, urlStrings, sendsData });
  return out;
}

/** Text of a long base64 or hex literal when it decodes to mostly printable text, else null. */
/**
 * A reverse shell built from APIs rather than a command line: a shell process whose input and
 * output are wired to a socket the code opens (`sock.pipe(sh.stdin)`, `os.dup2(s.fileno(), 0)`, `pty.spawn`).
 */
export function reverseShellCall(facts: CodeFacts): CallFact | null {
  const shellProcess = facts.calls.find((c) => (EXEC_CALLEE.test(c.callee) || /^pty\.spawn$/.test(c.callee)) && [c.args[0], ...c.argStrings].some((a) => a !== null && a !== undefined && SHELL_PROGRAM.test(a.trim())));
  if (shellProcess === undefined) return null;
  const opensSocket = facts.calls.some((c) => SOCKET_OPEN.test(c.callee));
  const wired = facts.calls.some((c) => (/(^|\.)pipe$/.test(c.callee) && c.argLabels.includes('remote')) || /^os\.dup2$/.test(c.callee) || /^pty\.spawn$/.test(c.callee) || (EXEC_CALLEE.test(c.callee) && /\b(stdin|stdout|stderr)\b/.test(Object.keys(c.options).join(' ')) && c.argLabels.includes('remote')));
  return opensSocket && wired ? shellProcess : null;
}

export function decodeBlob(value: string): string | null {
  const compact = value.replace(/\s+/g, '');
  let bytes: Buffer | null = null;
  if (/^[0-9a-fA-F]+$/.test(compact) && compact.length % 2 === 0) bytes = Buffer.from(compact, 'hex');
  else if (/^[A-Za-z0-9+/_-]+={0,2}$/.test(compact)) bytes = Buffer.from(compact, 'base64');
  if (bytes === null || bytes.length === 0) return null;
  const sample = bytes.subarray(0, 4096);
  let printable = 0;
  for (const b of sample) if ((b >= 32 && b < 127) || b === 9 || b === 10 || b === 13) printable++;
  if (printable / sample.length > 0.95) return bytes.toString('utf8');
  // Layers (zlib or gzip inside base64, base64 again inside, up to five: `for _ in range(3): d =
  // zlib.decompress(b64decode(d))`): the deepest readable text.
  if (compact.length > 200_000) return null;
  return decodedTexts(compact).at(-1) ?? null;
}

interface PayloadScope {
  push: (category: string, severity: Severity, title: string, line: number | undefined, evidence?: string) => void;
  execCalls: CallFact[];
  writes: CallFact[];
  hasNetwork: boolean;
  destinations: string[];
  urlStrings: string[];
  sendsData: CallFact[];
}

/**
 * Payloads hidden or planted at run time: code in images, clipboard hijacking, monkey-patching,
 * other packages patched, process injection, email as a channel, shady hosts.
 */
function runtimePayloadFindings(facts: CodeFacts, ctx: CodeContext, scope: PayloadScope): void {
  const { push, execCalls, hasNetwork, destinations, urlStrings, sendsData } = scope;
  const install = ctx.installTime;
  const side = SIDE_FILE.test(ctx.file);
  const evalCalls = facts.calls.filter((c) => EVAL_CALLEE.test(c.callee) && !(facts.language === 'javascript' && /^(exec|compile|execfile)$/.test(c.callee)));

  // Steganography: code or a binary carried inside an image.
  const stego = evalCalls.find((c) => c.argLabels.includes('imagedata'));
  if (stego !== undefined) push('obfuscation', 'CRIT', 'Executes code hidden in an image', stego.line, stego.callee);
  const writeCall = (c: CallFact) => WRITE_CALLEE.test(c.callee) || /(^|\.)(write|write_bytes|appendFileSync|appendFile)$/.test(c.callee);
  const imageOut = facts.calls.find((c) => writeCall(c) && c.argLabels.includes('imagedata'));
  const runs = execCalls.length > 0 || facts.calls.some((c) => CHMOD_CALLEE.test(c.callee) || /(^|\.)(LoadLibrary\w*|CDLL|WinDLL|startfile)$/.test(c.callee));
  // Running the written file: a process started on a computed path (no constant program name), a
  // library loaded, or the file made executable (0o7xx, 0o5xx, S_IRWXU/S_IXUSR, a write with mode 0o755).
  const execMode = (v: string | null | undefined) => v != null && /^(?:0o?[57][0-7]{2}|493|448|365|509|511)$|S_IRWXU|S_IXUSR|S_IEXEC|\+x/.test(v);
  const runsWritten =
    execCalls.some((c) => c.argStrings.length === 0 || c.argStrings[0]!.startsWith('-')) ||
    facts.calls.some((c) => /(^|\.)(LoadLibrary\w*|CDLL|WinDLL|startfile)$/.test(c.callee) || (CHMOD_CALLEE.test(c.callee) && (execMode(c.args[1]) || c.args[1] === null)) || (writeCall(c) && execMode(c.options.mode)));
  // Writing out what was cut from a carried file and running it is running code the package hides.
  if (imageOut !== undefined && runs && runsWritten) push('remote_code_execution', side ? 'HIGH' : 'CRIT', 'Cuts a file out of an image or data file, writes it and runs it', imageOut.line, imageOut.callee);

  // Clipboard: clippers swap copied crypto addresses; stealers send what was copied.
  const clipRead = facts.calls.find((c) => c.argLabels.includes('clipboard')) ?? facts.calls.find((c) => /paste|read_clipboard|readText|clipboard_get|GetClipboardData|clipboardy\.read/.test(c.callee));
  const clipWrite = facts.calls.find((c) => CLIPBOARD_WRITE.test(c.callee));
  const addressLike = facts.strings.some((s) => CRYPTO_ADDRESS_PATTERN.test(s.value) || ETH_ADDRESS.test(s.value) || BTC_ADDRESS.test(s.value));
  const clipSent = sendsData.find((c) => c.argLabels.includes('clipboard'));
  if (clipRead !== undefined && clipWrite !== undefined && addressLike) push('malware', 'CRIT', 'Replaces crypto addresses copied to the clipboard', clipWrite.line, clipWrite.callee);
  else if (clipSent !== undefined) push('exfiltration', 'HIGH', 'Sends the clipboard’s content over the network', clipSent.line, clipSent.callee);
  else if (clipRead !== undefined && install) push('credential_access', 'HIGH', 'Reads the clipboard while installing', clipRead.line, clipRead.callee);

  // Screen capture sent out.
  const capture = facts.calls.find((c) => SCREEN_CAPTURE.test(c.callee));
  if (capture !== undefined && (install || (hasNetwork && destinations.some((h) => !ownHost(h, ctx.identity))))) push('exfiltration', atInstall('HIGH', install), 'Captures the screen in code that sends data to a hard-coded host', capture.line, capture.callee);

  // Monkey-patching (Python, Node APIs): replacing a library function intercepts everything that calls it.
  const libraryHooks = facts.hooks.filter((h) => facts.language === 'python' || !BROWSER_HOOK.test(h.target));
  if (libraryHooks.length > 0) {
    const capture = libraryHooks.find((h) => h.sends === true && h.secretArgs === true) ?? libraryHooks.find((h) => h.sends === true);
    if (capture?.secretArgs === true) push('exfiltration', side ? 'MED' : 'CRIT', 'Replaces a library function that receives keys or secrets with one that sends them over the network', capture.line, capture.target);
    else if (capture !== undefined) push('exfiltration', side ? 'MED' : atInstall('HIGH', install), 'Replaces a library method with a function that sends data over the network (the arguments it receives leave)', capture.line, capture.target);
    for (const h of capture === undefined ? libraryHooks.slice(0, 1) : []) {
      const sendsOut = hasNetwork && urlStrings.some((u) => urlHosts(u).some((x) => !ownHost(x, ctx.identity) && !TRUSTED_DOWNLOAD_HOSTS.test(x)));
      push('malware', side ? 'LOW' : atInstall(sendsOut ? 'HIGH' : 'MED', install), sendsOut ? 'Replaces a library function at run time in code that sends data to a hard-coded host' : 'Replaces a library function at run time (monkey-patching)', h.line, h.target);
    }
  }

  // Writing into another installed package (an install script that patches a dependency or a tool).
  // `require.resolve` / `find_spec` of the package's own name locate its own files, not another package's.
  const own = ctx.identity?.fullName ?? '';
  const resolvesOther = facts.calls.some((c) => /^(require\.resolve|importlib\.util\.find_spec)$/.test(c.callee) && c.args[0] !== null && c.args[0] !== undefined && !/^\./.test(c.args[0]) && (own === '' || (c.args[0] !== own && !c.args[0].startsWith(`${own}/`) && c.args[0].replace(/-/g, '_') !== own.replace(/-/g, '_'))));
  const norm = (n: string) => n.toLowerCase().replace(/[-.]/g, '_');
  const locatesOther = (facts.locatedModules ?? []).some((m) => own === '' || (norm(m) !== norm(own) && !norm(m).startsWith(`${norm(own)}_`)));
  // `path.join(dir, 'node_modules', name)`: a package's folder built by name (a constant or a helper's parameter), not node_modules itself.
  const joinsIntoPackage = facts.calls.some((c) => /^path\.(join|resolve|posix\.join)$/.test(c.callee) && c.args.some((a, k) => a !== null && /(^|[\\/])node_modules[\\/]?$/.test(a) && k + 1 < c.args.length && (c.args[k + 1] === null || (!/^\./.test(c.args[k + 1]!) && c.args[k + 1] !== own))));
  // A file that resolves its own package (`require.resolve('esbuild')`) labels its own folder as a package path too.
  const resolvesOwn = own !== '' && facts.calls.some((c) => /^(require\.resolve|importlib\.util\.find_spec)$/.test(c.callee) && (c.args[0] === own || (c.args[0] ?? '').startsWith(`${own}/`)));
  const pkgpathCounts = resolvesOther || locatesOther || joinsIntoPackage || facts.calls.some((c) => /^(site\.|sysconfig\.|distutils\.sysconfig\.)/.test(c.callee));
  // (round s30, real false alarms) @swc/core's postinstall npm-installs its fallback package in a
  // temporary folder: a non-recursive mkdir (it fails if the folder exists, so the folder is new),
  // an empty `{}` package.json written into it, then the package that `npm install` fetched moved
  // into node_modules. Neither touches a package already installed. A write of any other content, a
  // write with no fresh folder before it, or a move into a package the file does not install stays.
  const freshManifest = (c: CallFact) => /(^|[\\/])package\.json$/.test(c.argPath ?? '') && /^\s*\{\s*\}\s*$/.test(c.args[1] ?? '') && facts.calls.some((m) => /^fs\.(mkdirSync|mkdir|promises\.mkdir)$/.test(m.callee) && m.args.length === 1 && m.line <= c.line && c.line - m.line <= 5);
  const npmInstalled = (named: string) => execCalls.some((e) => commandText(e).split(/[;&|\n]/).some((part) => /\bnpm\s+(install|i|add)\b/.test(part) && part.split(/\s+/).some((w) => w === named || w.startsWith(`${named}@`))));
  const patches = facts.calls.find((c) => {
    if (!writeCall(c)) return false;
    if (install && freshManifest(c)) return false;
    if (facts.language === 'python' && c.callee === 'open' && !/^[wax]/.test(c.args[1] ?? c.options.mode ?? '')) return false;
    // A new `.pth` of directory lines only (no `import` line anywhere in the file) adds a path; it patches no package (start-up hooks: install-spread.ts).
    if (facts.language === 'python' && [...c.argStrings, c.argPath ?? '', ...facts.strings.map((x) => x.value)].some((a) => /\.pth$/.test(a)) && !c.argStrings.some((a) => /(^|[\\/])(site-packages|dist-packages)[\\/][^\\/]+[\\/]/.test(a)) && !facts.strings.some((x) => /(?:^|\n)[ \t]*import[ \t]+[A-Za-z_]/.test(x.value))) return false;
    // `path.join(root, 'node_modules', 'react-dom', …)`: the parts name another package even when given one by one.
    const parts = [...c.argStrings, c.argPath ?? ''].join('/').split(/[\\/]+/);
    const under = parts.indexOf('node_modules');
    const named = under === -1 ? undefined : parts[under + 1]?.startsWith('@') ? `${parts[under + 1]}/${parts[under + 2] ?? ''}` : parts[under + 1];
    if (named !== undefined && /^(@[\w-][\w.-]*\/)?[\w-][\w.-]*$/.test(named) && named !== own) return !(install && /renameSync$|rename$/.test(c.callee) && parts[parts.length - 1] === named.split('/').pop() && npmInstalled(named));
    // With its own package resolved in the file, the label alone may be its own folder: the written path must also pass through `node_modules`.
    const labelled = c.argLabels.includes('pkgpath') && pkgpathCounts && (!resolvesOwn || resolvesOther || locatesOther || /(^|[\\/])node_modules([\\/]|$)/.test([...c.argStrings, c.argPath ?? ''].join('/')));
    return labelled || c.argStrings.some((a) => /(^|[\\/])(node_modules|site-packages|dist-packages)[\\/][^\\/]+/.test(a)) || outsidePackage(c.argPath, ctx.file, own, install) !== null;
  });
  if (patches !== undefined) {
    // What is written decides how bad the patch is: code that loads, sends or runs something, or a check
    // turned off (`rejectUnauthorized: false`, a verifier that returns true), planted in a package the
    // project trusts runs with that package's trust every time it is used, and outlives the installer.
    const planted = install && facts.strings.find((s) => s.value.length >= 12 && /[(;=]/.test(s.value) && PLANTED_CODE.test(s.value));
    // Text decoded (base64, hex) from a file the package reads is code kept out of sight until it lands there.
    const hidden = install && !planted && patches.argLabels.includes('decoded') && patches.argLabels.includes('filedata');
    if (hidden) push('malware', 'CRIT', 'Install-time code plants code in another installed package', patches.line, `${patches.callee}(${patches.argPath ?? patches.argStrings.slice(0, 3).join(', ')}) writes text decoded from a file it reads`);
    else if (planted) push('malware', 'CRIT', 'Install-time code plants code in another installed package', patches.line, `${patches.callee}(${patches.argPath ?? patches.argStrings.slice(0, 3).join(', ')}) writes ${JSON.stringify(planted.value.trim().slice(0, 120))}`);
    else push('malware', install ? 'HIGH' : side ? 'LOW' : 'MED', install ? 'Install-time code modifies another installed package' : 'Modifies the files of another installed package', patches.line, `${patches.callee}(${patches.argPath ?? patches.argStrings.slice(0, 3).join(', ')})`);
  }
  // An install script that deletes its own file leaves nothing for a later look at node_modules.
  // Writing over `__filename` (`fs.writeFileSync(__filename, '// done')`) erases it as well as deleting does.
  const selfDelete = install ? facts.calls.find((c) => (DESTRUCTIVE_CALLEE.test(c.callee) || writeCall(c)) && c.argPath === '$FILE') : undefined;
  if (selfDelete !== undefined) push('obfuscation', 'MED', 'Install script deletes its own file after running', selfDelete.line, `${selfDelete.callee}(__filename)`);

  // Code injected into other processes.
  const inject = facts.calls.find((c) => INJECTION_CALL.test(c.callee));
  if (inject !== undefined) push('malware', atInstall('HIGH', install), 'Injects code into another process (WriteProcessMemory, CreateRemoteThread…)', inject.line, inject.callee);

  // Email as a channel: packages have no reason to send mail while installing.
  const mail = sendsData.find((c) => /(^|\.)(sendmail|send_message|sendMail)$/.test(c.callee));
  if (mail !== undefined && install) push('exfiltration', 'HIGH', 'Sends email while installing', mail.line, mail.callee);

  // Hosts used for staging payloads and receiving stolen data.
  if (!side) {
    const shadyIn = (v: string) => urlHosts(v).some((h) => isShadyHost(h) && !ownHost(h, ctx.identity));
    const shady = facts.strings.find((s) => shadyIn(s.value));
    if (shady !== undefined) {
      // A bare URL in code that makes requests, or a URL inside a command it runs, is used; one in a message is not.
      const active = (/^(https?|wss?|ftp):\/\/\S+$/i.test(shady.value.trim()) && hasNetwork) || execCalls.some((c) => c.argStrings.some(shadyIn) || c.args.some((a) => a !== null && shadyIn(a)));
      push('exfiltration', atInstall(active ? 'HIGH' : 'MED', install), 'URL of a host used to stage payloads or collect data (raw IP, tunnel, paste site, request catcher, shortener)', shady.line, shady.value.slice(0, 200));
    }
  }
}
