import { DOTENV_PATH_PATTERN, SECRET_PATH_PATTERN, persistenceKind, type ScriptFact } from './script-fact.js';
import { isExecutableMode } from './written-file.js';
import { encodedCommandPayload } from '../text/encoded-command.js';
import { credentialUploads } from './credential-uploads.js';
import { expandShellVariables } from '../repositories/shell-command-findings.js';
import { localShellLines } from './ssh-remote-command.js';

export { CREDENTIAL_COMMAND } from './credential-uploads.js';

const RULES: ReadonlyArray<[ScriptFact['kind'], RegExp]> = [
  // PowerShell's cradles (case does not matter to it): `IEX ((New-Object Net.WebClient).DownloadString(u))`, `iwr u | iex`.
  ['download-exec', /\b(?:iex|Invoke-Expression)\b[^\n]{0,80}?\b(?:DownloadString|DownloadData|Invoke-WebRequest|iwr|irm|Invoke-RestMethod)\b|\b(?:DownloadString|iwr|irm|Invoke-RestMethod|Invoke-WebRequest)\b[^\n|]*\|\s*(?:iex|Invoke-Expression)\b/i],
  ['download-exec', /\b(?:curl|wget|iwr|Invoke-WebRequest)\b[^|;\n]*\|\s*(?:sudo\s+)?(?:ba|z|da)?sh\b|\b(?:ba)?sh\s+<\(\s*(?:curl|wget)\b|\b(?:ba)?sh\s+-c\s+["']?\$\(\s*(?:curl|wget)\b/],
  ['decoded-exec', /\bbase64\s+(?:-d|--decode|-D)\b[^\n]*\|\s*(?:ba|z)?sh\b|\b(?:ba|z|da)?sh\s+-c\s+["']?\$\([^\n]*\bbase64\s+(?:-d|--decode|-D)\b|\beval\s+["']?\$\([^)]*base64\s+(?:-d|--decode)|\bxxd\s+-r[^\n]*\|\s*(?:ba)?sh\b/],
  ['reverse-shell', /\/dev\/(?:tcp|udp)\/|\bn(?:c|cat)\b[^\n]*\s-e\s|\bmkfifo\b[^\n]*\bn(?:c|cat)\b|\bsocat\b[^\n]*exec:|\b([3-9])<>[^;&|\n]*[;&|\n][^\n]*?(?:\b(?:ba|z|da|k)?sh\b[^\n;|&]*<&\s*\1\b|\bread\b[^\n;]*<&\s*\1\b)/i],
  ['shell-injection', /(?<![\w-])eval\s+["']?[^"'\n]*\$\{?(?:[0-9@*]|[A-Za-z_])|\b(?:ba|z)?sh\s+-c\s+["'][^"'\n]*\$\{?(?:[0-9@*]|[A-Za-z_])|\b(?:ba|z)?sh\s+-c\s+\$/],
  ['env-dump', /(?:^|[;&|(]\s*|\$\()\s*(?:printenv|env|export\s+-p)\s*(?:\||>|\)|$)|\bset\s*\|\s*(?:curl|nc|base64)/],
  // (round s31) Not a hidden folder's name (`mkdir -p ~/.ssh && chmod 700 ~/.ssh`, `$HOME/.ssh`): `/.` or `~.` before it.
  ['network', /(?<![/~]\.)\b(?:curl|wget|nc|ncat|scp|rsync|ssh|ftp|telnet|dig|nslookup|Invoke-WebRequest|Invoke-RestMethod)\s/],
  // Windows downloaders, in any case as PowerShell and cmd read them: WebClient, BITS, certutil.
  ['network', /^(?![^\n]*\b(?:curl|wget|Invoke-WebRequest|Invoke-RestMethod)\s)[^\n]*(?:\.Download(?:File|String|Data)(?:Async)?\(|\b(?:Start-BitsTransfer|bitsadmin)\s|\bcertutil(?:\.exe)?\s[^\n]*-urlcache\b)/i],
  // Windows autostart: a Run/RunOnce or Winlogon registry value, a scheduled task (MITRE T1547.001, T1053.005).
  ['persistence-write', /\b(?:New-ItemProperty|Set-ItemProperty|reg(?:\.exe)?\s+add)\b[^\n]*\\(?:CurrentVersion\\Run(?:Once)?|CurrentVersion\\Winlogon)\b|\bschtasks(?:\.exe)?\s+\/create\b|\bRegister-ScheduledTask\b/i],
  // Antivirus told to look away: a Defender exclusion or its protections switched off (MITRE T1562.001).
  ['defense-evasion', /\b(?:Add|Set)-MpPreference\b[^\n]*\s-(?:Exclusion(?:Path|Process|Extension)|Disable(?:RealtimeMonitoring|BehaviorMonitoring|IOAVProtection|ScriptScanning))\b|\bWindows Defender\\Exclusions\\|\bnetsh\s+advfirewall\s+set\s+\w+\s+state\s+off\b/i],
  // The environment piped into any program that is handed an address (`env | /usr/local/bin/agent --report https://…`):
  // a helper binary the image downloaded sends it as well as curl would.
  ['network', /(?:^|[;&|(]\s*|\$\()\s*(?:printenv|env|set|export\s+-p)\s*\|[^\n]*?(?:https?|wss?|ftp):\/\/(?!localhost\b|127\.)/],
  ['destructive', /\brm\s+(?:-[a-zA-Z]*[rR][a-zA-Z]*f?[a-zA-Z]*\s+|-[a-zA-Z]*f[a-zA-Z]*\s+-[a-zA-Z]*[rR]\s+|--recursive\s+(?:--force\s+)?)(?:--no-preserve-root\s+)?["']?(?:\/\*?|~\/?\*?|\$HOME\/?\*?|\$\{HOME\}\/?\*?|\/(?:home|Users|etc|usr|var|boot)\/?\*?)["']?(?:\s|$|;|&)|\bdd\s+[^\n]*\bof=\/dev\/(?:sd|nvme|disk|hd)|\bmkfs(?:\.\w+)?\s+\/dev\/|\bchmod\s+-R\s+0?777\s+\/(?:\s|$)|\bRemove-Item\b[^\n]*-Recurse[^\n]*(?:\$HOME|\$env:USERPROFILE|C:\\)(?:\s|$|\\\*)/],
];

// Where a download is saved: `curl -o FILE`, `wget -O FILE`, `Invoke-WebRequest -OutFile FILE`; `curl -O URL`
// and `wget URL` save under the URL's last segment.
// PowerShell and Windows: WebClient `.DownloadFile(url, FILE)`, `Start-BitsTransfer … -Destination FILE`, `certutil -urlcache -f URL FILE`.
const SAVED_TO = /\bcurl\b[^\n|;]*?\s(?:-[a-zA-Z]*o|--output)\s+["']?([^\s"';|&]+)|\bwget\b[^\n|;]*?\s(?:-[a-zA-Z]*O|--output-document(?:=|\s+))\s*["']?([^\s"';|&]+)|\b(?:Invoke-WebRequest|iwr)\b[^\n|;]*?-OutFile\s+["']?([^\s"';|&]+)|\.DownloadFile(?:Async)?\(\s*[^,\n]+,\s*["']?([^"'\n)]+)|\bStart-BitsTransfer\b[^\n|;]*?-Destination\s+["']?([^\s"';|&]+)|\bcertutil(?:\.exe)?\b[^\n|]*?-urlcache\b[^\n|&]*?\shttps?:\/\/\S+\s+["']?([^\s"';|&]+)/i;
const SAVED_AS_URL = /\b(?:curl\b[^\n|;]*?\s-[a-zA-Z]*O\b|wget\b)[^\n|;]*?(https?:\/\/[^\s"';|&]+)/;
// A command that runs a file or makes it executable: `bash f`, `sh f`, `python f`, `chmod +x f`, `./f`.
// PowerShell's call operator `&`, `Start-Process`/`Invoke-Item`, cmd's `start`/`call`, and a scheduled task's `/tr` run one too.
const RUNS = /(?:^|[;&|(]\s*|\b(?:then|do|sudo|nohup|exec)\s+)(?:(?:ba|z|da)?sh|source|\.|&|python[\d.]*|node|perl|ruby|pwsh|powershell(?:\s+-File)?|Start-Process(?:\s+-FilePath)?|Invoke-Item|start(?:\s+(?:\/b|\/min|""))*|call|cmd(?:\.exe)?\s+\/c(?:\s+start)?|msiexec\s+\/i|schtasks(?:\.exe)?\s+\/create\b[^\n]*?\/tr|chmod\s+(\S+))\s+["']?([^\s"';|&)]+)|(?:^|[;&|]\s*|\bsudo\s+)(\.\/[^\s"';|&)]+|\/tmp\/[^\s"';|&)]+)/g;
// A write by redirection, tee or copy, and the path it writes.
const WRITES_TO = /(?:>>?|\btee\s+(?:-a\s+)?|\b(?:cp|mv|install|ln\s+-s\w*)\s+(?:-\S+\s+)*[^\s;|&<>]+\s+)\s*["']?((?:~|\$HOME|\$\{HOME\}|%USERPROFILE%|\.{0,2}\/)?[\w.~$%{}/\\-]*[\w.}])/g;
// What makes an appended startup line or a cron entry more than configuration: it fetches, decodes or runs code.
const ACTIVE_LINE = /\b(?:curl|wget|nc|ncat|base64|nohup)\b|\b(?:python[\d.]*|bash|sh)\s+-c\b|\/dev\/tcp|https?:\/\//;

// A file that holds data, not code: what a polyglot hides a payload in (after an image's IEND chunk, a font's tables).
export const DATA_FILE = String.raw`[\w./~$\{\}-]*\.(?:png|jpe?g|gif|bmp|ico|icns|webp|svg|tiff?|woff2?|ttf|otf|eot|mp3|mp4|m4a|wav|ogg|avi|mov|pdf|dat|bin|db|sqlite3?|pak)\b`;
// Carving: a command that cuts bytes or lines out of a data file by offset, count or marker.
const CARVER = String.raw`(?:tail\s+(?:-\w+\s+)*-(?:c|n|-bytes=?|-lines=?)\s*\+?\d+|head\s+(?:-\w+\s+)*-(?:c|-bytes=?)\s*-?\d+|dd\b(?=[^|\n]*\b(?:skip|iseek|count)=)|cut\s+-b|sed\s+(?:-\w+\s+)*['"]?(?:\d+|\/[^/'"]+\/)\s*,|awk\s+['"][^'"]*\/[^/'"]+\/|strings\b|xxd\s+-s|split\s+-b|tr\s+-d)`;
const INTERPRETER = String.raw`(?:sudo\s+)?(?:(?:ba|z|da|k)?sh|python[\d.]*|node|perl|ruby|php|pwsh|powershell|source\s+\/dev\/stdin)\b`;
// `tail -c +N logo.png | sh`, `dd if=font.woff bs=1 skip=N | bash`, `eval "$(tail -c … logo.png)"`, `sh <(tail -c … x.png)`.
const CARVED_RUN = new RegExp(
  String.raw`\b${CARVER}[^|\n]*?(?:\bif=)?${DATA_FILE}[^|\n]*(?:\|\s*(?:[\w-]+\s+[^|\n]*\|\s*)?${INTERPRETER})|(?:\beval|\bsource|(?:^|[;&|]\s*)\.|\b(?:ba|z)?sh\s+-c|\b(?:ba|z)?sh)\s+["']?(?:\$\(|<\()\s*${CARVER}[^)\n]*${DATA_FILE}`,
  'i',
);
// A carve written to a file: `tail -c +N logo.png > /tmp/x.sh`.
const CARVED_TO = new RegExp(String.raw`\b${CARVER}[^|\n>]*${DATA_FILE}[^>\n]*>\s*["']?([^\s"';|&]+)`, 'i');

/** A shell line without its trailing comment: a `#` after white space, outside quotes (`echo "a #b"` keeps it). */
export function withoutTrailingComment(line: string): string {
  let quote: string | null = null;
  for (let i = 0; i < line.length; i++) {
    const c = line[i] as string;
    if (quote !== null) {
      if (c === quote) quote = null;
      else if (c === '\\' && quote === '"') i++;
    } else if (c === '"' || c === "'") quote = c;
    else if (c === '\\') i++;
    else if (c === '#' && i > 0 && /\s/.test(line[i - 1] as string)) return line.slice(0, i);
  }
  return line;
}

/**
 * A command continued over lines (`\\` at the end in shell, a backtick in PowerShell) read as one line,
 * at its first line's index; the continued lines are left empty so every index stays the file's.
 * A pipeline split over lines (`tar … \\` / `| curl …`) is one flow.
 */
export function joinContinued(lines: readonly string[]): string[] {
  const out = [...lines];
  for (let i = 0; i < out.length; i++) {
    let j = i;
    while (j + 1 < out.length && /(?:^|[^\\])(?:\\|\s`)\s*$/.test(out[i] as string) && (out[i] as string).length < 4000) {
      j++;
      out[i] = `${(out[i] as string).replace(/(?:\\|`)\s*$/, '')} ${(out[j] as string).trim()}`;
      out[j] = '';
    }
    i = j;
  }
  return out;
}

function baseName(path: string): string {
  const parts = path.split(/[/\\]/).filter((p) => p !== '');
  return (parts[parts.length - 1] ?? '').replace(/[?#].*$/, '');
}

/**
 * Bytes cut out of a data file the artifact carries and run: piped or substituted into a shell or
 * interpreter on one line, or written to a file that the same or a later line runs.
 */
function carvedThenRun(lines: readonly string[]): ScriptFact[] {
  const carved: Array<{ name: string; line: number; text: string }> = [];
  for (let i = 0; i < lines.length; i++) {
    const line = (lines[i] ?? '').trim();
    if (line === '' || line.startsWith('#') || line.length > 2000) continue;
    if (CARVED_RUN.test(line)) return [{ kind: 'carved-exec', line: i + 1, evidence: line }];
    const to = CARVED_TO.exec(line);
    if (to) carved.push({ name: baseName(to[1] as string), line: i + 1, text: line });
    if (carved.length === 0) continue;
    for (const m of line.matchAll(RUNS)) {
      if (m[1] !== undefined && !isExecutableMode(m[1])) continue;
      const hit = carved.find((d) => d.name === baseName((m[2] ?? m[3] ?? '') as string));
      if (hit) return [{ kind: 'carved-exec', line: i + 1, evidence: hit.line === i + 1 ? line : `${hit.text} … ${line}` }];
    }
  }
  return [];
}

// An interpreter given its program inline: `python3 - ARGS <<'EOF'`, `python3 -c "…"`, `node -e "…"`, `perl -e`, `ruby -e`.
const INLINE_PROGRAM = /(?:^|[;&|(]\s*|\b(?:then|do|sudo|exec)\s+)(?:python[\d.]*|node|perl|ruby|php)\s+(?:-[a-zA-Z]+\s+)*(?:-\s|-[ce]\s|-\s*$)/;
// What loads a file as code in that program: `runpy.run_path`, `exec(open(…).read())`, an import from a path, `require(path)`, `do FILE`.
const LOADS_CODE = /\brunpy\.run_(?:path|module)\s*\(|\bexec(?:file)?\s*\(\s*(?:open|compile|pathlib|Path|\w+\.read)|\b(?:SourceFileLoader|spec_from_file_location|load_source|import_module)\s*\(|\b__import__\s*\(|\brequire\s*\(\s*(?!['"][\w@/.-]+['"]\s*\))|\bvm\.runIn\w*\s*\(|\beval\s*\(\s*(?:fs\.readFileSync|open\s*\()|\bdo\s+\$|\bload\s+\$/;

/**
 * A downloaded file handed to an inline program that loads a file as code: the shell saves `pack.py`,
 * then `python3 - "$CACHE/pack.py" <<'PY' … runpy.run_path(sys.argv[2]) … PY` (or `python3 -c
 * "exec(open('…/pack.py').read())"`). The file runs as surely as with `python3 pack.py`; a program that
 * reads the download as data (`json.load`, `yaml.safe_load`) loads no code.
 */
function inlineLoaderOf(lines: readonly string[], i: number, saved: ReadonlyArray<{ name: string; line: number; text: string }>): { line: number; text: string } | null {
  const line = (lines[i] ?? '').trim();
  if (!INLINE_PROGRAM.test(line)) return null;
  // The program: the rest of the line, and a here-document's body up to its terminator (bounded).
  const heredoc = /<<-?\s*["']?(\w+)["']?/.exec(line);
  let program = line;
  if (heredoc !== null) {
    for (let j = i + 1; j < lines.length && j < i + 400; j++) {
      if ((lines[j] ?? '').trim() === heredoc[1]) break;
      program += `\n${lines[j] ?? ''}`;
    }
  }
  if (!LOADS_CODE.test(program)) return null;
  return saved.find((d) => program.includes(d.name)) ?? null;
}

/** Downloads saved to a file that a later line (or the same one) runs or makes executable. */
function downloadThenRun(lines: readonly string[]): ScriptFact[] {
  const facts: ScriptFact[] = [];
  const saved: Array<{ name: string; line: number; text: string }> = [];
  for (let i = 0; i < lines.length; i++) {
    const line = (lines[i] ?? '').trim();
    if (line === '' || line.startsWith('#') || line.length > 2000) continue;
    const to = SAVED_TO.exec(line);
    const url = to ? null : SAVED_AS_URL.exec(line);
    const name = to ? baseName(to.slice(1).find((g) => g !== undefined) as string) : url ? baseName(url[1] as string) : '';
    if (name !== '' && name !== '-' && !/^\/dev\//.test(name)) saved.push({ name, line: i + 1, text: line });
    if (saved.length === 0) continue;
    const inline = inlineLoaderOf(lines, i, saved);
    if (inline !== null) {
      facts.push({ kind: 'download-exec', line: i + 1, evidence: inline.line === i + 1 ? line : `${inline.text} … ${line}` });
      continue;
    }
    for (const m of line.matchAll(RUNS)) {
      if (m[1] !== undefined && !isExecutableMode(m[1])) continue;
      const target = baseName((m[2] ?? m[3] ?? '') as string);
      const hit = saved.find((d) => d.name === target);
      if (hit) {
        facts.push({ kind: 'download-exec', line: i + 1, evidence: hit.line === i + 1 ? line : `${hit.text} … ${line}` });
        break;
      }
    }
  }
  return facts;
}

const PUBLIC_KEY = /\.pub$/i;
const IDENTITY_USE = /\b(?:ssh|scp|sftp|rsync|autossh|mosh)\b[^\n;|&]*?\s-i\s*["']?([^\s"';|&]+)|\bIdentityFile[=\s]\s*["']?([^\s"';|&]+)|\bssh-add\s+(?:-\S+\s+)*["']?([^\s"';|&]+)/g;
const KEYGEN_ONLY = /^(?:sudo\s+)?ssh-keygen\s(?![^\n]*\$\()[^;&|<>`]*$/;

/** Writes to agent settings, memory, startup files and autostart entries by redirection, tee or copy (`evidence`: the line as written). */
function persistenceWrites(line: string, lineNo: number, evidence: string): ScriptFact[] {
  const facts: ScriptFact[] = [];
  for (const m of line.matchAll(WRITES_TO)) {
    const path = m[1] as string;
    const kind = persistenceKind(path, /^(?:~|\$HOME|\$\{HOME\}|%USERPROFILE%)/.test(path));
    if (kind === 'persistence' || (kind === 'shell-startup' && ACTIVE_LINE.test(line))) return [{ kind: 'persistence-write', line: lineNo, evidence }];
    if (kind === 'memory') facts.push({ kind: 'agent-memory-write', line: lineNo, evidence });
  }
  if (/\|\s*crontab\b|\bcrontab\s+-\s*$/.test(line) && ACTIVE_LINE.test(line)) return [{ kind: 'persistence-write', line: lineNo, evidence }];
  return facts.slice(0, 1);
}

/**
 * Facts of a shell script (or any text) by lines; comment lines are skipped, and lines over 2000
 * characters too unless `longLines` (the one-line shapes looked for in minified code).
 */
export function shellFacts(text: string, options: { longLines?: boolean } = {}): ScriptFact[] {
  const facts: ScriptFact[] = [];
  const lines = joinContinued(text.split('\n'));
  // The same lines with constants built from pieces put in (`t=$(printf '\x2f\x64…')` … `bash -i >& $t/$h/$p`).
  const expandedLines = joinContinued(expandShellVariables(text).split('\n'));
  // What runs on this machine: the command `ssh HOST '…'` runs on HOST, its paths are HOST's (ssh-remote-command.ts).
  const localLines = localShellLines(lines);
  for (let i = 0; i < lines.length; i++) {
    const raw = lines[i] ?? '';
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) continue;
    if (line.length > 2000 && options.longLines !== true) continue;
    for (const [kind, pattern] of RULES) {
      const m = pattern.exec(line);
      if (m) facts.push({ kind, line: i + 1, evidence: line.length > 2000 ? line.slice(Math.max(0, m.index - 100), m.index + 300) : line });
    }
    const expanded = (expandedLines[i] ?? '').trim();
    if (expanded !== line && expanded.length <= 2000) {
      for (const [kind, pattern] of RULES) if (!facts.some((f) => f.line === i + 1 && f.kind === kind) && pattern.test(expanded)) facts.push({ kind, line: i + 1, evidence: `${line.slice(0, 140)} → reads as: ${expanded.slice(0, 200)}` });
    }
    // An encoded literal handed to an interpreter is judged by what it decodes to (encoded-command.ts).
    if (!facts.some((f) => f.line === i + 1 && f.kind === 'decoded-exec')) {
      const payload = encodedCommandPayload(line, text);
      if (payload !== null) facts.push({ kind: 'decoded-exec', line: i + 1, evidence: `${line.slice(0, 160)} → runs: ${payload}` });
    }
    // The address kept in a variable of the script (`URL=https://…` … `env | agent --report "$URL"`).
    const piped = /(?:^|[;&|(]\s*|\$\()\s*(?:printenv|env|set|export\s+-p)\s*\|[^\n]*?\$\{?([A-Za-z_]\w*)/.exec(line);
    if (piped !== null && !facts.some((f) => f.line === i + 1 && f.kind === 'network') && new RegExp(String.raw`^\s*(?:export\s+|readonly\s+|local\s+)?${piped[1]}=["']?(?:https?|wss?|ftp):\/\/(?!localhost\b|127\.)`, 'm').test(text)) facts.push({ kind: 'network', line: i + 1, evidence: line });
    if (line.length > 2000) continue;
    const local = (localLines[i] ?? '').trim();
    // (round s30, real false alarms) A trailing comment names no path the line reads: `force_http: true  # HTTP can't use
    // Secure cookies` in a configuration example is no browser cookie store.
    const words = withoutTrailingComment(local).split(/[\s"'=;|&<>()@]+/).filter((w) => w !== '');
    facts.push(...persistenceWrites(local, i + 1, line));
    // A public key (`id_ed25519.pub`) is meant to be shown; a line that only makes or inspects a key with ssh-keygen reads none out.
    // A key given to ssh, scp or rsync as the identity to log in with (`-i ~/.ssh/deploy_key`, `IdentityFile`, `ssh-add`) is used, not read out.
    const identities = new Set([...line.matchAll(IDENTITY_USE)].map((m) => m[1] ?? m[2] ?? m[3]));
    if (words.some((w) => SECRET_PATH_PATTERN.test(w) && !PUBLIC_KEY.test(w) && !identities.has(w)) && !KEYGEN_ONLY.test(line)) facts.push({ kind: 'secret-path', line: i + 1, evidence: line });
    else if (words.some((w) => DOTENV_PATH_PATTERN.test(w))) facts.push({ kind: 'dotenv-path', line: i + 1, evidence: line });
  }
  // A download piped straight into a shell is already reported on its own line.
  for (const f of downloadThenRun(lines)) if (!facts.some((g) => g.kind === 'download-exec' && g.line === f.line)) facts.push(f);
  facts.push(...carvedThenRun(lines));
  // Credentials and .env files followed to what sends them: curl, the GitHub CLI, bucket copies, scp, git push… (credential-uploads.ts).
  facts.push(...credentialUploads(lines));
  return facts;
}
