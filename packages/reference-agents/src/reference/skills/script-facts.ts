import { lineLocator } from '../text/line-locator.js';
import { jsFacts } from './js-facts.js';
import { pythonFacts } from './python-facts.js';
import { shellFacts } from './shell-facts.js';
import { pythonCarvedExec } from './carved-payload.js';
import { decryptedDataFileExec, shellDecryptedExec } from './data-file-payload.js';
import type { ScriptFact, ScriptLanguage } from './script-fact.js';

export type { ScriptFact, ScriptFactKind, ScriptLanguage } from './script-fact.js';

export function languageOf(path: string): ScriptLanguage | null {
  const lower = path.toLowerCase();
  // Declaration files hold types only: nothing in them runs.
  if (/\.d\.[cm]?ts$/.test(lower)) return null;
  if (/\.(?:js|mjs|cjs|jsx)$/.test(lower)) return 'javascript';
  if (/\.(?:ts|mts|cts|tsx)$/.test(lower)) return 'typescript';
  if (/\.(?:py|pyw)$/.test(lower)) return 'python';
  // PowerShell is read by the shell-line rules, its string variables expanded first (powershellExpanded);
  // Windows batch files too (`certutil -urlcache … & start x.exe`, `reg add …\Run`): their commands are one a line.
  if (/\.(?:sh|bash|zsh|command|ps1|psm1|bat|cmd)$/.test(lower)) return 'shell';
  return null;
}

/**
 * A PowerShell script with its single-line string variables (`$p = "-nop -w hidden -EncodedCommand …"`)
 * written out where they are used (`Start-Process powershell.exe -ArgumentList $p`), so that a command
 * split across a variable reads as the command it runs.
 */
export function powershellExpanded(text: string): string {
  const values = new Map<string, string>();
  return text
    .split('\n')
    .map((raw) => {
      // Strings built to hide a name: `-join ([char[]](104,116,…))` and `"I" + "E" + "X"` read as the string they make;
      // a base64 literal decoded in place (`[Text.Encoding]::UTF8.GetString([Convert]::FromBase64String('…'))`) as its text,
      // so that the address a dropper hides so is the address its download reads.
      let line = raw.replace(POWERSHELL_BASE64_STRING, (m, encoding: string, _q: string, b64: string) => {
        const decoded = Buffer.from(b64, 'base64').toString(/^unicode$/i.test(encoding) ? 'utf16le' : 'utf8');
        return /^[\x20-\x7e\t]+$/.test(decoded) ? `"${decoded.replace(/"/g, "'")}"` : m;
      });
      line = line.replace(/-join\s*\(?\s*\[char\[\]\]\s*\(\s*([\d\s,]+)\)\s*\)?/gi, (_, codes: string) => `"${String.fromCharCode(...codes.split(',').map((c) => Number(c.trim())).filter((c) => c > 0 && c < 0x10000)).replace(/"/g, "'")}"`);
      for (let i = 0; i < 8 && /"[^"`$]*"\s*\+\s*"[^"`$]*"/.test(line); i++) line = line.replace(/"([^"`$]*)"\s*\+\s*"([^"`$]*)"/g, '"$1$2"');
      const assign = /^\s*\$([A-Za-z_]\w*)\s*=\s*(?:"([^"`$]*)"|'([^']*)')\s*;?\s*$/.exec(line);
      const expanded = values.size === 0 ? line : line.replace(/\$([A-Za-z_]\w*)\b/g, (m, name: string) => values.get(name.toLowerCase()) ?? m);
      if (assign) values.set(assign[1]!.toLowerCase(), assign[2] ?? assign[3] ?? '');
      return expanded;
    })
    .join('\n');
}

// `[System.Text.Encoding]::UTF8.GetString([System.Convert]::FromBase64String('…'))`, any of the usual encodings.
const POWERSHELL_BASE64_STRING =
  /\[(?:System\.)?Text\.Encoding\]::(UTF8|ASCII|Unicode|Default)\.GetString\(\s*\[(?:System\.)?Convert\]::FromBase64String\(\s*(["'])([A-Za-z0-9+/]{8,}={0,2})\2\s*\)\s*\)/gi;

/**
 * The language of a file without an extension by its `#!` line (`bin/setup`, `hooks/pre-push`): such
 * files are run as programs (git hooks, `./setup`) and are read like any script.
 */
export function shebangLanguage(path: string, text: string): ScriptLanguage | null {
  if ((path.split('/').pop() ?? '').includes('.')) return null;
  const interpreter = /^#!\s*(?:\/usr)?(?:\/local)?\/bin\/(?:env\s+(?:-S\s+)?)?([\w.-]+)/.exec(text)?.[1] ?? '';
  if (/^(?:ba|z|da|k)?sh$/.test(interpreter)) return 'shell';
  if (/^python[\d.]*$/.test(interpreter)) return 'python';
  if (/^(?:node|nodejs|bun|deno)$/.test(interpreter)) return 'javascript';
  return null;
}

// Tests, examples and benchmarks are not what a skill or server runs; security tools keep attack
// samples there as fixtures.
const NOT_SHIPPED_CODE = /(?:^|\/)(?:test|tests|__tests__|spec|specs|examples?|fixtures?|benchmarks?|bench)\/|\.(?:test|spec|bench)\.[cm]?[jt]sx?$|(?:^|\/)(?:test_[^/]*|[^/]*_test|conftest)\.py$/i;

/** True for test, example and benchmark code, which the reference agents do not analyze as code. */
export function isTestOrExample(path: string): boolean {
  return NOT_SHIPPED_CODE.test(path);
}

/** Files larger than this (bundles, generated code) are scanned by lines only, never parsed. */
export const DEEP_ANALYSIS_MAX_BYTES = 256 * 1024;

/**
 * False for files over DEEP_ANALYSIS_MAX_BYTES and for minified code (over 20 000 characters with
 * lines of 300 characters on average): parsing them costs much and their names say little.
 */
export function worthParsing(text: string): boolean {
  if (text.length > DEEP_ANALYSIS_MAX_BYTES) return false;
  if (text.length <= 20_000) return true;
  let lines = 1;
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) lines++;
  return text.length / lines < 300;
}

/** Facts of one script; a file of unknown language or too large for parsing falls back to the shell-line rules. */
export function scriptFacts(path: string, text: string, language: ScriptLanguage | null = languageOf(path)): ScriptFact[] {
  if (language === null) return [];
  let facts: ScriptFact[];
  if (language === 'shell') facts = shellFacts(/\.psm?1$/i.test(path) ? powershellExpanded(text) : text);
  else if (!worthParsing(text)) {
    // A large bundle read by lines: only the shapes that are unmistakable on one line count; words
    // like "ssh" or "env" in its strings mean nothing.
    facts = shellFacts(text, { longLines: true }).filter((f) => f.kind === 'download-exec' || f.kind === 'decoded-exec' || f.kind === 'reverse-shell');
  } else facts = language === 'python' ? pythonFacts(text) : jsFacts(text, language === 'typescript');
  if (language === 'python' && worthParsing(text)) {
    const carved = pythonCarvedExec(text);
    if (carved !== null) facts.push(carved);
  }
  // (round s31b) Data read from a file of the artifact, decrypted with a key of its own and run (data-file-payload.ts).
  if (language !== 'shell' && worthParsing(text)) {
    const decrypted = decryptedDataFileExec(text, language);
    if (decrypted !== null) facts.push(decrypted);
  } else if (language === 'shell') facts.push(...shellDecryptedExec(text));
  if (language === 'javascript' || language === 'typescript') facts = withoutReverseShellText(text, facts, worthParsing(text));
  if (language !== 'shell' && worthParsing(text)) facts.push(...fetchedThenRun(text, facts));
  const lineAt = lineLocator(text);
  for (const m of text.matchAll(HARDCODED_BCC)) facts.push({ kind: 'hardcoded-bcc', line: lineAt(m.index), evidence: m[0] });
  return facts;
}

/**
 * A command or code that arrived over the network, run: a name assigned on a line that makes a request
 * (`meta = json.load(urlopen(…))`, `const { data } = await axios.get(…)`), or from such a name
 * (`cmd = meta["post"]`), handed whole to a shell or an evaluator (`os.system(meta["post"])`,
 * `exec(code)`, `execSync(data.cmd)`). A self-updating skill that runs what its server says runs
 * whatever that server says next.
 */
function fetchedThenRun(text: string, facts: readonly ScriptFact[]): ScriptFact[] {
  const networkLines = new Set(facts.filter((f) => f.kind === 'network').map((f) => f.line));
  if (networkLines.size === 0) return [];
  const lines = text.split('\n');
  const tainted = new Set<string>();
  const ASSIGN = /^\s*(?:(?:const|let|var)\s+)?([A-Za-z_$][\w$]*(?:\s*,\s*[A-Za-z_$][\w$]*)*|\{[^}]*\}|\[[^\]]*\])\s*(?::\s*[\w<>[\], ]+)?=(?!=)\s*(.+)$/;
  lines.forEach((line, i) => {
    const m = ASSIGN.exec(line);
    if (m === null) return;
    const rhs = m[2]!;
    const fromNetwork = networkLines.has(i + 1) || [...tainted].some((t) => new RegExp(`(?<![\\w$.])${t.replace(/\$/g, '\\$')}\\b`).test(rhs));
    if (!fromNetwork) return;
    for (const name of m[1]!.replace(/[{}[\]]/g, '').split(',')) {
      const n = name.split(':').pop()!.trim();
      if (/^[A-Za-z_$][\w$]*$/.test(n)) tainted.add(n);
    }
  });
  if (tainted.size === 0) return [];
  const out: ScriptFact[] = [];
  for (const f of facts) {
    if (f.kind !== 'shell-passthrough' && f.kind !== 'dynamic-eval' && f.kind !== 'input-eval') continue;
    if (facts.some((g) => g.kind === 'download-exec' && g.line === f.line)) continue;
    // A quoted word is not the name (`new Function('w', body)` names a parameter `w`).
    const args = f.evidence.slice(f.evidence.indexOf('(') + 1).replace(/'(?:\\.|[^'\\\n])*'|"(?:\\.|[^"\\\n])*"/g, '""');
    const name = [...tainted].find((t) => new RegExp(`(?<![\\w$.])${t.replace(/\$/g, '\\$')}\\b`).test(args));
    if (name !== undefined) out.push({ kind: 'download-exec', line: f.line, evidence: `${f.evidence} (${name} came from a request)` });
  }
  return out;
}

// `bcc: 'someone@host'`, `msg["Bcc"] = "…"`, `bcc="…"`: a fixed hidden recipient in code that sends mail.
const HARDCODED_BCC = /\bbcc['"]?\s*(?:\]\s*)?[:=]\s*\[?\s*['"`][^'"`\s]+@[\w-]+(?:\.[\w-]+)+['"`]/gi;

// A process runner called in JavaScript: the only way a reverse-shell command line in a string runs.
const JS_PROCESS_CALL = /\b(?:execSync|execFileSync|spawnSync|execFile|spawn|exec|execa|fork)\s*\(/;
const CHILD_PROCESS_NAMED = /['"`](?:node:)?child_process['"`]/;
const REVERSE_SHELL_TEXT = /\/dev\/(?:tcp|udp)\/|\bn(?:c|cat)\b[^\n]{0,80}\s-e\s|\bmkfifo\b[^\n]{0,80}\bn(?:c|cat)\b|\bsocat\b[^\n]{0,80}exec:/gi;

/**
 * A reverse-shell command line in a JavaScript string is a reverse shell only where something can
 * run it: a parsed file that starts processes, or a minified bundle that loads child_process and
 * calls a process runner within a few hundred characters before the string. A UI bundle's help text
 * or autocomplete list that describes `/dev/tcp` runs nothing (a browser bundle cannot start a
 * process at all).
 */
function withoutReverseShellText(text: string, facts: ScriptFact[], parsed: boolean): ScriptFact[] {
  if (!facts.some((f) => f.kind === 'reverse-shell')) return facts;
  let runnable = false;
  if (parsed) runnable = facts.some((f) => f.kind === 'process') || CHILD_PROCESS_NAMED.test(text);
  else if (CHILD_PROCESS_NAMED.test(text)) {
    for (const m of text.matchAll(REVERSE_SHELL_TEXT)) {
      if (JS_PROCESS_CALL.test(text.slice(Math.max(0, m.index - 400), m.index))) {
        runnable = true;
        break;
      }
    }
  }
  return runnable ? facts : facts.filter((f) => f.kind !== 'reverse-shell');
}
