import type { AgentFinding } from '@vigil/core';
import { referenceFinding } from '../common/reference-finding.js';
import { lineLocator } from './line-locator.js';

// Programs that ask for the user's password to raise privileges. A file of that name placed ahead of
// the real one on PATH is run instead of it and sees the password typed into it (a `sudo` shim:
// MITRE ATT&CK T1548.003 / T1056.001, seen in 2024–2025 npm and PyPI stealers and agent skills).
const PRIVILEGED = String.raw`(?:sudo|su|doas|pkexec|gksudo|kdesudo|runas)`;

// The path a write lands on, as each language spells a write.
const SHELL_WRITE_TARGET = new RegExp(String.raw`(?:>>?\s*|\btee\s+(?:-a\s+)?|\b(?:cp|mv|install)\s+(?:-\S+\s+)*\S+\s+|\bln\s+-\w*s\w*\s+\S+\s+)["']?([^\s"';|&>]*\/${PRIVILEGED})["']?(?=[\s;|&)]|$)`, 'gm');
// `writeFileSync(p, …)`, `open(p, 'w')`, `p.write_text(…)`, `shutil.copy(x, p)`: the first (or copy's second) argument.
const CODE_WRITE = /\b(?:writeFileSync|writeFile|appendFileSync|appendFile|createWriteStream|outputFileSync|outputFile|copyFileSync|copyFile|symlinkSync|symlink)\s*\(\s*([^,)\n]+)|\bopen\s*\(\s*([^,)\n]+)\s*,\s*(?:mode\s*=\s*)?f?["'][wa]|([\w.)\]"'/ ]+?)\s*\.\s*(?:write_text|write_bytes|symlink_to)\s*\(|\bshutil\.(?:copy\w*|move)\s*\(\s*[^,\n]+,\s*([^,)\n]+)|\bos\.(?:symlink|link|rename|replace)\s*\(\s*[^,\n]+,\s*([^,)\n]+)/g;
// A path that ends in the privileged program's name: `'/x/bin/sudo'`, `path.join(dir, 'sudo')`, `dir / "sudo"`, `f"{d}/sudo"`.
const ENDS_IN_PRIVILEGED = new RegExp(String.raw`(?:[\/\\]|,\s*f?['"\`]|\/\s*f?['"\`])${PRIVILEGED}['"\`]?\s*\)?\s*$`);
// The directory is put ahead of the system's on PATH, or is one that login shells already put first.
const PATH_FIRST = /\bPATH\s*=\s*["']?[^"'\n:$]*[^:\n]*:\s*\$\{?PATH\b|\bexport\s+PATH\s*=\s*["']?(?!\$\{?PATH\b)[^\n]*:\$\{?PATH|(?:process\.env|os\.environ)\s*(?:\.PATH|\[\s*["']PATH["']\s*\])\s*=\s*(?![^\n]*?\bPATH\b\s*[+,]\s*\w*\s*$)[^\n]*?(?:\+|,|`)[^\n]*?\bPATH\b|\.(?:bashrc|zshrc|profile|bash_profile|zprofile)\b[^\n]*|\bfish_add_path\b/;
const USER_BIN = /(?:~|\$\{?HOME\}?|homedir\(\)|Path\.home\(\)|expanduser\(\s*["']~)[^\n]{0,40}?(?:\.local[\\/'",\s]+bin|[\\/'",\s]bin)\b|\.local\/bin\b|['"]\.local['"]\s*,\s*['"]bin['"]/;
// Shell startup files, and a write that appends to one (shell `>>`/`tee -a`, an append or write call).
export const STARTUP_FILE = /\.(?:bashrc|zshrc|bash_profile|zprofile|profile|bash_login|zshenv)\b|config\.fish\b/;
const STARTUP_WRITE = />>|\btee\s+-a\b|\bappendFile(?:Sync)?\s*\(|\bwriteFile(?:Sync)?\s*\(|\bopen\s*\([^)\n]*,\s*f?["'][aw]|\.write_text\s*\(|\.open\s*\(\s*["'][aw]/;
// The shim asks for the password itself: silent reads, turned-off echo, getpass, a copied sudo prompt.
const CAPTURES_PASSWORD = /\bread\s+(?:-\w+\s+)*-\w*s\w*\b|\bstty\s+-echo\b|\bgetpass\b|\[sudo\]\s+password\b|\bpassword\s+for\b/i;

/**
 * A file named like `sudo` (or `su`, `doas`, `pkexec`) written by a script or package into a
 * directory that is then put first on PATH, or into `~/.local/bin` / `~/bin`: the next `sudo` the
 * user types runs it. CRIT when the text also reads a password silently (`read -s`, `stty -echo`,
 * `getpass`, a `[sudo] password for` prompt), else HIGH.
 */
export function privilegedShimFinding(file: string, text: string, subject: string, options: { appendedToStartup?: boolean } = {}): AgentFinding | null {
  if (!new RegExp(String.raw`\b${PRIVILEGED}\b`).test(text)) return null;
  let target: { index: number; path: string } | undefined;
  for (const m of text.matchAll(SHELL_WRITE_TARGET)) {
    target = { index: m.index, path: m[1]! };
    break;
  }
  if (target === undefined) {
    // Names bound to such a path (`shim = os.path.join(bin_dir, "sudo")`) count where the write uses them.
    const bound = new Set<string>();
    // A loop over names that include one (`for name in ("sudo", "doas")`, `for (const n of ['sudo'])`) joins each.
    const loopVars = [...text.matchAll(/\bfor\s*\(?\s*(?:const\s+|let\s+|var\s+)?([A-Za-z_$][\w$]*)\s+(?:in|of)\s*[([]([^)\]\n]*)[)\]]/g)].filter((m) => new RegExp(String.raw`['"]${PRIVILEGED}['"]`).test(m[2]!)).map((m) => m[1]!);
    const endsInLoopVar = (v: string) => loopVars.some((l) => new RegExp(String.raw`(?:[\/,+]|\$\{)\s*${l.replace(/\$/g, '\\$')}\s*\}?\s*['"\`]?\s*\)?\s*$`).test(v));
    for (const m of text.matchAll(/\b([A-Za-z_$][\w$]*)\s*(?::\s*\w+\s*)?=\s*([^\n;]+)/g)) if (ENDS_IN_PRIVILEGED.test(m[2]!.trim()) || endsInLoopVar(m[2]!.trim())) bound.add(m[1]!);
    for (const m of text.matchAll(CODE_WRITE)) {
      const arg = (m[1] ?? m[2] ?? m[3] ?? m[4] ?? m[5] ?? '').trim();
      if (ENDS_IN_PRIVILEGED.test(arg) || endsInLoopVar(arg) || bound.has(arg) || [...bound].some((b) => new RegExp(`^${b.replace(/\$/g, '\\$')}\\b`).test(arg))) {
        target = { index: m.index, path: arg };
        break;
      }
    }
  }
  // The same shim as an alias or a shell function written into a shell startup file:
  // `echo "alias sudo='~/.x/s'" >> ~/.bashrc`, `sudo() { read -s p; … }` appended to `.zshrc`.
  const redefined = new RegExp(String.raw`\balias\s+${PRIVILEGED}\s*=|(?:^|[\s;'"])(?:function\s+${PRIVILEGED}\b|${PRIVILEGED}\s*\(\s*\)\s*\{)`, 'm').exec(text);
  // `appendedToStartup`: the text is itself what goes into a startup file (a snippet a skill's document says to append).
  if (target === undefined && redefined !== null && (options.appendedToStartup === true || (STARTUP_FILE.test(text) && STARTUP_WRITE.test(text)))) return finding(file, text, subject, redefined.index + redefined[0].length - redefined[0].trimStart().length, redefined[0].trim());
  if (target === undefined) return null;
  if (!PATH_FIRST.test(text) && !USER_BIN.test(text)) return null;
  return finding(file, text, subject, target.index, target.path);
}

function finding(file: string, text: string, subject: string, index: number, evidence: string): AgentFinding {
  const captures = CAPTURES_PASSWORD.test(text);
  return referenceFinding({
    category: 'credential_access',
    severity: captures ? 'CRIT' : 'HIGH',
    title: captures ? `${subject} installs a fake sudo that runs instead of the real one and captures the password` : `${subject} installs a program named like sudo that runs instead of the real one`,
    file,
    line: lineLocator(text)(index),
    evidence: evidence.slice(0, 200),
  });
}
