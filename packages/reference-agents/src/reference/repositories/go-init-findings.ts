import type { AgentFinding } from '@vigil/core';
import { referenceFinding } from '../common/reference-finding.js';
import { shellCommandFindings } from './shell-command-findings.js';
import { goSliceText } from '../code/go-strings.js';
import { goTriviaEnd } from '../code/go-trivia.js';

/** Bytes of one `init` body read at most (a registration block is a few hundred). */
const MAX_BODY = 64 * 1024;
/** `init` functions read per file at most (Go allows several). */
const MAX_INITS = 8;

/** A process started from Go: os/exec, os.StartProcess, syscall.Exec/ForkExec. */
const GO_PROCESS = /\bexec\.Command(?:Context)?\s*\(|\bos\.StartProcess\s*\(|\bsyscall\.(?:Exec|ForkExec|StartProcess)\s*\(/;
/** A shell, downloader or script host as the program: `exec.Command("sh", "-c", …)`, `exec.Command("curl", …)`. */
const GO_SHELL_OR_DOWNLOADER = /\bexec\.Command(?:Context)?\s*\(\s*(?:ctx\s*,\s*)?"(?:[\w/.-]*\/)?(?:sh|bash|zsh|dash|cmd(?:\.exe)?|powershell(?:\.exe)?|pwsh|curl|wget|python3?|perl|nc|ncat)"/;
/** Network I/O in Go: net/http, net.Dial, a TLS or UDP connection, a DNS lookup. */
const GO_NETWORK = /\bhttp\.(?:Get|Post|PostForm|Head|NewRequest(?:WithContext)?)\s*\(|\b(?:http\.DefaultClient|client)\.(?:Do|Get|Post)\s*\(|\bnet\.(?:Dial(?:Timeout|TCP|UDP)?|LookupHost|LookupTXT|LookupIP)\s*\(|\btls\.Dial\s*\(/;
/** What an init could send: the whole environment, secret-named variables, files of the home directory. */
const GO_SECRET_SOURCE = /\bos\.Environ\s*\(|\bos\.Getenv\s*\(\s*"[A-Z0-9_]*(?:TOKEN|SECRET|KEY|PASS(?:WORD)?|CREDENTIALS?|AUTH)[A-Z0-9_]*"|\bos\.UserHomeDir\s*\(|\.ssh\/|\.aws\/|\.npmrc|\.git-credentials|\.docker\/config\.json|\.kube\/config/;
/** A script fetched and run: a URL or a download in the command, or a pipe into a shell. */
const GO_DOWNLOAD_RUN = /"(?:https?|ftp):\/\/|\|\s*(?:ba)?sh\b|\b(?:curl|wget)\b/;

// A download piped into a shell, read across the string literals of the package joined in order:
// `[]string{"wget", "-O", "-", "https://…", "|", "/bin/bash"}` joined by a helper in another file.
const LITERALS_DOWNLOAD_RUN = /\b(?:curl|wget)\b[^|\n]{0,300}\|\s*(?:\/(?:usr\/)?bin\/)?(?:ba|z|da)?sh\b/;

/** The package's string literals (interpreted and raw), joined by spaces, then each one reversed (a loader's `reverse("hsab/nib/ | …")`). */
function joinedLiterals(text: string): string {
  const literals = [...foldGoStrings(text).matchAll(/"((?:[^"\\\n]|\\.)*)"|`([^`]*)`/g)].map((m) => m[1] ?? m[2] ?? '');
  return `${literals.join(' ')} ${literals.map((l) => [...l].reverse().join('')).join(' ')}`;
}

// Bounds of the folding: a byte slice or encoded string longer than this is data, not a command line.
const MAX_FOLDED = 4096;

/**
 * Go source with the string constructions a loader hides its command in folded to plain literals, so
 * the checks read the command it runs: `string([]byte{119, 103, …})`, `[]byte{…}` assigned and
 * converted later, `base64.StdEncoding.DecodeString("…")` (and URL/Raw variants), `hex.DecodeString("…")`,
 * and `"a" + "b"` concatenations; (round s31) rune slices (`[]rune{…}`, `[]int32{…}`, `[]uint8{…}`) and
 * `string([]byte("…"))`. Line breaks are kept so line numbers still hold.
 */
export function foldGoStrings(text: string): string {
  const quote = (s: string) => `"${s.replace(/[\\"]/g, (c) => `\\${c}`).replace(/\n/g, '\\n')}"`;
  // Byte and rune slices (`string([]byte{119, 103, …})`, (round s31) `[]rune{…}`, `[]int32{…}`, `[]uint8{…}`) are
  // the text they spell, read by the one reader of code/go-strings.ts (`goSliceText`: bytes as UTF-8, Latin-1 when
  // they are not UTF-8), and `string([]byte("…"))` is the literal it converts.
  const slice = (m: string, kind: string, body: string) => {
    const v = goSliceText(kind, body);
    return v === null ? m : `${quote(v)}${'\n'.repeat((m.match(/\n/g) ?? []).length)}`;
  };
  let out = text.replace(/\bstring\s*\(\s*\[\](byte|uint8|rune|int32)\s*\{([^{}]{1,20000})\}\s*\)/g, slice).replace(/\[\](byte|uint8|rune|int32)\s*\{([^{}]{1,20000})\}/g, slice);
  out = out.replace(/\bstring\s*\(\s*\[\](?:byte|uint8|rune|int32)\s*\(\s*("(?:[^"\\\n]|\\.)*"|`[^`]*`)\s*\)\s*\)/g, '$1');
  out = out.replace(/\bbase64\.(?:Std|URL|RawStd|RawURL)Encoding\.DecodeString\s*\(\s*"([A-Za-z0-9+/_=-]{8,})"\s*\)/g, (m, b64: string) => (b64.length > MAX_FOLDED * 2 ? m : quote(Buffer.from(b64.replace(/-/g, '+').replace(/_/g, '/'), 'base64').toString('latin1'))));
  out = out.replace(/\bhex\.DecodeString\s*\(\s*"((?:[0-9a-fA-F]{2}){4,})"\s*\)/g, (m, hex: string) => (hex.length > MAX_FOLDED * 2 ? m : quote(Buffer.from(hex, 'hex').toString('latin1'))));
  for (let i = 0; i < 8 && /"\s*\+\s*"/.test(out); i++) out = out.replace(/"((?:[^"\\\n]|\\.)*)"\s*\+\s*"((?:[^"\\\n]|\\.)*)"/g, '"$1$2"');
  return out;
}

function lineOf(text: string, index: number): number {
  let line = 1;
  for (let i = 0; i < index; i++) if (text.charCodeAt(i) === 10) line++;
  return line;
}

/** The bodies of `func init() { … }` with their start offsets: braces counted outside strings, runes and comments. */
export function goInitBodies(text: string): { open: number; body: string }[] {
  const out: { open: number; body: string }[] = [];
  const re = /^func\s+init\s*\(\s*\)\s*\{/gm;
  for (let m = re.exec(text); m !== null && out.length < MAX_INITS; m = re.exec(text)) {
    const open = m.index + m[0].length;
    let depth = 1;
    let i = open;
    const end = Math.min(text.length, open + MAX_BODY);
    while (i < end && depth > 0) {
      const past = goTriviaEnd(text, i, end);
      if (past > i) {
        i = past;
        continue;
      }
      const c = text[i]!;
      if (c === '{') depth++;
      else if (c === '}') depth--;
      i++;
    }
    out.push({ open, body: text.slice(open, i - 1) });
  }
  return out;
}

/** Whether an init of this file starts a shell or downloader, so the package's other files are worth reading. */
export function goInitRunsShell(path: string, text: string): boolean {
  return /\.go$/.test(path) && !/_test\.go$/.test(path) && goInitBodies(text).some(({ body }) => GO_SHELL_OR_DOWNLOADER.test(foldGoStrings(body)));
}

/**
 * What a Go package's `init` functions do: they run at the start of every program and test binary
 * that imports the package (`go run`, `go test`, a dependent's binary), before its `main`. A registration (`flag.StringVar`, `sql.Register`, `prometheus.MustRegister`)
 * is nothing to report; a process, a download or the environment sent over the network is.
 */
export function goInitFindings(path: string, text: string, packageTexts: readonly string[] = []): AgentFinding[] {
  if (!/\.go$/.test(path) || /_test\.go$/.test(path) || !text.includes('func init')) return [];
  const findings: AgentFinding[] = [];
  for (const { open, body: raw } of goInitBodies(text)) {
    // The body with byte-slice, base64, hex and concatenated strings folded to literals (same line breaks).
    const body = foldGoStrings(raw);
    const first = lineOf(text, open);
    const at = (re: RegExp) => {
      const m = re.exec(body);
      if (m === null) return null;
      const eol = body.indexOf('\n', m.index);
      return { line: first + lineOf(body, m.index) - 1, excerpt: body.slice(m.index, eol < 0 ? undefined : eol).trim().slice(0, 200) };
    };
    const process = at(GO_PROCESS);
    const network = at(GO_NETWORK);
    const secret = at(GO_SECRET_SOURCE);
    if (process !== null) {
      const shell = GO_SHELL_OR_DOWNLOADER.test(body);
      // The shell's command built by a function elsewhere in the package (another file, a string
      // table joined at run time): the package's literals spell a download piped into a shell
      // (typosquatted Go modules with an init loader, Socket 2025).
      const built = shell && LITERALS_DOWNLOAD_RUN.test([text, ...packageTexts].map(joinedLiterals).join(' '));
      const downloads = network !== null || GO_DOWNLOAD_RUN.test(body) || built;
      if (shell || downloads) {
        findings.push(referenceFinding({ category: 'remote_code_execution', severity: downloads ? 'CRIT' : 'HIGH', title: downloads ? 'Go init() downloads and runs code when the package is imported' : 'Go init() runs a shell or downloader when the package is imported', file: path, line: process.line, evidence: process.excerpt }));
      } else {
        findings.push(referenceFinding({ category: 'remote_code_execution', severity: 'MED', title: 'Go init() starts a process when the package is imported', file: path, line: process.line, evidence: process.excerpt }));
      }
    }
    if (network !== null) {
      if (secret !== null) findings.push(referenceFinding({ category: 'exfiltration', severity: 'HIGH', title: 'Go init() sends the environment, secrets or home files over the network', file: path, line: network.line, evidence: `${secret.excerpt} … ${network.excerpt}`.slice(0, 300) }));
      else if (process === null) findings.push(referenceFinding({ category: 'network_access', severity: 'MED', title: 'Go init() opens network connections when the package is imported', file: path, line: network.line, evidence: network.excerpt }));
    }
  }
  return findings;
}

/**
 * `//go:generate` directives: `go generate ./...` runs each as a command (no shell, but a directive may
 * name one: `sh -c "…"`, `bash script.sh`), and projects document it as a build step. Each gets the
 * shell checks as a build step: `stringer`, `mockgen` or `go run pkg@version` fetch nothing themselves.
 */
export function goGenerateFindings(path: string, text: string): AgentFinding[] {
  if (!text.includes('//go:generate')) return [];
  const out: AgentFinding[] = [];
  text.split('\n').forEach((line, i) => {
    const m = /^\/\/go:generate\s+(.{1,4000})$/.exec(line.trimEnd());
    if (m !== null) out.push(...shellCommandFindings(m[1]!.replace(/^(?:-command\s+\S+\s+)?/, ''), { file: path, line: i + 1, where: 'go:generate directive', automatic: false, buildStep: true }));
  });
  return out;
}
