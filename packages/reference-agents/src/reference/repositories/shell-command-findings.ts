import type { AgentFinding, Severity } from '@vigil/core';
import { referenceFinding } from '../common/reference-finding.js';
import { privilegedShimFinding } from '../text/privileged-shim.js';
import { TRUSTED_DOWNLOAD_HOSTS, commandSignals, urlHosts } from '../packages/shell-command.js';
import { OFFICIAL_CODE_HOST_OWNER, OFFICIAL_INSTALLER_HOSTS } from '../known/official-installers.js';
import { downloadedFileRun } from './downloaded-file-run.js';

export { OFFICIAL_CODE_HOST_OWNER, OFFICIAL_INSTALLER_HOSTS } from '../known/official-installers.js';

// Hosts nobody is accountable for: paste sites, URL shorteners, tunnels and request catchers.
const ANONYMOUS_HOSTS =
  /(^|\.)(pastebin\.com|paste\.ee|hastebin\.com|ghostbin\.\w+|rentry\.co|transfer\.sh|termbin\.com|bit\.ly|tinyurl\.com|is\.gd|t\.co|cutt\.ly|ngrok\.io|ngrok-free\.app|ngrok\.app|trycloudflare\.com|serveo\.net|loca\.lt|webhook\.site|requestbin\.\w+|pipedream\.net|interact\.sh|oast\.\w+|burpcollaborator\.net|discord\.com|discordapp\.com|api\.telegram\.org)$/i;

const IP_HOST = /^\d{1,3}(\.\d{1,3}){3}(:\d+)?$/;
const DOWNLOADER = String.raw`(?:curl|wget|iwr|irm|invoke-webrequest|invoke-restmethod)`;
// `curl … | sh`, `wget -O- … | /bin/bash`, `wget -O- … | python3`, `irm … | iex`.
const PIPE_TO_INTERPRETER = new RegExp(String.raw`\b${DOWNLOADER}\b[^\n|;&]*\|\s*(?:sudo\s+(?:-\S+\s+)*)?(?:env\s+\S+=\S+\s+)*(?:\/(?:usr\/)?(?:local\/)?bin\/)?(?:(?:ba|z|da|k|fi)?sh|cmd(?:\.exe)?|node|python[0-9.]*|perl|ruby|php|iex|pwsh|powershell)\b`, 'i');
// `bash <(curl …)`, `eval "$(curl …)"`, `node -e "$(curl …)"`, `source <(wget -qO- …)`, `iex (iwr …)`.
const SUBSTITUTED_INTO_INTERPRETER = new RegExp(
  String.raw`(?<![\w./-])(?:\/(?:usr\/)?(?:local\/)?bin\/)?(?:(?:ba|z|da)?sh|source|eval|node|python[0-9.]*|perl|ruby)(?:\s+-[a-z]+)*\s*["']?(?:<\(|\$\()\s*${DOWNLOADER}\b|(?<![\w./-])(?:iex|invoke-expression)\b\s*\(?\s*\(?\s*(?:${DOWNLOADER}|new-object\s+net\.webclient)`,
  'i',
);
// `curl -o x … && chmod +x x && ./x`, `wget … ; bash x.sh`.
const DOWNLOAD_THEN_RUN = new RegExp(String.raw`\b${DOWNLOADER}\b[^\n]*?(?:&&|;|\n)\s*(?:(?:sudo\s+)?chmod\s+\+?[0-7]*x\b[^\n]*?(?:&&|;)\s*)?(?:\.\/\S+|(?:ba|z)?sh\s+\S+\.sh\b|node\s+\S+\.c?js\b|python[0-9.]*\s+\S+\.py\b)`, 'i');
// Reading another process's memory: how the tj-actions and reviewdog payloads pulled secrets out of the runner.
export const PROCESS_MEMORY_DUMP = /\/proc\/(?:\$\{?\w+\}?|\d+|\*|self)\/(?:mem|maps)\b|Runner\.Worker|"isSecret"\s*:\s*true|isSecret\\?":true/;

// `env | base64 | curl --data-binary @-`, `curl -d "$(printenv)"`: every variable, secrets included, leaves.
const SENDS_ENVIRONMENT = /(?:^|[|;&(]\s*)(?:env|printenv|set)\s*(?:\|[^|\n]*)*\|\s*(?:curl|wget|nc|ncat)\b|\b(?:curl|wget)\b[^\n]*\$\(\s*(?:env|printenv)\b/;
// `curl -d @~/.npmrc`, `cat ~/.ssh/id_rsa | curl`, `curl -F f=@$HOME/.aws/credentials`.
// The home directory may be quoted apart from the path (`"$HOME"/.ssh`); coding agents' own logins count
// (`~/.claude/.credentials.json`, `~/.codex/auth.json`, `~/.gemini/oauth_creds.json`, `~/.config/anthropic`).
const CREDENTIAL_FILE = String.raw`(?:~|\$HOME|\$\{HOME\})["']?\/(?:\.ssh\b\S*|\.npmrc|\.pypirc|\.netrc|\.aws\/credentials|\.aws\b|\.git-credentials|\.docker\/config\.json|\.kube\b\S*|\.config\/gh\b\S*|\.gnupg\b\S*|\.claude\/\.credentials\.json|\.codex\/auth\.json|\.gemini\/oauth_creds\.json|\.config\/(?:anthropic|gcloud)\b\S*|\.azure\b\S*)`;
// A credential file read, copied or archived and piped to a network tool: `cat`, `tar czf -`, `zip -`, `base64`, `gpg`.
const SENDS_CREDENTIAL_FILE = new RegExp(String.raw`\b(?:curl|wget)\b[^\n]*(?:@|--post-file[= ]|--body-file[= ]|--upload-file\s|\s-T\s*)["']?${CREDENTIAL_FILE}|\b(?:cat|tar|zip|7z|base64|gzip|gpg|openssl)\b[^\n|]*${CREDENTIAL_FILE}[^\n|]*\|\s*(?:(?:base64|gzip|xxd|openssl)[^|\n]*\|\s*)?(?:curl|wget|nc|ncat|socat)\b`);
// Commands that print a secret: CLI tokens, git's stored credentials, cloud access tokens, keychain entries.
const SECRET_OUTPUT = String.raw`(?:gh\s+auth\s+token|gh\s+auth\s+status\s+(?:-t|--show-token)|git\s+config\s+(?:--\w+\s+)*--get(?:-regexp|-all)?\s+\S*credential|git\s+credential\s+fill|aws\s+configure\s+(?:export-credentials|get\s+aws_secret_access_key)|aws\s+sts\s+get-session-token|gcloud\s+auth\s+print-(?:access|identity)-token|az\s+account\s+get-access-token|npm\s+token\s+(?:list|create)|op\s+read|security\s+find-(?:generic|internet)-password|vault\s+(?:read|kv\s+get|token\s+lookup)|kubectl\s+config\s+view\s+--raw|heroku\s+auth:token|doctl\s+auth\s+token)`;
// …piped to, or substituted into, a network tool: `gh auth token | curl --data-binary @-`, `curl -d "$(gcloud auth print-access-token)"`.
const SENDS_SECRET_OUTPUT = new RegExp(String.raw`${SECRET_OUTPUT}[^\n;&]*\|\s*(?:[^|\n]*\|\s*)?(?:curl|wget|nc|ncat|socat)\b|\b(?:curl|wget)\b[^\n]*\$\(\s*${SECRET_OUTPUT}`, 'i');
// Whole-script shapes: a credential path archived or copied on one line, a file uploaded on another.
const COLLECTS_CREDENTIALS = new RegExp(String.raw`\b(?:tar|zip|7z|cp|cat|base64|rsync|gpg)\b[^\n]*${CREDENTIAL_FILE}`);
// A file published where anyone can read it is uploaded too: a gist, a release asset, an issue or comment body.
const UPLOADS_FILE = /\bcurl\b[^\n]*(?:\s-F\s*["']?[\w-]+=@|\s-T\s|--upload-file\b|--data-binary\s+["']?@|\s-d\s+["']?@)|\bwget\b[^\n]*--post-file\b|\bscp\s+\S+\s+\S+@[\w.-]+:|\bnc\b[^\n]*<\s*\S+|\bgh\s+(?:gist\s+(?:create|edit)|release\s+(?:create|upload)|(?:issue|pr)\s+(?:create|comment)\b[^\n]*--body-file)\b[^\n]*\s[^\s-]\S*/;

// A command run from the home directory names credentials without it: `tar -C "$HOME" … .ssh .aws`,
// `cd ~ && zip -r x.zip .ssh`, `(cd "$HOME"; tar czf - .kube) | curl …`.
const HOME_CWD = /(?:\s-C\s*|--directory[= ])["']?(?:~|\$\{?HOME\}?)\/?["']?(?=[\s;&|)]|$)|\b(?:cd|pushd)\s+["']?(?:~|\$\{?HOME\}?)\/?["']?(?=[\s;&|)]|$)/;
const BARE_CREDENTIAL = /(?<=[\s"'(])(?=\.(?:ssh|aws|kube|gnupg|netrc|npmrc|pypirc|git-credentials|docker\/config\.json|config\/(?:gh|gcloud|anthropic)|azure|claude\/\.credentials\.json|codex\/auth\.json)\b)/g;

/** The script with credential names given relative to a home working directory written as `~/…`, so the path checks read them. */
export function homeRelativeCredentials(text: string): string {
  if (!/\.(?:ssh|aws|kube|gnupg|netrc|npmrc|pypirc|git-credentials|docker|config|azure|claude|codex)\b/.test(text)) return text;
  let home = false;
  return text
    .split('\n')
    .map((line) => {
      // A `cd` elsewhere on a later line leaves the home directory.
      if (/^\s*(?:cd|pushd)\s/.test(line) && !HOME_CWD.test(line)) home = false;
      const here = home || HOME_CWD.test(line);
      if (/^\s*(?:cd|pushd)\s/.test(line) && HOME_CWD.test(line)) home = true;
      return here ? line.replace(BARE_CREDENTIAL, '~/') : line;
    })
    .join('\n');
}

/** printf `%b` / `echo -e` / `$'…'` escapes: `\xHH`, octal `\0NNN` / `\NNN`, `\uHHHH`, `\n`, `\t`, `\\`. */
function shellEscapes(s: string): string {
  return s.replace(/\\(?:x([0-9a-fA-F]{1,2})|u([0-9a-fA-F]{4})|0?([0-7]{1,3})|([ntr\\'"]))/g, (_m, hex: string | undefined, uni: string | undefined, oct: string | undefined, c: string | undefined) =>
    hex !== undefined ? String.fromCharCode(parseInt(hex, 16)) : uni !== undefined ? String.fromCharCode(parseInt(uni, 16)) : oct !== undefined ? String.fromCharCode(parseInt(oct, 8)) : ({ n: '\n', t: '\t', r: '\r' } as Record<string, string>)[c!] ?? c!,
  );
}

/** `$(( 4000 + 444 ))` of integer constants (`+`, `-`, `*` only); undefined for anything else. */
function shellArithmetic(expr: string): string | undefined {
  if (!/^[\d\s+*-]+$/.test(expr) || !/\d/.test(expr)) return undefined;
  let total = 0;
  for (const term of expr.replace(/\s+/g, '').match(/[+-]?[^+-]+/g) ?? []) {
    const product = term.replace(/^[+-]/, '').split('*').reduce((p, f) => p * Number(f), 1);
    if (!Number.isFinite(product)) return undefined;
    total += term.startsWith('-') ? -product : product;
  }
  return String(total);
}

// A function that only prints its argument with escapes decoded: `_c() { printf '%b' "$1"; }`.
const DECODER_FUNCTION = /^\s*(?:function\s+)?([A-Za-z_]\w*)\s*(?:\(\s*\))?\s*\{\s*(?:printf\s+(?:--\s+)?["']%b(?:\\n)?["']|echo\s+-[nE]*e[nE]*)\s+"?\$(?:1|\{1\}|@|\*)"?\s*;?\s*\}\s*$/;
const QUOTED_ARG = String.raw`(?:'([^'\n]*)'|"([^"\n$\`]*)")`;

/**
 * Constant command substitutions read as their output: `$(printf '\x2f\x64…')`, `$(printf '%b' '…')`,
 * `$(echo -e '…')`, `$(f '…')` of a decoder function, `$((4000+444))`, and ANSI-C `$'\x…'`. An
 * output right after `NAME=` is quoted so the assignment keeps it whole.
 */
function constantSubstitutions(line: string, decoders: ReadonlySet<string>): string {
  if (!line.includes('$')) return line;
  const put = (value: string | undefined, m: string, offset: number, whole: string) => {
    if (value === undefined || /[\n$`"]/.test(value)) return m;
    return whole[offset - 1] === '=' ? `"${value}"` : value;
  };
  return line
    .replace(/\$\(\(([^()\n]*)\)\)/g, (m, expr: string, offset: number, whole: string) => put(shellArithmetic(expr), m, offset, whole))
    .replace(new RegExp(String.raw`\$\(\s*printf\s+(?:--\s+)?${QUOTED_ARG}(?:\s+${QUOTED_ARG})?\s*\)`, 'g'), (m, f1?: string, f2?: string, a1?: string, a2?: string, offset?: number, whole?: string) => {
      const fmt = f1 ?? f2 ?? '';
      const arg = a1 ?? a2;
      const value = arg === undefined ? (/%(?!%)/.test(fmt) ? undefined : shellEscapes(fmt.replace(/%%/g, '%'))) : /^%b(?:\\n)?$/.test(fmt) ? shellEscapes(arg) : /^%s(?:\\n)?$/.test(fmt) ? arg : undefined;
      return put(value, m, offset!, whole!);
    })
    .replace(new RegExp(String.raw`\$\(\s*(?:echo\s+-[nE]*e[nE]*|([A-Za-z_]\w*))\s+${QUOTED_ARG}\s*\)`, 'g'), (m, fn: string | undefined, a1?: string, a2?: string, offset?: number, whole?: string) =>
      fn !== undefined && !decoders.has(fn) ? m : put(shellEscapes(a1 ?? a2 ?? ''), m, offset!, whole!),
    )
    .replace(/\$'((?:[^'\\\n]|\\.)*)'/g, (m, body: string, offset: number, whole: string) => put(shellEscapes(body), m, offset, whole));
}

/**
 * The script with `$NAME` / `${NAME}` replaced by the constant it was assigned on an earlier line
 * (`CRED="$HOME/.git-credentials"` … `wget --post-file="$CRED" …`), so a command reads as what it
 * runs. A constant may be built from pieces: several assignments on one line (`d=/dev; p=tcp`), earlier
 * constants (`k="$a $b"`), and constant substitutions (`$(printf '\x2f…')`, a decoder function's
 * output, `$((4000+444))`, `$'\x…'`). Line numbers are kept; a name assigned twice keeps its first value.
 */
export function expandShellVariables(text: string): string {
  const values = new Map<string, string>();
  const decoders = new Set<string>();
  return text
    .split('\n')
    .map((line) => {
      if (line.length > 4000) return line;
      const decoder = DECODER_FUNCTION.exec(line);
      if (decoder !== null) decoders.add(decoder[1]!);
      let expanded = line;
      if (values.size > 0 && line.includes('$')) {
        expanded = line.replace(/\$\{?([A-Za-z_][A-Za-z0-9_]*)\}?/g, (m, name: string) => values.get(name) ?? m);
      }
      expanded = constantSubstitutions(expanded, decoders);
      const assigns = /(?:^\s*|[;&]\s*|\b(?:then|do|else)\s+)(?:export\s+|local\s+|readonly\s+)?([A-Za-z_][A-Za-z0-9_]*)=(?:"([^"`$]*(?:\$\{?HOME\}?[^"`$]*)?)"|'([^']*)'|([^\s;&|`$'"()]*(?:\$\{?HOME\}?[^\s;&|`'"()]*)?))\s*(?=;|&&|$)/g;
      // Bounded both ways: a value built by doubling (`b="$a$a…"`, `c="$b$b…"`) stops growing at 1,000
      // characters, and a line that would expand past 4,000 is read as written.
      if (expanded.length > 4000) return line;
      for (const assign of expanded.matchAll(assigns)) {
        const value = assign[2] ?? assign[3] ?? assign[4] ?? '';
        if (!values.has(assign[1]!) && value.length <= 1000) values.set(assign[1]!, value);
      }
      return expanded;
    })
    .join('\n');
}

/** How far a download-and-run command deserves trust, from where it downloads. */
export type DownloadSource = 'official' | 'named' | 'anonymous';

/** The least trusted source among a command's URLs (a command with no URL is `named`). */
export function downloadSource(command: string, ownHosts: ReadonlySet<string> = new Set()): DownloadSource {
  const hosts = urlHosts(command).map((h) => h.replace(/:\d+$/, ''));
  const plainHttp = /\bhttp:\/\/(?!localhost\b|127\.0\.0\.1\b)/i.test(command);
  // A scheme-less `curl 203.0.113.5/x` names its host only as an address.
  const bareIp = hosts.length === 0 && /(?:^|[\s'"@])\d{1,3}(\.\d{1,3}){3}(?::\d+)?\//.test(command);
  if (plainHttp || bareIp || hosts.some((h) => IP_HOST.test(h) || ANONYMOUS_HOSTS.test(h))) return 'anonymous';
  if (hosts.length === 0) return 'named';
  const own = (h: string) => ownHosts.has(h) || [...ownHosts].some((o) => h.endsWith(`.${o}`));
  // On a code host anyone can publish to, the owner is the publisher: a script from an owner that is
  // neither an official installer's (nvm-sh, Homebrew…) nor the repository's own is not the vendor's.
  const codeHostScripts = [...command.matchAll(/https:\/\/(?:raw\.githubusercontent\.com|gist\.githubusercontent\.com|github\.com)\/([\w.-]+)\/([\w.-]+)/gi)];
  if (codeHostScripts.some((m) => !OFFICIAL_CODE_HOST_OWNER.test(`${m[1]}/${m[2]}`) && !ownHosts.has(`github.com/${m[1]!.toLowerCase()}`))) return 'named';
  return hosts.every((h) => OFFICIAL_INSTALLER_HOSTS.test(h) || TRUSTED_DOWNLOAD_HOSTS.test(h) || own(h)) ? 'official' : 'named';
}

export interface ShellContext {
  file: string;
  line: number | undefined;
  /** What runs the command, for the title: `VS Code task run on folder open`, `git hook`, `Makefile`… */
  where: string;
  /** The command runs without anyone choosing to run it (folder open, an agent hook, npm install, a git hook). */
  automatic: boolean;
  /** Hosts the repository names as its own (its homepage, its repository URL): its own installer is trusted. */
  ownHosts?: ReadonlySet<string>;
  /**
   * The command is a step of building or opening the project (a gem's extconf.rb, a Composer event
   * script, an MSBuild build event, a Cargo build script, a CMake configure step, a go:generate line, a
   * direnv or mise enter hook): such a step needs no program from the network beyond what the package
   * manager fetches and verifies, so code fetched from any host but an official installer's and run is CRIT.
   */
  buildStep?: boolean;
  /**
   * The command runs on a bare build command (`make` runs the default goal): raised as automatic only
   * when what runs is the download itself (piped, substituted or saved and run), not a committed
   * script run after a download of data (`curl -o api.json … && node gen.js api.json`).
   */
  bareBuild?: boolean;
}

const RAISE: Readonly<Record<Severity, Severity>> = { LOW: 'MED', MED: 'HIGH', HIGH: 'CRIT', CRIT: 'CRIT' };

// A run kept out of sight: output thrown away, sent to the background or detached, a hidden window.
// An installer a user or a build relies on shows what it does; a loader does not.
const CONCEALED = /[12]?>\s*\/dev\/null|>\s*nul\b|&\s*$|&\s*\)|\bnohup\b|\bsetsid\b|\bdisown\b|-w(?:indowstyle)?\s+h(?:idden)?\b|\bstart\s+\/b\b|-NonInteractive\b[^\n]*-w\b/i;

// commandSignals titles judged here with the source's host instead.
const HOST_JUDGED = new Set(['Downloads a script and pipes it to a shell', 'Downloads from a host that is not a package registry', 'Downloads a binary, makes it executable and runs it']);

/**
 * Findings for one shell command a repository runs or tells something to run: code downloaded and
 * run (severity by where it comes from — an official installer host is LOW, a named host MED, plain
 * HTTP, an IP address, a paste site, shortener or tunnel HIGH — one step higher when nobody chooses
 * to run it), and the other command shapes the packages agent judges (reverse shells, miners,
 * decode-and-run, hidden PowerShell, Windows loader binaries, AI CLIs with their checks bypassed,
 * deleting home or root).
 */
export function shellCommandFindings(command: string, ctx: ShellContext): AgentFinding[] {
  const out: AgentFinding[] = [];
  const push = (category: string, severity: Severity, title: string) =>
    out.push(referenceFinding({ category, severity, title: `${ctx.where}: ${title}`, file: ctx.file, line: ctx.line, evidence: command.trim().slice(0, 300) }));
  const runs = PIPE_TO_INTERPRETER.test(command) || SUBSTITUTED_INTO_INTERPRETER.test(command) || DOWNLOAD_THEN_RUN.test(command) || downloadedFileRun(command) !== null;
  if (runs) {
    const source = downloadSource(command, ctx.ownHosts);
    const base: Severity = source === 'official' ? 'LOW' : source === 'named' ? 'MED' : 'HIGH';
    // A build step, or an automatic run kept out of sight, fetching and running code from a host that is not an official installer's.
    const itself = PIPE_TO_INTERPRETER.test(command) || SUBSTITUTED_INTO_INTERPRETER.test(command) || downloadedFileRun(command) !== null;
    const automatic = ctx.automatic || (ctx.bareBuild === true && itself);
    const unambiguous = itself && (ctx.buildStep === true || (automatic && CONCEALED.test(command)));
    const severity = unambiguous && source !== 'official' ? 'CRIT' : automatic && source !== 'official' ? RAISE[base] : base;
    const from = source === 'official' ? 'an official installer host' : source === 'anonymous' ? 'plain HTTP, an IP address or an anonymous host' : 'the network';
    push('remote_code_execution', severity, `downloads code from ${from} and runs it`);
  }
  for (const s of commandSignals(command)) {
    if (HOST_JUDGED.has(s.title)) continue;
    push(s.category, s.severity, s.title.charAt(0).toLowerCase() + s.title.slice(1));
  }
  if (PROCESS_MEMORY_DUMP.test(command)) push('credential_access', 'CRIT', 'reads another process’s memory for secrets');
  if (SENDS_ENVIRONMENT.test(command)) push('exfiltration', ctx.automatic ? 'CRIT' : 'HIGH', 'sends the whole environment over the network');
  if (SENDS_CREDENTIAL_FILE.test(homeRelativeCredentials(command))) push('exfiltration', 'CRIT', 'sends a credential file over the network');
  if (SENDS_SECRET_OUTPUT.test(command)) push('exfiltration', ctx.automatic ? 'CRIT' : 'HIGH', 'sends a token or stored credential over the network');
  return out;
}

/**
 * Findings of a whole shell script (a git hook, a dev container or lifecycle script) beyond its
 * lines one by one: credential files archived or copied on one line and a file uploaded on
 * another (`tar czf /tmp/x.tgz ~/.ssh` … `curl -F f=@/tmp/x.tgz https://…`).
 */
export function shellScriptFindings(text: string, ctx: Omit<ShellContext, 'line'>): AgentFinding[] {
  // A `sudo` shim written ahead of the real one (a file on PATH, an alias or function in a shell profile).
  const shim = privilegedShimFinding(ctx.file, text, ctx.where);
  return shim === null ? credentialUploadFindings(text, ctx) : [shim, ...credentialUploadFindings(text, ctx)];
}

/**
 * The script with each command continued over several lines (`\\` at the end) written on its first
 * line (the continuation lines left empty, so line numbers hold), and the variable of a `for V in
 * a b c; do … done` loop replaced in the loop's body by the words it takes: `for f in ~/.ssh/id_rsa
 * ~/.npmrc; do cat "$f"; done` reads as the files it reads.
 */
export function expandLoopLists(text: string): string {
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    let j = i;
    while (/\\\s*$/.test(lines[i]!) && j + 1 < lines.length && lines[i]!.length <= 8000) {
      lines[i] = `${lines[i]!.replace(/\s*\\\s*$/, '')} ${lines[++j]!.trim()}`;
      lines[j] = '';
    }
    i = j;
  }
  let joined = lines.join('\n');
  if (!/\bfor\s+[A-Za-z_]\w*\s+in\b/.test(joined)) return joined;
  const loop = /\bfor\s+([A-Za-z_]\w*)\s+in\s+([^;\n]+?)\s*(?:;|\n)\s*do\b([\s\S]*?)(?:^|[;\s])done\b/gm;
  joined = joined.replace(loop, (whole: string, name: string, words: string, body: string) => {
    if (words.length > 4000 || body.trim() === '') return whole;
    const list = words.trim().replace(/["']/g, '').split(/\s+/).join(' ');
    const expanded = body.replace(new RegExp(String.raw`\$\{?${name}\}?(?!\w)`, 'g'), list);
    return whole.replace(body, () => expanded);
  });
  return joined;
}

function credentialUploadFindings(original: string, ctx: Omit<ShellContext, 'line'>): AgentFinding[] {
  const text = homeRelativeCredentials(expandLoopLists(original));
  const collect = COLLECTS_CREDENTIALS.exec(text);
  const upload = collect ? UPLOADS_FILE.exec(text.slice(collect.index)) : null;
  if (!collect || !upload) return [];
  const line = text.slice(0, collect.index).split('\n').length;
  const evidence = `${collect[0].trim().slice(0, 140)} … ${upload[0].trim().slice(0, 140)}`;
  // A backup script someone runs by hand (a dotfiles repository) may do this, so it warns; one that runs by itself is theft.
  return [referenceFinding({ category: 'exfiltration', severity: ctx.automatic ? 'CRIT' : 'HIGH', title: `${ctx.where}: collects credential files and uploads them`, file: ctx.file, line, evidence })];
}
