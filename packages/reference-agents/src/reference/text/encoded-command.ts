import { decompress } from '../code/decode-bytes.js';

/**
 * A command line that hands an encoded literal to an interpreter — `echo <b64> | base64 -d | sh`,
 * `python -c "exec(zlib.decompress(base64.b64decode('…')))"`, `node -e "eval(Buffer.from('…','hex')…)"`,
 * `powershell -EncodedCommand <UTF-16LE base64>`, a reversed base64 piped through `rev` — is judged by
 * the text it decodes to, however many layers (base64, hex, `\x` escapes, reversal, gzip/zlib,
 * UTF-16LE) wrap it. Nothing is run: the literals are decoded as data.
 */

/** The line runs something: a pipe into an interpreter, an eval/exec call, an interpreter's inline-code flag, a process substitution given to a shell, a command substitution run as the command. */
const EXEC_SINK =
  /\|\s*(?:sudo\s+)?(?:(?:ba|z|da|k)?sh|python[\d.]*|node|perl|ruby|iex|Invoke-Expression|pwsh|powershell)\b|\b(?:eval|exec|execSync|system|popen|Function|iex|Invoke-Expression|runInThisContext)\b|(?:^|[\s;&|(])(?:(?:ba|z|da)?sh|python[\d.]*|node|perl|ruby|pwsh|powershell(?:\.exe)?)\s+(?:-\w+(?:\s+(?!-)[\w.]+)?\s+)*(?:-c|-e|--eval|-p|-enc|-en|-ec|-EncodedCommand|-Command)\b|\b(?:(?:ba|z|da)?sh|source|\.)\s+<\(|^\s*(?:\$\(|`)|\b(?:powershell|pwsh)(?:\.exe)?\b[^\n]*?[\s'"(,]-(?:EncodedCommand|enc|ec|en|e)['"\s,)]/i;
/** Encoded literals worth decoding: base64 (standard or URL-safe), hex, `\x` escapes. */
const ENCODED = /(?:\\x[0-9a-fA-F]{2}){8,}|[A-Za-z0-9+/_-]{16,}={0,2}/g;
/** What makes decoded text a payload: a download, a socket or reverse shell, a process or code run, an address. */
const PAYLOAD =
  /\b(?:curl|wget|iwr|irm|Invoke-WebRequest|Invoke-RestMethod|DownloadString|DownloadFile|Net\.WebClient|urlopen|urlretrieve|requests\.(?:get|post)|fetch|https?\.(?:get|request))\b|https?:\/\/|\/dev\/(?:tcp|udp)\/|\bn(?:c|cat)\b[^\n]*\s-e\s|\bsocket\b|\bchild_process\b|\bos\.(?:system|popen)\b|\bsubprocess\b|\b(?:exec|eval)\s*\(|\bbash\s+-i\b|\bIEX\b|\bInvoke-Expression\b|\b\d{1,3}(?:\.\d{1,3}){3}\b/i;

const MAX_LAYERS = 5;

function printable(s: string): boolean {
  if (s.length < 6) return false;
  let ok = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if ((c >= 32 && c < 127) || c === 9 || c === 10 || c === 13) ok++;
  }
  return ok / s.length >= 0.95;
}

/** Bytes (latin1) that are compressed, decompressed; UTF-16LE text read as text; otherwise unchanged. */
function unwrap(bytes: Buffer): Buffer | null {
  const gzip = bytes[0] === 0x1f && bytes[1] === 0x8b;
  if (gzip || (bytes[0] === 0x78 && [0x01, 0x5e, 0x9c, 0xda].includes(bytes[1] ?? -1))) {
    const text = decompress(bytes, gzip ? 'gzip' : 'any');
    return text === undefined ? null : Buffer.from(text, 'latin1');
  }
  // PowerShell's -EncodedCommand is UTF-16LE: every other byte zero.
  if (bytes.length >= 8 && bytes.length % 2 === 0) {
    let zeros = 0;
    for (let i = 1; i < bytes.length; i += 2) if (bytes[i] === 0) zeros++;
    if (zeros >= bytes.length / 2 - 1) return Buffer.from(bytes.toString('utf16le'), 'utf8');
  }
  return bytes;
}

function decodeOnce(token: string): Buffer[] {
  const out: Buffer[] = [];
  if (/^(?:\\x[0-9a-fA-F]{2})+$/.test(token)) out.push(Buffer.from(token.replace(/\\x/g, ''), 'hex'));
  else if (/^(?:[0-9a-fA-F]{2}){8,}$/.test(token)) out.push(Buffer.from(token, 'hex'));
  if (/^={0,2}[A-Za-z0-9+/_-]+={0,2}$/.test(token)) {
    if (!token.startsWith('=')) out.push(Buffer.from(token.replace(/-/g, '+').replace(/_/g, '/'), 'base64'));
    // A reversed base64 (undone by `rev` or `[::-1]` before decoding): padding then comes first.
    const reversed = [...token].reverse().join('');
    out.push(Buffer.from(reversed, 'base64'));
  }
  return out;
}

/** The texts an encoded token decodes to through up to five layers, the readable ones only. */
export function decodedTexts(token: string): string[] {
  const found: string[] = [];
  let frontier = [token];
  for (let depth = 0; depth < MAX_LAYERS && frontier.length > 0; depth++) {
    const next: string[] = [];
    for (const t of frontier) {
      for (const raw of decodeOnce(t)) {
        const bytes = unwrap(raw);
        if (bytes === null || bytes.length === 0) continue;
        const text = bytes.toString('latin1');
        if (!printable(text)) continue;
        found.push(text);
        // Another layer: the whole text is again one encoded token.
        const inner = text.trim();
        if (/^(?:[A-Za-z0-9+/_-]{16,}={0,2}|(?:[0-9a-fA-F]{2}){8,}|(?:\\x[0-9a-fA-F]{2}){8,})$/.test(inner)) next.push(inner);
      }
    }
    frontier = next.slice(0, 8);
  }
  return found;
}

// The literals of the script last read, by name (shellFacts asks once per line of the same script:
// a name's whole-script scan is made once, and only for a name the script assigns at all).
let assignedScript: string | null = null;
let assignedNames: Set<string> = new Set();
const assignedLiterals = new Map<string, string | null>();

/** The one long literal `script` assigns to `name` (`name=…`, `$name = '…'`, `export name="…"`), or null (none, or more than one). */
function assignedLiteral(name: string, script: string): string | null {
  if (script !== assignedScript) {
    assignedScript = script;
    assignedLiterals.clear();
    // Every name an assignment below can be to: the word a line starts with (after blanks, then `$`,
    // `${`, `export`, `local` or `readonly`) when `=` and sixteen characters of a literal follow it.
    // Each line start is looked at apart (a lookahead), so a name the scan below finds is always among these.
    assignedNames = new Set(Array.from(script.matchAll(/^(?=[^\S\n\r\u2028\u2029]*(?:\$\{|\$|(?:export|local|readonly)\s+)?([A-Za-z_]\w*)\}?\s*=\s*["']?[A-Za-z0-9+/=_\\x-]{16})/gm), (m) => m[1]!));
  }
  if (!assignedNames.has(name)) return null;
  let literal = assignedLiterals.get(name);
  if (literal === undefined) {
    const assigned = [...script.matchAll(new RegExp(String.raw`^\s*(?:\$\{${name}\}|(?:\$|export\s+|local\s+|readonly\s+)?${name})\s*=\s*(["']?)([A-Za-z0-9+/=_\\x-]{16,20000})\1\s*;?\s*$`, 'gm'))];
    literal = assigned.length === 1 ? assigned[0]![2]! : null;
    assignedLiterals.set(name, literal);
  }
  return literal;
}

/** A line with each `$name` / `${name}` that the script assigns a long literal once replaced by that literal. */
function withAssignedLiterals(line: string, script: string): string {
  return line.replace(/\$\{?([A-Za-z_]\w*)\}?/g, (ref, name: string) => {
    const literal = assignedLiteral(name, script);
    return literal !== null ? ` ${literal} ` : ref;
  });
}

/**
 * The payload an encoded command line runs, or null: the line has an execution sink and one of its
 * encoded literals decodes (through any layers) to a download, a socket, a process or code run.
 */
export function encodedCommandPayload(line: string, script?: string): string | null {
  if (line.length > 20_000 || !EXEC_SINK.test(line)) return null;
  // The literal kept in a variable of the script and handed over by name (`$cfg = '<b64>'` …
  // `Start-Process powershell -ArgumentList '-EncodedCommand', $cfg`; `P=<b64>` … `echo "$P" | base64 -d | sh`).
  if (script !== undefined) line = withAssignedLiterals(line, script);
  for (const m of line.matchAll(ENCODED)) {
    const token = m[0];
    // Words and paths are not encodings: a token needs digits or mixed case beyond a plain identifier.
    if (!/\d/.test(token) && !/[+/=]/.test(token) && !/^(?:\\x|[0-9a-fA-F]+$)/.test(token)) continue;
    for (const text of decodedTexts(token)) if (PAYLOAD.test(text)) return text.replace(/\s+/g, ' ').trim().slice(0, 200);
  }
  return null;
}
