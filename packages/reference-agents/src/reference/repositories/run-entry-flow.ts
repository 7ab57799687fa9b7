import type { AgentFinding, Severity } from '@vigil/core';
import type { CodeFacts } from '../code/code-facts.js';
import { javascriptFacts } from '../code/javascript/index.js';
import { pythonFacts } from '../code/python-facts.js';
import { referenceFinding } from '../common/reference-finding.js';
import { capabilityProfile } from '../packages/capability-profile.js';
import { functionRanges, type FunctionRange } from '../code/function-ranges.js';

/**
 * Secrets carried out of code a checkout runs by itself (an agent hook's script, a conftest.py, a
 * folder-open task's program, with the repository modules they import): an intra-file taint over
 * names — credential files, the whole environment, token variables and credential commands taint
 * what is assigned from them, functions that return them and what is built from those (compressed,
 * encoded, put into a dict or a query string) — into a network call, or into a function of the same
 * or an imported module that makes one. The taint crosses the module boundary by the sending
 * function's name, which is where a helper module hides the request and its (decoded) address.
 * Names count where they are code (not in strings, keyword-argument names or a process's `env=`), and
 * only a destination the code fixes counts: one read from the environment or a configuration is the user's.
 */

const CREDENTIAL_FILE = /\.git-credentials|(?:^|[\\/'"`._])netrc\b|\.aws[\\/]credentials|\.ssh[\\/](?:id_|\w*key)|\bid_(?:rsa|ed25519|ecdsa|dsa)\b|\.npmrc|\.pypirc|\.docker[\\/]config\.json|\.kube[\\/]config|gh[\\/]hosts\.yml|\.config[\\/]gcloud|application_default_credentials|\.gnupg|\.vault-token/i;
const ENV_WHOLE = /\bdict\s*\(\s*os\.environ\s*\)|os\.environ\.(?:copy|items|keys|values)\s*\(|\*\*os\.environ\b|\b(?:json\.dumps|repr|str)\s*\(\s*os\.environ\s*\)|JSON\.stringify\s*\(\s*process\.env\b|\.\.\.process\.env\b|Object\.(?:entries|keys|values|assign)\s*\([^)]*\bprocess\.env\b|[:=]\s*process\.env\s*(?:[,;}\n]|$)/;
const TOKEN_NAME = String.raw`\w*(?:TOKEN|SECRET|PASSWORD|PASSWD|API_?KEY|ACCESS_KEY(?:_ID)?|PRIVATE_KEY|CREDENTIALS?|_PAT|NPM_AUTH)\w*`;
const ENV_TOKEN = new RegExp(String.raw`(?:os\.environ(?:\.get)?\s*[\[(]|os\.getenv\s*\(|process\.env\.|process\.env\[|Deno\.env\.get\s*\()\s*["'\x60]?${TOKEN_NAME}`, 'i');
/** An environment read by a computed name, in a module that lists token variable names. */
const ENV_DYNAMIC = /os\.environ(?:\.get)?\s*[[(]\s*[A-Za-z_]|os\.getenv\s*\(\s*[A-Za-z_]|process\.env\[\s*[A-Za-z_$]/;
const TOKEN_LITERAL = new RegExp(String.raw`["'\x60](?:GITHUB_TOKEN|GH_TOKEN|GITLAB_TOKEN|NPM_TOKEN|PYPI_TOKEN|AWS_SECRET_ACCESS_KEY|AWS_ACCESS_KEY_ID|OPENAI_API_KEY|ANTHROPIC_API_KEY|[A-Z][A-Z0-9]*_(?:TOKEN|SECRET|API_KEY|PASSWORD))["'\x60]`);
const CREDENTIAL_COMMAND = /\bgh\s+auth\s+token\b|\bgit\s+credential\s+fill\b|\bgit\s+config\b[^'"`\n]*credential|\baws\s+configure\s+export-credentials\b|\bsecurity\s+find-(?:generic|internet)-password\b/;
/** Compression and encoding on the way out (what hides the payload in a query string or a body). */
const ENCODES = /\b(?:b64encode|urlsafe_b64encode|b32encode|b85encode|hexlify|zlib\.compress|gzip\.compress|lzma\.compress|bz2\.compress|deflateSync|gzipSync|brotliCompressSync|btoa)\s*\(|\.toString\(\s*['"](?:base64|base64url|hex)['"]\s*\)|\.hex\(\s*\)|\bencode\s*\(\s*['"](?:base64|hex)/;

/** What builds a query string out of the data on its line (a `?` inside a string literal is marked \x01 by `blankStrings`). */
const QUERY_BUILD = /urlencode\s*\(|URLSearchParams|searchParams|\bquote(?:_plus)?\s*\(/;
/** Where a destination comes from the user's configuration: the environment, the command line, a config object. */
const CONFIG_READ = /\bos\.environ\b|\bos\.getenv\b|\bprocess\.env\b|\bDeno\.env\b|\b(?:sys|process)\.argv\b|\b(?:config|settings|cfg|conf|options|opts)\s*(?:\[|\.|\()/;
/** Calls that start a process: their `env=` / `env:` argument is the child's environment, not data sent anywhere. */
const PROCESS_CALL = /(?:\bsubprocess\.\w+|\bPopen|\bcheck_(?:call|output)|\bos\.(?:exec|spawn|posix_spawn)\w*|\bcreate_subprocess_(?:exec|shell)|(?<![\w$])(?:[\w$]+\.)?(?:spawn|spawnSync|exec|execSync|execFile|execFileSync|execa|execaSync|fork))\s*\(/g;

type SourceKind = 'credential file' | 'whole environment' | 'token variable' | 'credential command';

interface Module {
  path: string;
  lines: string[];
  /** The lines with process environments blanked (what sources are read on). */
  raw: string[];
  /** The lines with string literals blanked too (interpolations kept, a `?` in a string as \x01): the code's structure. */
  struct: string[];
  /** `struct` with keyword-argument names and JavaScript object keys blanked too: where names are references. */
  code: string[];
  facts: CodeFacts;
  /** Function name → [first, last] line (1-based) and parameter names. */
  functions: Map<string, FunctionRange>;
  /** Lines (1-based) of network calls, with the hosts they name. */
  sends: Map<number, string[]>;
  fileHosts: string[];
}

const word = (n: string) => new RegExp(`(?<![\\w.$])${n.replace(/\$/g, '\\$')}(?![\\w$])`);

const spaces = (s: string) => s.replace(/[^\n]/g, ' ');

/**
 * The text with the contents of string literals and comments replaced by spaces (same length, newlines
 * kept): f-string and template interpolations stay code, a `?` inside a string becomes \x01 (a query's start).
 */
function blankStrings(text: string, python: boolean): string {
  let i = 0;
  const blank = (c: string) => (c === '\n' ? '\n' : c === '?' ? '\x01' : ' ');
  const code = (close: string | null): string => {
    let out = '';
    let depth = 0;
    while (i < text.length) {
      const c = text[i]!;
      if (close !== null && c === close && depth === 0) return out;
      if (c === '{') depth++;
      else if (c === '}') depth--;
      if ((python && c === '#') || (!python && c === '/' && (text[i + 1] === '/' || text[i + 1] === '*'))) {
        const block = c === '/' && text[i + 1] === '*';
        const end = block ? text.indexOf('*/', i + 2) : text.indexOf('\n', i);
        const stop = end === -1 ? text.length : block ? end + 2 : end;
        out += spaces(text.slice(i, stop));
        i = stop;
        continue;
      }
      if (c === '"' || c === "'" || c === '`') {
        out += literal();
        continue;
      }
      out += c;
      i++;
    }
    return out;
  };
  const literal = (): string => {
    const q = text[i]!;
    const interpolated = q === '`' || (python && /(?:^|[^\w])[rRbB]?[fF][rRbB]?$/.test(text.slice(Math.max(0, i - 3), i)));
    const end = python && text.startsWith(q.repeat(3), i) ? q.repeat(3) : q;
    let out = end;
    i += end.length;
    while (i < text.length) {
      const c = text[i]!;
      if (text.startsWith(end, i)) {
        i += end.length;
        return out + end;
      }
      if (end === q && q !== '`' && c === '\n') return out;
      if (c === '\\') {
        out += blank(c) + (i + 1 < text.length ? blank(text[i + 1]!) : '');
        i += 2;
        continue;
      }
      const opens = q === '`' ? text.startsWith('${', i) : interpolated && c === '{' && text[i + 1] !== '{';
      if (interpolated && python && text.startsWith('{{', i)) {
        out += '  ';
        i += 2;
        continue;
      }
      if (opens) {
        const open = q === '`' ? '${' : '{';
        i += open.length;
        out += open + code('}');
        if (i < text.length) {
          out += '}';
          i++;
        }
        continue;
      }
      out += blank(c);
      i++;
    }
    return out;
  };
  return code(null);
}

/** The end (exclusive) of the argument or value starting at `from`: the next `,` at its own depth, or the bracket closing it. */
function argumentEnd(text: string, from: number, limit = Infinity): number {
  let depth = 0;
  const stop = Math.min(text.length, from + limit);
  for (let j = from; j < stop; j++) {
    const c = text[j]!;
    if (c === '(' || c === '[' || c === '{') depth++;
    else if (c === ')' || c === ']' || c === '}') {
      if (depth === 0) return j;
      depth--;
    } else if (c === ',' && depth === 0) return j;
  }
  return stop;
}


/** The three views of a module's text (same length): process environments blanked, strings blanked, names that are not references blanked. */
function views(text: string, python: boolean): { raw: string; struct: string; code: string } {
  let struct = blankStrings(text, python);
  let raw = text;
  // `subprocess.run(cmd, env=env)`, `spawn(cmd, args, { env: { ...process.env } })`: the child's environment.
  for (const call of struct.matchAll(PROCESS_CALL)) {
    const open = call.index + call[0].length;
    // The call's closing parenthesis, looked for within a few thousand characters (a bundle has many `.exec(`).
    let close = open;
    while (close < struct.length && close - open < 4000 && struct[close] !== ')') {
      const next = struct[close] === ',' ? close + 1 : argumentEnd(struct, close, 4000);
      close = next > close ? next : close + 1;
    }
    for (const arg of struct.slice(open, close).matchAll(/(?<![\w$.])env\s*[=:](?![=:])|(?<=[{,]\s*)env(?=\s*[,}])/g)) {
      const from = open + arg.index;
      const to = argumentEnd(struct, from + arg[0].length, 4000);
      raw = raw.slice(0, from) + spaces(raw.slice(from, to)) + raw.slice(to);
      struct = struct.slice(0, from) + spaces(struct.slice(from, to)) + struct.slice(to);
    }
  }
  // A keyword argument's name (`data=`, `env=`) and a JavaScript object key (`{ token: … }`) name no variable.
  let code = struct.replace(/([(,]\s*)([A-Za-z_]\w*\s*=)(?!=)/g, (_m, a: string, b: string) => a + spaces(b));
  if (!python) code = code.replace(/([{,]\s*)([A-Za-z_$][\w$]*\s*:)(?!:)/g, (_m, a: string, b: string) => a + spaces(b));
  return { raw, struct, code };
}

function moduleOf(path: string, text: string): Module | null {
  const python = /\.py$/i.test(path);
  if (!python && !/\.(?:[cm]?[jt]sx?)$/i.test(path)) return null;
  const facts = python ? pythonFacts(text) : javascriptFacts(text, { typescript: /\.[cm]?tsx?$/i.test(path) });
  const profile = capabilityProfile(facts, text);
  const sends = new Map<number, string[]>();
  for (const c of profile.capabilities) if (c.kind === 'network-send') sends.set(c.line, [...(sends.get(c.line) ?? []), ...(c.hosts ?? [])]);
  const lines = text.split('\n');
  const v = views(text, python);
  return { path, lines, raw: v.raw.split('\n'), struct: v.struct.split('\n'), code: v.code.split('\n'), facts, functions: functionRanges(lines, python), sends, fileHosts: profile.fileHosts };
}

/**
 * Whether code names a constant the module binds at its top level to what it computes itself
 * (`_B = bytes([104, …]).decode()`): not a configuration read, not a secret.
 */
function constantIn(m: Module, code: string, tainted?: ReadonlyMap<string, unknown>): boolean {
  for (let i = 0; i < m.code.length; i++) {
    const assign = /^(?:(?:const|let|var)\s+)?([A-Za-z_$][\w$]*)\s*=(?![=>])/.exec(m.code[i]!);
    if (assign === null || tainted?.has(assign[1]!) === true || !word(assign[1]!).test(code)) continue;
    const raw = m.raw[i]!;
    if (!CONFIG_READ.test(raw) && !CREDENTIAL_FILE.test(raw) && !ENV_WHOLE.test(raw) && !ENV_TOKEN.test(raw) && !CREDENTIAL_COMMAND.test(raw)) return true;
  }
  return false;
}

interface Span {
  raw: string;
  struct: string;
  code: string;
}

/** The text of the call starting on a line, through the lines that close its parentheses (in each view, from column `at`). */
function callSpan(m: Module, line: number, at = 0): Span {
  let last = line - 1;
  let depth = 0;
  for (let j = line - 1; j < m.lines.length && j < line + 15; j++) {
    last = j;
    for (const c of j === line - 1 ? m.struct[j]!.slice(at) : m.struct[j]!) depth += c === '(' ? 1 : c === ')' ? -1 : 0;
    if (depth <= 0) break;
  }
  const join = (ls: string[]) => `${ls.slice(line - 1, last + 1).join('\n')}\n`.slice(at);
  return { raw: join(m.raw), struct: join(m.struct), code: join(m.code) };
}

/** The [from, to) range of a call's URL argument: its first argument, or that of a `Request(…)` / `URL(…)` it is built with. */
function urlArgument(struct: string): [number, number] | null {
  let open = struct.indexOf('(');
  for (let depth = 0; open !== -1 && depth < 3; depth++) {
    const to = argumentEnd(struct, open + 1);
    const inner = /^\s*(?:new\s+)?(?:[\w$]+\.)*(?:Request|URL|Url|urljoin)\s*\(/.exec(struct.slice(open + 1, to));
    if (inner === null) return [open + 1, to];
    open = open + 1 + inner[0].length - 1;
  }
  return null;
}

const VENDOR: ReadonlyArray<{ name: RegExp; hosts: RegExp }> = [
  { name: /GITHUB|GH_|git-credentials|gh[\\/]hosts\.yml/i, hosts: /(?:^|\.)(?:github\.com|githubusercontent\.com|ghe\.com)$/i },
  { name: /GITLAB/i, hosts: /(?:^|\.)gitlab\.com$|^gitlab\./i },
  { name: /NPM|npmrc/i, hosts: /(?:^|\.)npmjs\.(?:org|com)$/i },
  { name: /PYPI|pypirc/i, hosts: /(?:^|\.)pypi\.org$/i },
  { name: /AWS|\.aws/i, hosts: /(?:^|\.)amazonaws\.com$/i },
  { name: /OPENAI/i, hosts: /(?:^|\.)openai\.com$/i },
  { name: /ANTHROPIC/i, hosts: /(?:^|\.)anthropic\.com$/i },
];
/**
 * The secret is the vendor's own: a token or credential command named after it, or credential files all of
 * its own (`.git-credentials` to GitHub). The whole environment, or `.aws/credentials` posted to a gist, is
 * not GitHub's however often the module says "GitHub".
 */
function ownVendor(name: RegExp, kind: SourceKind, text: string): boolean {
  if (!name.test(text) || kind === 'whole environment') return false;
  if (kind !== 'credential file') return true;
  const files = [...text.matchAll(new RegExp(CREDENTIAL_FILE.source, 'gi'))].map((m) => m[0]);
  return files.length > 0 && files.every((f) => name.test(f));
}
const LOCAL = /^(?:localhost|127\.\d+\.\d+\.\d+|\[?::1\]?|0\.0\.0\.0|host\.docker\.internal)$/i;

export interface EntryFlow {
  file: string;
  line: number;
  severity: Severity;
  evidence: string;
}

/**
 * A secret read in the entry or a module it imports that reaches a network call. `modules` holds the
 * entry's text and those of the repository modules it imports (path → text). Null when there is no
 * such flow, or the secret goes to its own vendor's host (a GitHub token to api.github.com) or the local machine.
 */
export function entrySecretFlow(entry: string, modules: ReadonlyMap<string, string>): EntryFlow | null {
  const parsed: Module[] = [];
  for (const [path, text] of modules) {
    if (text.length > 512 * 1024) continue;
    const m = moduleOf(path, text);
    if (m !== null) parsed.push(m);
  }
  // Functions that send (make a network call, or call another function that does), by name, across the modules.
  const senders = new Map<string, Module>();
  for (let pass = 0; pass < 3; pass++) {
    for (const m of parsed) {
      for (const [name, fn] of m.functions) {
        if (senders.has(name)) continue;
        const body = m.lines.slice(fn.from - 1, fn.to);
        const direct = [...m.sends.keys()].some((l) => l >= fn.from && l <= fn.to);
        const viaOther = [...senders.keys()].some((s) => s !== name && body.some((l) => new RegExp(`(?<![\\w$])${s}\\s*\\(`).test(l)));
        if (direct || viaOther) senders.set(name, m);
      }
    }
  }
  // Functions of any of the modules that return secrets (a helper's `collect()`): a call of one taints in every module.
  const secretFunctions = new Map<string, { kind: SourceKind; encoded: boolean }>();
  const RANK: SourceKind[] = ['credential file', 'whole environment', 'credential command', 'token variable'];
  for (let round = 0; round < 2; round++) for (const m of parsed) {
    const text = m.lines.join('\n');
    const dynamicEnv = TOKEN_LITERAL.test(text);
    const sourceOf = (line: string): SourceKind | null => {
      if (/^\s*(?:#|\/\/|\*)/.test(line)) return null;
      if (CREDENTIAL_FILE.test(line)) return 'credential file';
      if (ENV_WHOLE.test(line)) return 'whole environment';
      if (ENV_TOKEN.test(line) || (dynamicEnv && ENV_DYNAMIC.test(line))) return 'token variable';
      if (CREDENTIAL_COMMAND.test(line)) return 'credential command';
      return null;
    };
    // Credential paths folded from built strings (`chr()` codes, joined pieces) count on their line.
    const foldedSource = new Set(m.facts.strings.filter((s) => CREDENTIAL_FILE.test(s.value)).map((s) => s.line));
    const seeded = round === 0 ? [] : [...secretFunctions].filter(([n]) => !m.functions.has(n));
    const tainted = new Map<string, SourceKind>(seeded.map(([n, v]) => [n, v.kind]));
    const kinds = new Set<SourceKind>();
    // Names are matched in the `code` view: not inside string literals, not as keyword-argument names or object keys.
    const named = (code: string): SourceKind | null => {
      // The gravest kind the code carries (a credential file beside a token: the file).
      let best: SourceKind | null = null;
      for (const [n, k] of tainted) if ((best === null || RANK.indexOf(k) < RANK.indexOf(best)) && word(n).test(code)) best = k;
      return best;
    };
    const lineTaint = (i: number): SourceKind | null => sourceOf(m.raw[i]!) ?? (foldedSource.has(i + 1) ? 'credential file' : null) ?? named(m.code[i]!);
    // Whether a piece of text (the same range of the raw and code views) carries a source or a tainted name.
    const carries = (raw: string, code: string): boolean => sourceOf(raw) !== null || named(code) !== null;
    // Names holding a query string or a URL built with tainted data in its query (`q = urlencode({...})`, `u = f"{B}?d={t}"`).
    const queryNames = new Set<string>();
    const queryOnLine = (i: number): boolean => {
      const [raw, struct, code] = [m.raw[i]!, m.struct[i]!, m.code[i]!];
      const mark = struct.indexOf('\x01');
      return QUERY_BUILD.test(struct) || (mark !== -1 && carries(raw.slice(mark), code.slice(mark)));
    };
    let encoded = false;
    for (let pass = 0; pass < 4; pass++) {
      const before = tainted.size + queryNames.size;
      for (let i = 0; i < m.lines.length; i++) {
        const kind = lineTaint(i);
        if (kind === null) continue;
        const line = m.lines[i]!;
        const code = m.code[i]!;
        kinds.add(kind);
        if (ENCODES.test(line) || seeded.some(([n, v]) => v.encoded && word(n).test(code))) encoded = true;
        const targets: string[] = [];
        const assign = /^\s*(?:(?:const|let|var)\s+)?([A-Za-z_$][\w$]*)(?:\s*(?:\[[^\]]*\]|\.[\w$]+))*\s*(?:[+|]|\?\?)?=(?![=>])/.exec(code);
        if (assign !== null) targets.push(assign[1]!);
        const destructure = /^\s*(?:const|let|var)\s+[{[]([^}\]]*)[}\]]\s*=/.exec(line);
        if (destructure !== null) targets.push(...destructure[1]!.split(',').map((x) => x.trim().replace(/^.*:\s*/, '')));
        const loop = /\bfor\s*\(?\s*(?:const|let|var)?\s*([\w$, ]+?)\s+(?:in|of)\b/.exec(code);
        if (loop !== null) targets.push(...loop[1]!.split(',').map((x) => x.trim()));
        const withAs = /\bas\s+([A-Za-z_]\w*)\s*:?\s*$/.exec(code);
        if (withAs !== null) targets.push(withAs[1]!);
        const mutate = /([A-Za-z_$][\w$]*)\.(?:append|update|push|extend|setdefault|add|write|concat)\s*\(/.exec(code);
        if (mutate !== null) targets.push(mutate[1]!);
        const search = /([A-Za-z_$][\w$]*)\.searchParams\.(?:set|append)\s*\(/.exec(code);
        if (search !== null) targets.push(search[1]!);
        // A function that returns what is tainted returns secrets.
        if (/^\s*(?:return|yield)\b|=>\s*[^{]/.test(code)) for (const [name, fn] of m.functions) if (i + 1 >= fn.from && i + 1 <= fn.to) targets.push(name);
        const query = queryOnLine(i);
        for (const t of targets) {
          if (!/^[A-Za-z_$][\w$]*$/.test(t) || /^(?:self|this|os|sys|process|path|json|console|print)$/.test(t)) continue;
          if (!tainted.has(t)) tainted.set(t, kind);
          if (query || [...queryNames].some((q) => word(q).test(code))) queryNames.add(t);
        }
      }
      if (tainted.size + queryNames.size === before) break;
    }
    const strongest = RANK.find((k) => kinds.has(k));
    for (const [name] of m.functions) if (tainted.has(name) && !secretFunctions.has(name) && strongest !== undefined) secretFunctions.set(name, { kind: strongest, encoded });
    if (kinds.size === 0 || round === 0) continue;
    // Names holding a destination from the user's configuration (`url = os.environ.get('SLACK_WEBHOOK_URL')`), not a literal URL.
    const configNames = new Set<string>();
    for (let pass = 0; pass < 2; pass++) {
      m.code.forEach((code, i) => {
        const assign = /^\s*(?:(?:const|let|var)\s+)?([A-Za-z_$][\w$]*)\s*(?:\?\?|\|\|)?=(?![=>])/.exec(code);
        if (assign === null || /\b(?:https?|wss?):\/\//i.test(m.raw[i]!)) return;
        if (CONFIG_READ.test(m.raw[i]!.slice(assign[0].length)) || [...configNames].some((n) => word(n).test(code.slice(assign[0].length)))) configNames.add(assign[1]!);
      });
    }
    // Sinks: a network call, or a call of a sending function, whose arguments carry a tainted name or a source.
    const computedIn = (code: string) => constantIn(m, code, tainted);
    const check = (line: number, span: Span, own: string[], fallback: string[], via: string, fixedElsewhere = false): EntryFlow | null => {
      const open = span.struct.indexOf('(');
      if (open === -1) return null;
      const args: Span = { raw: span.raw.slice(open), struct: span.struct.slice(open), code: span.code.slice(open) };
      // The gravest of what the call reads in place and the names it carries (`send(process.env.GITHUB_TOKEN, dump)`
      // with `dump` the whole environment is the environment).
      const direct = sourceOf(args.raw);
      const carried = named(args.code);
      const kind: SourceKind | null = direct === null ? carried : carried === null || RANK.indexOf(direct) <= RANK.indexOf(carried) ? direct : carried;
      if (kind === null) return null;
      // The destination must be fixed by the code (a literal or folded host): one read from the
      // environment or a configuration (a notification URL, a self-hosted server) is the user's own.
      const url = urlArgument(span.struct);
      const urlCode = url === null ? '' : span.code.slice(url[0], url[1]);
      // The URL up to its query: where the request goes.
      const mark = url === null ? -1 : span.struct.indexOf('\x01', url[0]);
      const hostEnd = url === null ? 0 : mark !== -1 && mark < url[1] ? mark : url[1];
      const hostRaw = url === null ? '' : span.raw.slice(url[0], hostEnd);
      const hostCode = url === null ? '' : span.code.slice(url[0], hostEnd);
      const userDestination = !carries(hostRaw, hostCode) && (CONFIG_READ.test(hostRaw) || [...configNames].some((n) => word(n).test(hostCode)));
      if (own.length === 0 && /\b(?:https?|wss?):\/\/(?:localhost|127\.|\[::1\]|0\.0\.0\.0)/i.test(hostRaw)) return null;
      const known = (own.length > 0 ? own : userDestination ? [] : fallback).filter((h) => h !== '');
      const computed = known.length === 0 && !userDestination && (fixedElsewhere || computedIn(hostCode));
      if (known.length === 0 && !computed) return null;
      if (known.length > 0 && known.every((h) => LOCAL.test(h) || VENDOR.some((v) => v.hosts.test(h) && ownVendor(v.name, kind, text)))) return null;
      // In the URL's query: inside `params=` (requests, httpx; axios's `params:`), after a `?` of the URL, or a name built as a query into the URL.
      let query = false;
      for (const p of span.struct.matchAll(/(?<![\w$.])params\s*[=:](?![=:])/g)) {
        const from = p.index + p[0].length;
        const to = argumentEnd(span.struct, from);
        if (carries(span.raw.slice(from, to), span.code.slice(from, to))) query = true;
      }
      if (url !== null) {
        if (hostEnd < url[1] && carries(span.raw.slice(hostEnd, url[1]), span.code.slice(hostEnd, url[1]))) query = true;
        if ([...queryNames].some((n) => word(n).test(urlCode))) query = true;
      }
      const strong = kind !== 'token variable' || encoded || query || ENCODES.test(span.raw);
      if (!strong) return null;
      const hidden = known.length > 0 && known.every((h) => !parsed.some((p) => p.lines.join('\n').includes(h)));
      const how = [encoded || ENCODES.test(span.raw) ? 'compressed or encoded' : '', query ? 'in the URL’s query' : '', hidden ? 'to a host built at run time' : ''].filter((x) => x !== '').join(', ');
      return { file: m.path, line, severity: 'CRIT', evidence: `${kind} data reaches ${via}${how === '' ? '' : ` (${how})`} → ${known.slice(0, 2).join(', ') || 'an address it computes'}: ${m.lines[line - 1]!.trim().slice(0, 160)}` };
    };
    for (const [line, hosts] of m.sends) {
      const hit = check(line, callSpan(m, line), hosts, m.fileHosts, 'a network call');
      if (hit !== null) return hit;
    }
    for (let i = 0; i < m.lines.length; i++) {
      for (const [name, sender] of senders) {
        const fn = sender.functions.get(name)!;
        if (sender === m && i + 1 >= fn.from && i + 1 <= fn.to) continue;
        const at = m.code[i]!.search(new RegExp(`(?<![\\w$])${name.replace(/\$/g, '\\$')}\\s*\\(`));
        if (at === -1 || /^\s*(?:async\s+)?(?:def|function)\b/.test(m.lines[i]!)) continue;
        const sends = [...sender.sends].filter(([l]) => l >= fn.from && l <= fn.to);
        const hosts = [...new Set([...sends.flatMap(([, h]) => h), ...sender.fileHosts])];
        // Without a host it names, the sender's destination is still fixed when computed from the sender module's constants.
        const senderConstants = sends.some(([l]) => {
          const sp = callSpan(sender, l);
          const u = urlArgument(sp.struct);
          return u !== null && constantIn(sender, sp.code.slice(u[0], u[1]));
        });
        const hit = check(i + 1, callSpan(m, i + 1, at), hosts, [], `${name}() of ${sender.path}, which sends it`, senderConstants);
        if (hit !== null) return hit;
      }
    }
  }
  void entry;
  return null;
}

export const ENTRY_FLOW_TITLE = 'code that runs by itself sends credentials or the environment out';

/** The finding for a flow out of an entry run for `why`. */
export function entryFlowFinding(flow: EntryFlow, why: string): AgentFinding {
  return referenceFinding({ category: 'exfiltration', severity: flow.severity, title: ENTRY_FLOW_TITLE, file: flow.file, line: flow.line, evidence: `${flow.evidence} [${why}]`.slice(0, 400) });
}
