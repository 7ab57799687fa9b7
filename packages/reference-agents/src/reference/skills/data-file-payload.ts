import type { ScriptFact } from './script-fact.js';

/**
 * (round s31b, in-sample for held-out set 32) A payload split across a skill's files: its bytes in a data file the
 * skill ships (a `.dat` "signature table", a `.bin`, a `.txt` or `.json` of base64), decrypted by a script of the
 * skill (XOR with a key, a cipher with a key the skill carries) and handed to an evaluator or an interpreter.
 * Each step alone is ordinary — scripts read data files, XOR is arithmetic, skills run Python — but data read from
 * a file, decrypted with the skill's own key and run is code the author hid from anyone reading the scripts.
 *
 * Read by lines, as carved-payload.ts reads a carve: names assigned from a read of a non-code file (or from a path
 * naming one) hold its data; a name assigned from held data through a XOR (`b ^ k[i % n]`, `buf[i] ^= k`), a
 * decryption (`Fernet(k).decrypt`, `createDecipheriv(…).update`, `AES.new(…).decrypt`) or a local function that does
 * one holds decrypted data, followed through assignments and function returns (three rounds); a line that hands a
 * decrypted name to `exec`/`eval`/`compile`, `new Function`/`vm`, a shell or an interpreter (its command, `-c`
 * argument or standard input) runs it. A key read from the environment, the command line or a prompt is the
 * user's: decrypting the user's own file with it is not this. Shell: a data file decrypted by `openssl`/`gpg`
 * with a key written in the script, or XORed by an inline interpreter, piped into a shell or interpreter (or
 * written to a file the script then runs).
 */

// A quoted name of a file that is not code (`"patterns.dat"`, `'assets/table.bin'`, `"sig.txt"`): a string literal (up to 200
// characters, no quote inside) whose last path segment ends in an extension of letters and digits that is no code's (nor a host's).
const QUOTED = /(['"`])([^'"`\n]{1,200})\1/g;
const FILE_NAME = /^[\w.-]*\.([A-Za-z][A-Za-z0-9]{0,7})$/;
const NOT_DATA_EXTENSION = /^(?:py|pyw|pyc|js|mjs|cjs|jsx|ts|tsx|mts|cts|sh|bash|zsh|ps1|psm1|rb|pl|php|lua|go|exe|dll|so|dylib|com|org|net|io|dev|app)$/i;

/** Whether a text quotes the name of a file that is not code (linear: each literal's last segment tested anchored). */
function namesDataFile(text: string): boolean {
  for (const m of text.matchAll(QUOTED)) {
    const value = m[2]!;
    const base = value.slice(Math.max(value.lastIndexOf('/'), value.lastIndexOf('\\')) + 1);
    const ext = FILE_NAME.exec(base)?.[1];
    if (ext !== undefined && !NOT_DATA_EXTENSION.test(ext) && !/^\w+:\/\//.test(value)) return true;
  }
  return false;
}
// A read of a file's contents.
const READ = /\bopen\s*\(|\.read_(?:text|bytes)\s*\(|\bread(?:FileSync|File)\s*\(|\bpkgutil\.get_data\s*\(|\bresources\.(?:read_binary|read_text|files)\s*\(|\bnp\.fromfile\s*\(|\bfs\.promises\.readFile\s*\(|\bBun\.file\s*\(|\bDeno\.readFile(?:Sync)?\s*\(/;
// A decryption: a cipher object or call, or a helper so named.
const DECRYPT = /\b(?:decrypt\w*|createDecipher(?:iv)?|Decipher\w*|Fernet|AES(?:GCM|SIV|CCM)?|ChaCha20\w*|Salsa20|Blowfish|TripleDES|DES3|ARC4|RC4|SecretBox|secretbox|crypto_secretbox_open|unseal|xor\w*|unxor|rot13)\b/i;
// The key or passphrase taken from the user: the environment, the command line, a prompt, a keyring.
const USER_KEY = /\bos\.environ\b|\bgetenv\s*\(|\bprocess\.env\b|\bsys\.argv\b|\bprocess\.argv\b|\bgetpass\b|\binput\s*\(|\bkeyring\b|\bprompt\s*\(|\breadline\b|\bDeno\.env\b/;
// Where decrypted bytes run: an evaluator, a code loader, a shell or an interpreter.
const EVAL_SINK = /(?<![\w.])(?:exec|eval|compile)\s*\(|\bnew\s+Function\s*\(|(?<![\w.])Function\s*\(|\bvm\.(?:runIn\w+|compileFunction|Script)\s*\(|\bnew\s+vm\.Script\s*\(|\._compile\s*\(|\bmarshal\.loads\s*\(|\b(?:pickle|dill|cloudpickle)\.loads\s*\(|\brunpy\.\w+\s*\(/;
const PROCESS_SINK = /\bos\.(?:system|popen)\s*\(|\bsubprocess\.\w+\s*\(|(?<![\w$.])(?:execSync|spawn|spawnSync|execFile|execFileSync)\s*\(|\b(?:child_process|childProcess|cp)\.(?:exec|execSync|spawn|spawnSync|execFile|execFileSync)\s*\(|\.stdin\.(?:write|end)\s*\(|\bexeca\w*\s*\(/;
// A process call that runs its argument as code: a shell (`shell=True`, `sh -c`), an interpreter, a command string.
const INTERPRETER = /(?:["'`](?:[\w./\\-]*[/\\])?(?:(?:ba|z|da|k)?sh|cmd(?:\.exe)?|powershell(?:\.exe)?|pwsh|python[\d.]*|node|perl|ruby|osascript)["'`])|\bsys\.executable\b|\bprocess\.execPath\b|\bshell\s*[=:]\s*(?:True|true)\b/;
const STRING = /'(?:[^'\\\n]|\\.)*'|"(?:[^"\\\n]|\\.)*"|`(?:[^`\\]|\\.)*`/g;
// XOR as an operator between operands (strings taken out: `^` in a regular expression is no XOR).
const XOR = /[\w)\]]\s*\^=?\s*[\w([~-]/;
const MAX_BYTES = 256 * 1024;

type Language = 'python' | 'javascript' | 'typescript';

/** The code of a line with its string literals emptied (quotes kept) and its comment cut. */
function codeOf(line: string, language: Language): string {
  const code = line.replace(STRING, (s) => `${s[0]}${s[s.length - 1]}`);
  const comment = language === 'python' ? code.indexOf('#') : code.search(/\/\/|\/\*/);
  return comment < 0 ? code : code.slice(0, comment);
}

/** Function bodies of the file by line range: Python by indentation, JavaScript by braces from the declaration. */
function functionRanges(lines: readonly string[], language: Language): Array<{ name: string; from: number; to: number }> {
  const out: Array<{ name: string; from: number; to: number }> = [];
  for (let i = 0; i < lines.length && out.length < 200; i++) {
    const line = lines[i] ?? '';
    if (language === 'python') {
      const def = /^(\s*)(?:async\s+)?def\s+([A-Za-z_]\w*)/.exec(line);
      if (def === null) continue;
      const indent = def[1]!.length;
      let j = i + 1;
      for (; j < lines.length; j++) {
        const l = lines[j] ?? '';
        if (l.trim() === '' || l.trimStart().startsWith('#')) continue;
        if ((/^\s*/.exec(l)?.[0].length ?? 0) <= indent) break;
      }
      out.push({ name: def[2]!, from: i, to: j });
    } else {
      const decl = /\bfunction\s*\*?\s*([A-Za-z_$][\w$]*)\s*\(|\b(?:const|let|var)\s+([A-Za-z_$][\w$]*)\s*=\s*(?:async\s+)?(?:function\b|\([^)]*\)\s*=>|[A-Za-z_$][\w$]*\s*=>)|^\s*(?:async\s+)?([A-Za-z_$][\w$]*)\s*\([^)]*\)\s*\{/.exec(line);
      if (decl === null) continue;
      const name = decl[1] ?? decl[2] ?? decl[3]!;
      if (/^(?:if|for|while|switch|catch|return|function)$/.test(name)) continue;
      let depth = 0;
      let opened = false;
      let j = i;
      for (; j < lines.length && j < i + 400; j++) {
        for (const c of codeOf(lines[j] ?? '', language)) {
          if (c === '{') {
            depth++;
            opened = true;
          } else if (c === '}') depth--;
        }
        if (opened && depth <= 0) break;
        // An arrow function with an expression body ends on its line.
        if (!opened && j === i && /=>\s*[^{\s]/.test(line)) break;
      }
      out.push({ name, from: i, to: j + 1 });
    }
  }
  return out;
}

const escapeRe = (s: string) => s.replace(/[$]/g, '\\$');

/**
 * Python or JavaScript: data read from a non-code file, decrypted with a key of the script's own, and evaluated or
 * run (see the module comment). Null when the file does not hold the three steps in one flow.
 */
export function decryptedDataFileExec(text: string, language: Language): ScriptFact | null {
  if (text.length > MAX_BYTES || !READ.test(text) || !namesDataFile(text) || !(EVAL_SINK.test(text) || PROCESS_SINK.test(text))) return null;
  const raw = text.split('\n');
  const lines = raw.map((l) => codeOf(l, language));
  // The transforming code must be there at all: a XOR operator or a decryption.
  if (!lines.some((l) => XOR.test(l) || DECRYPT.test(l))) return null;
  const functions = functionRanges(raw, language);
  const mentionsName = (expr: string, name: string) => new RegExp(`(?<![\\w$.])${escapeRe(name)}\\b`).test(expr);
  const assignment = (code: string) => /^\s*(?:(?:const|let|var)\s+)?([A-Za-z_$][\w$]*(?:\s*,\s*[A-Za-z_$][\w$]*)*)\s*(?::[^=]+)?=(?!=)\s*(.+)$/.exec(code);
  // Names whose value the user supplies (a key from the environment, the command line, a prompt), two rounds.
  const userNames = new Set<string>();
  for (let round = 0; round < 2; round++) {
    for (const code of lines) {
      const a = assignment(code);
      if (a !== null && (USER_KEY.test(a[2]!) || [...userNames].some((n) => mentionsName(a[2]!, n)))) for (const t of a[1]!.split(',')) userNames.add(t.trim());
    }
  }
  const userKeyed = (code: string) => USER_KEY.test(code) || [...userNames].some((n) => mentionsName(code, n));
  // Local functions that decrypt (a XOR or a decryption in their body, the key not the user's).
  const decrypting = new Set<string>();
  for (const fn of functions) {
    const body = lines.slice(fn.from, fn.to).join('\n');
    if ((XOR.test(body) || DECRYPT.test(body)) && !userKeyed(body)) decrypting.add(fn.name);
  }
  // Cipher objects made with the skill's own key (`f = Fernet(KEY)`, `d = crypto.createDecipheriv(alg, k, iv)`).
  const ciphers = new Set<string>();
  for (const code of lines) {
    const a = assignment(code);
    if (a !== null && DECRYPT.test(a[2]!) && !userKeyed(a[2]!)) for (const t of a[1]!.split(',')) ciphers.add(t.trim());
  }
  const transforms = (code: string) =>
    !userKeyed(code) && (XOR.test(code) || DECRYPT.test(code) || [...ciphers].some((c) => mentionsName(code, c)) || [...decrypting].some((f) => new RegExp(`(?<![\\w$.])${escapeRe(f)}\\s*\\(`).test(code)));
  const paths = new Set<string>();
  // Names holding the data file's contents, and whether decrypted.
  const held = new Map<string, boolean>();
  const enclosing = (i: number) => functions.filter((f) => i > f.from && i < f.to).sort((a, b) => b.from - a.from)[0];
  // Local functions that read the file their caller names (`def _load(name): … (ROOT / name).read_bytes()` called as
  // `_load("signatures.dat")`): a read of one of their parameters is a read of the data file.
  const parametersOf = (fn: { from: number }) =>
    (/\(([^)]*)\)/.exec(lines[fn.from] ?? '')?.[1] ?? '')
      .split(',')
      .map((p) => /^\s*\*{0,2}([A-Za-z_$][\w$]*)/.exec(p)?.[1])
      .filter((p): p is string => p !== undefined && p !== 'self');
  const calledOnDataFile = new Set(functions.filter((f) => raw.some((l, i) => (i < f.from || i >= f.to) && namesDataFile(l) && new RegExp(`(?<![\\w$.])${escapeRe(f.name)}\\s*\\(`).test(l))).map((f) => f.name));
  const heldIn = (expr: string) => [...held.keys()].filter((n) => mentionsName(expr, n));
  for (let round = 0; round < 3; round++) {
    for (let i = 0; i < lines.length; i++) {
      const code = lines[i]!;
      const original = raw[i]!;
      // In place: `buf[i] ^= k[i % n]`, `blob[i] = blob[i] ^ key` (also after a loop header on the same line).
      const inPlace = /(?:^\s*|[;{:)]\s*)([A-Za-z_$][\w$]*)\s*\[[^\]\n]+\]\s*(\^=|=(?!=))\s*([^;\n]+)/.exec(code);
      if (inPlace !== null && held.has(inPlace[1]!) && (inPlace[2] === '^=' || transforms(inPlace[3]!)) && !userKeyed(inPlace[3]!)) {
        held.set(inPlace[1]!, true);
        continue;
      }
      // `out.append(b ^ k)` / `out.push(b ^ key[i])` in a loop over held data (its header a few lines above, or on the line).
      const push = /(?:^\s*|[;{:)]\s*)([A-Za-z_$][\w$]*)\s*(?:\.append|\.push|\.extend|\+=)\s*\(?([^;\n]+)/.exec(code);
      if (push !== null && transforms(push[2]!) && heldIn(lines.slice(Math.max(0, i - 4), i + 1).join('\n')).length > 0) {
        held.set(push[1]!, true);
        continue;
      }
      const fn = enclosing(i);
      // What a function returns is held by its name (`exec(_table())` follows `return bytes(b ^ k …)`).
      const ret = fn === undefined ? null : /^\s*return\s+(.+)$/.exec(code);
      // `with open(path, "rb") as fh:` binds `fh` as an assignment would.
      const withAs = ret !== null ? null : /^\s*(?:async\s+)?with\s+(.+?)\s+as\s+([A-Za-z_]\w*)\s*:/.exec(code);
      const assign = ret !== null || withAs !== null ? null : assignment(code);
      const bound = withAs !== null ? { names: withAs[2]!, value: withAs[1]! } : assign !== null ? { names: assign[1]!, value: assign[2]! } : null;
      const targets = ret !== null ? [fn!.name] : bound === null ? [] : bound.names.split(',').map((t) => t.trim()).filter((t) => t !== '_');
      const expr = ret !== null ? ret[1]! : bound?.value;
      if (expr === undefined) continue;
      // The path of a data file assigned to a name (`P = ROOT / "references" / "x.dat"`).
      if (namesDataFile(original) && !READ.test(expr)) for (const t of targets) paths.add(t);
      const read =
        READ.test(expr) &&
        (namesDataFile(original) || [...paths].some((p) => mentionsName(expr, p)) || (fn !== undefined && calledOnDataFile.has(fn.name) && parametersOf(fn).some((p) => mentionsName(expr, p))));
      const from = heldIn(expr).filter((n) => !targets.includes(n) || ret !== null);
      if (!read && from.length === 0) continue;
      const decrypted = from.some((n) => held.get(n) === true) || transforms(expr);
      for (const t of targets) if (held.get(t) !== true) held.set(t, decrypted);
    }
  }
  if (![...held.values()].some((v) => v)) return null;
  for (let i = 0; i < lines.length; i++) {
    const code = lines[i]!;
    const evalAt = code.search(EVAL_SINK);
    const processAt = code.search(PROCESS_SINK);
    if (evalAt < 0 && processAt < 0) continue;
    // The decrypted value given to the sink (after its name on the line), as its argument or standard input.
    const args = code.slice(evalAt >= 0 ? evalAt : processAt);
    const name = [...held.entries()].find(([n, v]) => v && mentionsName(args, n))?.[0];
    if (name === undefined) continue;
    // A process runs the value as code only through a shell or an interpreter, or as the command string itself.
    if (evalAt < 0 && !INTERPRETER.test(raw[i]!) && !/\bos\.(?:system|popen)\s*\(|(?:(?<![\w$.])|\b(?:child_process|childProcess|cp)\.)(?:exec|execSync)\s*\(/.test(code)) continue;
    return { kind: 'decrypted-exec', line: i + 1, evidence: `${raw[i]!.trim().slice(0, 200)} (${name}: decrypted from a data file the skill ships)` };
  }
  return null;
}

// A non-code file as a shell word (`assets/t.bin`, `"$DIR/sig.txt"`): its last dot-separated part is no code extension.
const SHELL_DATA_WORD = /^[\w./~${}-]+\.([A-Za-z][A-Za-z0-9]{0,7})$/;
const SHELL_CODE_EXTENSION = /^(?:sh|bash|zsh|py|js|mjs|cjs|ps1|rb|pl|php)$/i;
// A key or passphrase written out in the script (not `$VAR`, `env:`, `file:`, `stdin`).
const OPENSSL_LITERAL_KEY = /\s(?:-k\s+["']?[^\s$"'-]|-pass\s+["']?pass:[^\s$"']|-K\s+["']?[0-9a-fA-F]{8})/;
const GPG_LITERAL_KEY = /--passphrase(?:=|\s+)["']?[^\s$"'-]/;
const INLINE_INTERPRETER = /\b(?:python[\d.]*|perl|ruby|node)\s+(?:-\w+\s+)*-[cep]\w*\s/;
const SHELL_RUN = /\|\s*(?:sudo\s+)?(?:(?:ba|z|da|k)?sh|python[\d.]*|node|perl|ruby|pwsh|powershell|source\s+\/dev\/stdin)\b|^\s*(?:eval|source|\.)\s+["']?(?:\$\(|<\()|\b(?:ba|z)?sh\s+(?:-c\s+)?["']?(?:\$\(|<\()/;

/** Whether a shell command (up to its first pipe) names a data file: a word ending in an extension that is not code's. */
function commandNamesDataFile(command: string): boolean {
  return command.split(/[\s"'<>=()]+/).some((w) => {
    const m = SHELL_DATA_WORD.exec(w);
    return m !== null && !SHELL_CODE_EXTENSION.test(m[1]!) && !/^-/.test(w);
  });
}

/** The decrypting part of a line: `openssl … -d` or `gpg -d` with a key written out, or an inline interpreter XORing what it reads. */
function shellDecryption(line: string): string | null {
  for (const m of line.matchAll(/\b(openssl|gpg)\b/g)) {
    const rest = line.slice(m.index);
    const pipe = rest.indexOf('|');
    const command = pipe < 0 ? rest : rest.slice(0, pipe);
    if (m[1] === 'openssl' ? /\s-d\b/.test(command) && OPENSSL_LITERAL_KEY.test(command) : /\s(?:-d|--decrypt)\b/.test(command) && GPG_LITERAL_KEY.test(command)) {
      // The file it decrypts (`-in x`, a redirect, a last argument), not the one it writes (`-out y`).
      if (commandNamesDataFile(command.replace(/\s(?:-out|-o|--output)\s+\S+/g, ' ')) || commandNamesDataFile(line.slice(0, m.index))) return command;
    }
  }
  const inline = INLINE_INTERPRETER.exec(line);
  if (inline !== null && line.includes('^', inline.index) && commandNamesDataFile(line)) return line.slice(inline.index);
  return null;
}

/** Shell: a data file decrypted with a key written in the script (or XORed inline), run at once or from the file it was written to. */
export function shellDecryptedExec(text: string): ScriptFact[] {
  if (text.length > MAX_BYTES || !/\b(?:openssl|gpg|python[\d.]*|perl|ruby|node)\b/.test(text)) return [];
  const lines = text.split('\n');
  const written: Array<{ name: string; line: number; text: string }> = [];
  for (let i = 0; i < lines.length; i++) {
    const line = (lines[i] ?? '').trim();
    if (line === '' || line.startsWith('#') || line.length > 2000) continue;
    const decryption = shellDecryption(line);
    if (decryption !== null) {
      if (SHELL_RUN.test(line)) return [{ kind: 'decrypted-exec', line: i + 1, evidence: line.slice(0, 300) }];
      const out = /\s(?:-out|-o|--output)\s+["']?([^\s"';|&]+)/.exec(decryption) ?? />\s*["']?([^\s"';|&]+)\s*$/.exec(line);
      if (out !== null) written.push({ name: out[1]!.replace(/^.*\//, ''), line: i + 1, text: line });
      continue;
    }
    if (written.length === 0 || /^\s*(?:rm|cat|ls|echo|printf|chmod|cp|mv|stat|file|wc|sha\d*sum|md5sum|test|\[)\b/.test(line)) continue;
    for (const w of written) {
      const name = w.name.replace(/[.$]/g, (c) => `\\${c}`);
      const runs = new RegExp(String.raw`(?:^|[;&|]\s*|\b(?:then|do)\s+)(?:sudo\s+)?(?:(?:(?:ba|z|da|k)?sh|source|\.|python[\d.]*|node|perl|ruby|pwsh)\s+(?:-\S+\s+)*)?["']?[\w./~\${}-]*${name}(?![\w.-])`).test(line);
      if (runs) return [{ kind: 'decrypted-exec', line: i + 1, evidence: `${w.text.slice(0, 160)} … ${line.slice(0, 140)}` }];
    }
  }
  return [];
}
